/**
 * The customer-reviews histogram of a detail page: percent of ratings per star as the page shows them.
 * Layouts seen:
 *  - 2017-2019 table#histogramTable, rows "5 star | meter | 67%", title="5 star (67%)" on the links
 *  - 2020-2023 rows with aria-label "5 stars represent 84% of rating" / "76% de avaliações possuem 5 estrelas"
 *  - 2024 #cm_cr_dp_d_rating_histogram table rows, aria-label "58 percent of reviews have 5 stars"
 *  - 2025+ ul#histogramTable: every row's visible text repeats all five labels and percentages as
 *    layout spacers, so only the row's aria-label (or its meter) pairs a star with its percentage.
 * Labels come first because some layouts show rating counts where others show percentages.
 */
import type { RatingPercentages } from '@crawl/core';
import type { Doc, DomNode } from '../page';
import { elementsUnder, hasClass, nodeText } from './node-walk';
import { asciiDigits } from './review-date';

const PERCENT_WORDS = String.raw`%|％|٪|percent\b|per cent\b|prozent|pour ?cent|por ?ciento|por ?cento|per ?cento|procent|パーセント|(?:بال|في ال)(?:مائة|مئة)`;
/** "84%", "58 percent", "76 % des": the number before a percent sign or word. */
const PERCENT_AFTER_RE = new RegExp(String.raw`(\d{1,3}(?:[.,]\d+)?)\s*(?:${PERCENT_WORDS})`, 'giu');
/** Turkish writes the sign first: "%71". */
const PERCENT_BEFORE_RE = /(?:%|％|٪|yüzde)\s*(\d{1,3}(?:[.,]\d+)?)/giu;

const STAR_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

function toPercent(raw: string): number | null {
  const n = Math.round(Number(raw.replace(',', '.')));
  return Number.isFinite(n) && n >= 0 && n <= 100 ? n : null;
}

/** All percentages stated in a text, in order. */
function percentsIn(text: string): number[] {
  const s = asciiDigits(text);
  const out: number[] = [];
  for (const re of [PERCENT_AFTER_RE, PERCENT_BEFORE_RE]) {
    for (const m of s.matchAll(re)) {
      const p = toPercent(m[1]!);
      if (p !== null) out.push(p);
    }
    if (out.length) break;
  }
  return out;
}

/** The percentage a histogram row states: its labels, then its meter, then the last visible "N%". */
function rowPercent(row: DomNode, nodes: DomNode[]): number | null {
  for (const node of [row, ...nodes]) {
    for (const attr of ['aria-label', 'title']) {
      const label = node.attribs?.[attr];
      const p = label ? percentsIn(label)[0] : undefined;
      if (p !== undefined) return p;
    }
  }
  for (const node of nodes) {
    const now = node.attribs?.['aria-valuenow'];
    if (now !== undefined && (hasClass(node, 'a-meter') || node.attribs?.role === 'progressbar')) {
      const p = toPercent(now.replace(/%\s*$/, '').trim());
      if (p !== null) return p;
    }
  }
  // Older rows ("5 Sterne (0%) 0%") end with the percentage.
  return percentsIn(nodeText(row)).pop() ?? null;
}

/** The star a row links to ("filterByStar=five_star", "ref=acr_dp_hist_5"), for lists that are not the usual five rows. */
function rowStar(nodes: DomNode[]): number | null {
  for (const node of nodes) {
    const href = node.attribs?.href ?? node.attribs?.['data-reviews-state-param'] ?? '';
    const word =
      /filterByStar=(one|two|three|four|five)_star/.exec(href) ?? /"filterByStar"\s*:\s*"(one|two|three|four|five)_star/.exec(href);
    if (word) return STAR_WORDS[word[1]!]!;
    const hist = /_hist_([1-5])(?!\d)/.exec(href);
    if (hist) return Number(hist[1]);
  }
  return null;
}

/** The rows of the first table or list at or under `container` that has any, else its .a-histogram-row blocks. */
function histogramRows(container: DomNode): DomNode[] {
  const nodes = [container, ...elementsUnder(container)];
  for (const node of nodes) {
    if (node.name !== 'table' && node.name !== 'ul') continue;
    const rowTag = node.name === 'table' ? 'tr' : 'li';
    // tr may sit under tbody/thead; a nested table's rows belong to that table.
    const rows = elementsUnder(node).filter((n) => n.name === rowTag && closest(n, ['table', 'ul']) === node);
    const filled = rows.filter((r) => nodeText(r) || elementsUnder(r).length);
    if (filled.length) return filled;
  }
  return nodes.filter((n) => hasClass(n, 'a-histogram-row'));
}

function closest(node: DomNode, names: readonly string[]): DomNode | null {
  for (let cur = node.parent ?? null; cur; cur = cur.parent ?? null) if (names.includes(cur.name ?? '')) return cur;
  return null;
}

function fromRows(rows: DomNode[]): RatingPercentages | null {
  const byStar = new Map<number, number | null>();
  rows.forEach((row, i) => {
    const nodes = elementsUnder(row);
    // Amazon lists five rows from 5 stars down to 1; other shapes must name their star.
    const star = rows.length === 5 ? 5 - i : rowStar(nodes);
    if (star !== null && !byStar.has(star)) byStar.set(star, rowPercent(row, nodes));
  });
  const known = [...byStar.values()].filter((p): p is number => p !== null);
  if (known.length === 0) return null;
  // A star the page gives no percentage for is 0 only when the others already make up the whole.
  const total = known.reduce((a, b) => a + b, 0);
  const get = (star: number): number | null => {
    const p = byStar.get(star);
    return p ?? (total >= 99 ? 0 : null);
  };
  const out = { '5': get(5), '4': get(4), '3': get(3), '2': get(2), '1': get(1) };
  return Object.values(out).every((v) => v !== null) ? (out as RatingPercentages) : null;
}

/**
 * Percent of ratings per star; all zeros when the page shows the histogram of a product without
 * ratings; null when the page has no histogram.
 */
export function extractRatingHistogram(doc: Doc): RatingPercentages | null {
  const containers = [...doc.byId('histogramTable').toArray(), ...doc.byId('cm_cr_dp_d_rating_histogram').toArray()] as DomNode[];
  for (const container of containers) {
    const histogram = fromRows(histogramRows(container));
    if (histogram) return histogram;
  }
  return null;
}
