import type { HTMLAttributes, ReactNode } from 'react';

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
      <tbody>{props.children}</tbody>
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
