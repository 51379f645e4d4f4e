/**
 * The key/value rows of a detail page's product-information blocks, read once for the fact
 * extractors. Amazon has shown these rows in several layouts over the years:
 *  - tables (2019+ #prodDetails with #productDetails_techSpec_section_N, the detailBullets table and
 *    the hidden 2024+ expanders; #tech; #technicalSpecifications_section_N): <th>Key</th><td>Value</td>
 *  - 2020+ detail bullets: <span class="a-text-bold">Key ‏ : ‎</span> <span>Value</span>
 *  - pre-2020 bullets (#detail-bullets, #detail_bullets_id): <li><b>Key:</b> Value</li>
 *  - the summary at the top of the page (#productOverview_feature_div, #poExpander, 2023+ product
 *    facts), whose rows only count where the tables above lack them (`summary: true`).
 * Containers are looked up through the id index and walked as plain nodes: a cheerio .find() per
 * container would compile a selector each time (see node-walk.ts).
 */
import type { Doc, DomNode } from '../page';
import { elementsUnder, hasClass, nodeText } from './node-walk';

export interface ProductRow {
  /** The label as shown, without separators or invisible marks ("Item Weight"). */
  label: string;
  /** The label folded for matching: lower case, no diacritics, single spaces ("item weight"). */
  key: string;
  value: string;
  /** True for rows of the summary table at the top of the page. */
  summary: boolean;
}

/** Product-details and technical-details blocks, in the order their rows are preferred. */
const DETAIL_IDS = [
  'prodDetails',
  'tech',
  'technicalSpecifications_feature_div',
  'technicalSpecifications_section_1',
  'technicalSpecifications_section_2',
  'technicalSpecifications_section_3',
  'detailBulletsWrapper_feature_div',
  'detailBullets_feature_div',
  'detail-bullets',
  'detail_bullets_id',
  'productDetailsTable',
];
/**
 * The productDetails_* tables (techSpec sections, detailBullets table, 2024+ expanders) sit inside
 * #prodDetails; a page without that wrapper is searched for them by id prefix, which walks the
 * whole id index and so only runs when needed.
 */
const DETAIL_TABLES_PREFIX = 'productDetails_';
const SUMMARY_IDS = ['productOverview_feature_div', 'poExpander', 'productFactsDesktopExpander', 'productFactsDesktop_feature_div'];

/** Bidi and zero-width marks (U+200E/U+200F around the bullets' ":", isolates, Arabic letter mark). */
const INVISIBLE_RE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Text without invisible marks, whitespace collapsed. */
export function visible(s: string): string {
  return s
    .replace(INVISIBLE_RE, '')
    .replace(/[\s\u00a0\u2007\u202f]+/g, ' ')
    .trim();
}

