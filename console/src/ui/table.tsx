import { Children, cloneElement, type HTMLAttributes, isValidElement, type ReactElement, type ReactNode } from 'react';

/** A column header: its text, or an object for a header only screen readers see (an actions column). */
export type Column = string | { label: string; hidden: true };

/**
 * A list table as every page draws it: in its horizontal scroller (`table-wrap`), with a caption
 * (its accessible name; visually hidden where the heading above says it) and column headers.
 * The rows are the children. Falsy columns are left out (a column only some viewers get).
 */
export function Table(props: {
  caption: ReactNode;
  captionHidden?: boolean;
  columns: ReadonlyArray<Column | false | null | undefined>;
  className?: string;
  /** The scroller's class; `false` for a table without one (a chart's table twin). */
  wrap?: string | false;
  wrapProps?: HTMLAttributes<HTMLDivElement>;
  children: ReactNode;
}) {
  const labels = props.columns.filter((c): c is Column => !!c).map((c) => (typeof c === 'string' ? c : c.label));
  const table = (
    <table className={props.className}>
      <caption className={props.captionHidden ? 'visually-hidden' : undefined}>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((c, i) =>
            !c ? null : typeof c === 'string' ? (
              <th key={c} scope="col">
                {c}
              </th>
            ) : (
              <th key={`hidden-${i}`} scope="col">
                <span className="visually-hidden">{c.label}</span>
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{labelCells(props.children, labels)}</tbody>
    </table>
  );
  const wrap = props.wrap ?? 'table-wrap';
  return wrap ? (
    <div className={wrap} {...props.wrapProps}>
      {table}
    </div>
  ) : (
    table
  );
}

/** The header of a column of row actions: named for screen readers only. */
export const ACTIONS: Column = { label: 'Actions', hidden: true };

type Cell = ReactElement<{ 'data-label'?: string }>;

/**
 * Each row's cells get their column's name as `data-label`: on a phone the stylesheet draws a
 * row as a card, each cell under its name, so no table scrolls sideways and the row's actions stay
 * on screen (docs/console.md, "Tables"). Rows a page wraps in fragments keep their cells as they are.
 */
function labelCells(rows: ReactNode, labels: string[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement<{ children?: ReactNode }>(row) || row.type !== 'tr') return row;
    let i = 0;
    const cells = Children.map(row.props.children, (cell) => {
      if (!isValidElement(cell) || (cell.type !== 'td' && cell.type !== 'th')) return cell;
      const label = labels[i++];
      return label ? cloneElement(cell as Cell, { 'data-label': label }) : cell;
    });
    return cloneElement(row, undefined, cells);
  });
}
