/**
 * Best-seller list pages for any list and page, from a saved list page: Amazon ranks a list's top
 * 100 on 2 pages of 50 (`?pg=2` is ranks 51-100). A page of the template is the saved page with
 * - its products' ASINs (cards, product links, the `data-client-recs-list` data) derived from the
 *   list and page, so each list page shows its own products;
 * - its ranks moved by the pages before it: the `#N` badges and the data's `render.zg.rank`;
 * - its pagination list showing that page as the current one: on the last page the "Next page"
 *   item is disabled and "Previous page" links to the page before, as on Amazon.
 * Everything else (titles, images, prices) is the saved page's. All of it is located once at
 * start (patch-template.ts); a request only concatenates.
 */
import { PatchTemplate, type Needle } from './patch-template';
import { syntheticAsin } from './synthetic';

/** Pages of a best-seller list (and so the simulator's): 2 pages of 50. */
export const BESTSELLER_LIST_PAGES = 2;

/** ASINs a list page names: `data-asin`, element ids (amazon.in 2023 grid), product links and the rank data. */
const LIST_ASIN_RES = [
  /\bdata-asin="([A-Z0-9]{10})"/g,
  /\bid="([A-Z0-9]{10})"/g,
  /\/dp\/([A-Z0-9]{10})\b/g,
  /&quot;id&quot;:&quot;([A-Z0-9]{10})&quot;/g,
];
const BADGE_RE = /<span class="zg-bdg-text">#(\d+)<\/span>/g;
const DATA_RANK_RE = /&quot;render\.zg\.rank&quot;:&quot;(\d+)&quot;/g;
const PAGINATION_OPEN = '<ul class="a-pagination">';

const badge = (rank: number): string => `<span class="zg-bdg-text">#${rank}</span>`;
const dataRank = (rank: number): string => `&quot;render.zg.rank&quot;:&quot;${rank}&quot;`;

type Slot = `asin:${number}` | `badge:${number}` | `rank:${number}` | 'pagination';

export class BestsellersTemplate {
  private readonly template: PatchTemplate<Slot>;
  /** Ranks on one page: the highest rank the saved page (a first page) shows. */
  private readonly pageSize: number;
  private readonly paginations: Map<number, Buffer>;

  constructor(page: Buffer) {
    const html = page.toString('latin1');
    const asins = [...new Set(LIST_ASIN_RES.flatMap((re) => [...html.matchAll(re)].map((m) => m[1]!)))];
    const badges = [...new Set([...html.matchAll(BADGE_RE)].map((m) => Number(m[1])))];
    const dataRanks = [...new Set([...html.matchAll(DATA_RANK_RE)].map((m) => Number(m[1])))];
    this.pageSize = Math.max(0, ...badges, ...dataRanks);
    const pagination = paginationList(html);
    const needles: Needle<Slot>[] = [
      ...asins.map((text, i): Needle<Slot> => ({ text, slot: `asin:${i}` })),
      ...badges.map((rank): Needle<Slot> => ({ text: badge(rank), slot: `badge:${rank}` })),
      ...dataRanks.map((rank): Needle<Slot> => ({ text: dataRank(rank), slot: `rank:${rank}` })),
    ];
    if (pagination) needles.push({ text: pagination, slot: 'pagination' });
    this.template = new PatchTemplate(page, needles);
    // The saved page is a first page: its own list is page 1's.
    this.paginations = new Map(
      Array.from({ length: BESTSELLER_LIST_PAGES }, (_, i) => {
        const list = pagination && i > 0 ? paginationAt(pagination, i + 1) : (pagination ?? '');
        return [i + 1, Buffer.from(list, 'latin1')];
      }),
    );
  }

  /**
   * Page `pageNo` (1 to BESTSELLER_LIST_PAGES) of the list `listPath`: its own stable ASINs, and
   * the ranks of that page.
   */
  render(listPath: string, pageNo: number): Buffer {
    const offset = (pageNo - 1) * this.pageSize;
    const values = new Map<Slot, Buffer>();
    return this.template.render((slot) => {
      let v = values.get(slot);
      if (!v) {
        v = this.value(slot, listPath, pageNo, offset);
        values.set(slot, v);
      }
      return v;
    });
  }

  private value(slot: Slot, listPath: string, pageNo: number, offset: number): Buffer {
    if (slot === 'pagination') return this.paginations.get(pageNo) ?? Buffer.alloc(0);
    const [kind, n] = slot.split(':') as [string, string];
    if (kind === 'asin') return Buffer.from(syntheticAsin(`${listPath}#${pageNo}#${n}`));
    const rank = Number(n) + offset;
    return Buffer.from(kind === 'badge' ? badge(rank) : dataRank(rank));
  }
}

/** The page's `<ul class="a-pagination">…</ul>` as written, or null. */
function paginationList(html: string): string | null {
  const open = html.indexOf(PAGINATION_OPEN);
  if (open === -1) return null;
  const close = html.indexOf('</ul>', open);
  return close === -1 ? null : html.slice(open, close + '</ul>'.length);
}

const ITEM_RE = /<li\b[^>]*>[\s\S]*?<\/li>/g;
const LINK_RE = /<a\b[^>]*>([\s\S]*?)<\/a>/;
const HREF_RE = /\bhref="([^"]*)"/;

/**
 * A first page's pagination list as page `pageNo` shows it. Items: "Previous page" (disabled on
 * the first page), one per page (the current one `a-selected` with `aria-current`), "Next page"
 * (`a-last`, disabled on the last page).
 */
function paginationAt(list: string, pageNo: number): string {
  const items = [...list.matchAll(ITEM_RE)];
  const pageHref = new Map<number, string>();
  for (const [item] of items) {
    const n = pageNumberOf(item);
    const href = HREF_RE.exec(item)?.[1];
    if (n !== null && href) pageHref.set(n, href);
  }
  const last = Math.max(1, ...pageHref.keys());
  let out = '';
  let from = 0;
  items.forEach(({ 0: item, index }, i) => {
    out += list.slice(from, index) + itemAt(item, i === 0, pageNo, last, pageHref);
    from = index + item.length;
  });
  return out + list.slice(from);
}

/** The page number an item links to ("1", "2"), or null for Previous/Next. */
function pageNumberOf(item: string): number | null {
  const text = LINK_RE.exec(item)?.[1]?.trim() ?? '';
  return /^\d+$/.test(text) ? Number(text) : null;
}

function itemAt(item: string, first: boolean, pageNo: number, last: number, pageHref: Map<number, string>): string {
  const n = pageNumberOf(item);
  if (n !== null) {
    const attrs = (/^<li\b([^>]*)>/.exec(item)?.[1] ?? '').replace(/\s*class="[^"]*"/, '');
    const current = n === pageNo;
    return `<li${attrs} class="${current ? 'a-selected' : 'a-normal'}"><a href="${pageHref.get(n)}"${current ? ' aria-current="page"' : ''}>${n}</a></li>`;
  }
  const label = LINK_RE.exec(item)?.[1] ?? item.replace(/^<li\b[^>]*>/, '').replace(/<\/li>$/, '');
  if (/class="[^"]*\ba-last\b/.test(item)) {
    const next = pageHref.get(pageNo + 1);
    return pageNo >= last || !next
      ? `<li class="a-disabled a-last">${label}</li>`
      : `<li class="a-last"><a href="${next}">${label}</a></li>`;
  }
  if (!first) return item;
  const previous = pageHref.get(pageNo - 1);
  return pageNo <= 1 || !previous ? `<li class="a-disabled">${label}</li>` : `<li class="a-normal"><a href="${previous}">${label}</a></li>`;
}