/** Folded form of a label for matching across spellings ("Poids de l’article :" -> "poids de l'article"). */
export function labelKey(label: string): string {
  return visible(label)
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/ł/g, 'l')
    .replace(/[’‘`´]/g, "'")
    .replace(/\s*[:：]\s*$/, '')
    .trim();
}

function makeRow(rawLabel: string, rawValue: string, summary: boolean): ProductRow | null {
  const label = visible(rawLabel).replace(/\s*[:：]\s*$/, '');
  const value = visible(rawValue).replace(/^[:：]\s*/, '');
  if (!label || !value || label.length > 100) return null;
  return { label, key: labelKey(label), value, summary };
}

function isBoldLabel(node: DomNode): boolean {
  return node.name === 'b' || node.name === 'strong' || hasClass(node, 'a-text-bold');
}

/** "<b>Key:</b> Value" and "<span class=a-text-bold>Key : </span><span>Value</span>". */
function boldLabelRow(el: DomNode, summary: boolean): ProductRow | null {
  const nodes = elementsUnder(el);
  // A list item holding other list items (a rank ladder, or markup left unclosed around the
  // whole block) is not one row; its own items are read themselves.
  if (nodes.some((n) => n.name === 'li')) return null;
  const bold = nodes.find(isBoldLabel);
  if (!bold) return null;
  const label = visible(nodeText(bold));
  const full = visible(nodeText(el));
  // The label opens the row; a bold word inside a sentence is not a label.
  if (!label || !full.startsWith(label)) return null;
  return makeRow(label, full.slice(label.length), summary);
}

function childElements(node: DomNode, names: readonly string[]): DomNode[] {
  return (node.children ?? []).filter((c) => c.type === 'tag' && names.includes(c.name ?? ''));
}

function tableRow(tr: DomNode, summary: boolean): ProductRow | null {
  const cells = childElements(tr, ['th', 'td']);
  const inner = cells.map((c) => elementsUnder(c));
  // Rows wrapping nested tables are layout (the summary's icon grid); the nested rows are read themselves.
  if (inner.some((nodes) => nodes.some((n) => n.name === 'table'))) return null;
  if (cells.length >= 2) {
    const label = nodeText(cells[0]);
    // Truncated summary values keep the full text in .a-truncate-full (the cut copy repeats it).
    const full = inner[1]!.find((n) => hasClass(n, 'a-truncate-full'));
    if (visible(label)) return makeRow(label, nodeText(full ?? cells[1]), summary);
  }
  // Icon grids put "<span bold>Key</span><br><span>Value</span>" in one cell beside an icon cell.
  for (const cell of cells) {
    const row = boldLabelRow(cell, summary);
    if (row) return row;
  }
  return null;
}

/** 2023+ product facts: div.product-facts-detail with the key in .a-col-left and the value in .a-col-right. */
function factsRow(el: DomNode, summary: boolean): ProductRow | null {
  const nodes = elementsUnder(el);
  const left = nodes.find((n) => hasClass(n, 'a-col-left'));
  const right = nodes.find((n) => hasClass(n, 'a-col-right'));
  return left && right ? makeRow(nodeText(left), nodeText(right), summary) : null;
}

function rowsOf(container: DomNode, summary: boolean, seen: Set<DomNode>, out: ProductRow[]): void {
  for (const node of [container, ...elementsUnder(container)]) {
    if (seen.has(node)) continue;
    let row: ProductRow | null = null;
    if (node.name === 'tr') row = tableRow(node, summary);
    else if (node.name === 'li') row = boldLabelRow(node, summary);
    else if (hasClass(node, 'product-facts-detail')) row = factsRow(node, summary);
    else continue;
    seen.add(node);
    if (row) out.push(row);
  }
}

function insideAny(node: DomNode, walked: ReadonlySet<DomNode>): boolean {
  for (let cur = node.parent ?? null; cur; cur = cur.parent ?? null) if (walked.has(cur)) return true;
  return false;
}

/** Rows of each container in turn; a container inside one already walked (the tables inside #prodDetails) is skipped. */
function rowsOfAll(containers: readonly DomNode[], summary: boolean, seen: Set<DomNode>): ProductRow[] {
  const walked = new Set<DomNode>();
  const out: ProductRow[] = [];
  for (const node of containers) {
    if (walked.has(node) || insideAny(node, walked)) continue;
    walked.add(node);
    rowsOf(node, summary, seen, out);
  }
  return out;
}

function nodesOf(doc: Doc, ids: readonly string[]): DomNode[] {
  const nodes: DomNode[] = [];
  for (const id of ids) nodes.push(...(doc.byId(id).toArray() as DomNode[]));
  return nodes;
}

function detailContainers(doc: Doc): DomNode[] {
  const nodes = nodesOf(doc, DETAIL_IDS);
  if (doc.byId('prodDetails').length === 0) nodes.push(...(doc.q(`[id^="${DETAIL_TABLES_PREFIX}"]`).toArray() as DomNode[]));
  return nodes;
}

/**
 * Every key/value row of the product-details blocks in preference order, then the summary rows
 * whose label none of those rows has. Hidden panels count: they are the product's own data.
 */
export function readProductRows(doc: Doc): ProductRow[] {
  const seen = new Set<DomNode>();
  const rows = rowsOfAll(detailContainers(doc), false, seen);
  const summary = rowsOfAll(nodesOf(doc, SUMMARY_IDS), true, seen);
  const detailKeys = new Set(rows.map((r) => r.key));
  for (const row of summary) if (!detailKeys.has(row.key)) rows.push(row);
  return rows;
}
