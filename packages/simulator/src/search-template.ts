/**
 * A saved search page re-targeted at any keyword: the result cards get ASINs and titles
 * derived from the keyword and page number (see searchCardAsin / searchCardTitle), and the
 * keyword shows wherever the saved page showed its own (title, search box, result-count line,
 * links). Different keywords thus give different result sets, and the same keyword always
 * the same one, as a crawler tracking a keyword over time expects.
 *
 * The page is cut into segments once at start; a request only concatenates the segments with
 * its values (one ~1.3 MB copy), never scans the page.
 */
import { PatchTemplate, type Needle } from './patch-template';
import { escapeHtml, searchCardAsin, searchCardTitle } from './synthetic';

type Slot = { kind: 'asin' | 'title'; card: number } | { kind: 'kwHtml' | 'kwPlus' | 'kwPlus2' | 'kwPct' | 'next' };

const MODERN_CARD_RE = /<div\b[^>]*\bdata-component-type="s-search-result"[^>]*>/g;
const OLD_CARD_RE = /<li\b[^>]*\bclass="[^"]*\bs-result-item\b[^"]*"[^>]*>/g;
const DATA_ASIN_RE = /\bdata-asin="([A-Z0-9]{10})"/;
const H2_RE = /<h2\b[^>]*>([\s\S]*?)<\/h2>/g;
const TEXT_RUN_RE = />?([^<>]{8,})(?:<|$)/g;
const SEARCH_BOX_RE = /<input\b[^>]*\bid="twotabsearchtextbox"[^>]*>/;
const VALUE_RE = /\bvalue="([^"]*)"/;
const ARIA_LABEL_RE = /\baria-label=/;
/** The 2019+ "Next" link of the result pagination; a last page shows it as a disabled span. */
const NEXT_LINK_RE = /<a\b[^>]*\bs-pagination-next\b[^>]*>([^<]*)<\/a>/;

/** Form-encoding of a keyword as Amazon puts it in links (`portable+charger`). */
function plusEncode(keyword: string): string {
  return encodeURIComponent(keyword).replace(/%20/g, '+');
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|#34);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#34': '"' })[e]!,
  );
}

/** Card openings (modern layout, else the pre-2019 rows) with their ASIN. */
function findCards(html: string): { at: number; asin: string }[] {
  for (const re of [MODERN_CARD_RE, OLD_CARD_RE]) {
    const cards: { at: number; asin: string }[] = [];
    for (const m of html.matchAll(re)) {
      const asin = DATA_ASIN_RE.exec(m[0])?.[1];
      if (asin) cards.push({ at: m.index, asin });
    }
    if (cards.length > 0) return cards;
  }
  return [];
}

/**
 * The card's product title as it is written in the page: the text of its first h2 with an
 * aria-label (2019+ cards; a brand-only h2 may precede it, carousels may follow the card),
 * else of its first h2 with a text of some length (pre-2019 rows).
 */
function cardTitle(card: string): string | null {
  let fallback: string | null = null;
  for (const h2 of card.matchAll(H2_RE)) {
    let best = '';
    for (const run of h2[1]!.matchAll(TEXT_RUN_RE)) {
      const text = run[1]!.trim();
      if (text.length > best.length) best = text;
    }
    if (best.length < 8) continue;
    if (ARIA_LABEL_RE.test(h2[0].slice(0, h2[0].indexOf('>')))) return best;
    fallback ??= best;
  }
  return fallback;
}

export class SearchTemplate {
  /** The keyword the saved page was a search for. */
  readonly keyword: string;
  readonly cardCount: number;
  private readonly template: PatchTemplate<Slot>;
  private readonly nextLabel: string;
  private readonly nextHref: string;
  /** What a last result page shows instead of the "Next" link. */
  private readonly lastPageNext: Buffer;

  constructor(readonly page: Buffer) {
    const html = page.toString('latin1'); // byte offsets = string offsets
    const box = SEARCH_BOX_RE.exec(html);
    const boxValue = box ? VALUE_RE.exec(box[0])?.[1] : undefined;
    this.keyword = boxValue ? decodeEntities(Buffer.from(boxValue, 'latin1').toString('utf8')) : '';
    const needles: Needle<Slot>[] = [];
    const find = (text: string, slot: Slot, from?: number, to?: number): void => {
      needles.push({ text, slot, from, to });
    };
    const cards = findCards(html);
    const longest = cards.reduce((max, c, i) => (i > 0 ? Math.max(max, c.at - cards[i - 1]!.at) : max), 0);
    cards.forEach((card, i) => {
      const end = cards[i + 1]?.at ?? Math.min(html.length, card.at + (longest || 20_000));
      find(card.asin, { kind: 'asin', card: i });
      const title = cardTitle(html.slice(card.at, end));
      if (title) find(title, { kind: 'title', card: i }, card.at, end);
    });
    this.cardCount = cards.length;
    const next = NEXT_LINK_RE.exec(html);
    if (next) find(next[0], { kind: 'next' });
    this.nextLabel = next?.[1] ?? 'Next';
    // `/s` on the page's marketplace host (links were made absolute when the template was loaded)
    this.nextHref = /\bhref="([^"?]*\/s)\?/.exec(next?.[0] ?? '')?.[1] ?? '/s';
    this.lastPageNext = Buffer.from(
      `<span aria-disabled="true" class="s-pagination-item s-pagination-next s-pagination-disabled" role="button">${next?.[1] ?? 'Next'}</span>`,
      'latin1',
    );
    if (this.keyword.trim()) {
      const utf8 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
      find(utf8(escapeHtml(this.keyword)), { kind: 'kwHtml' });
      if (escapeHtml(this.keyword) !== this.keyword) find(utf8(this.keyword), { kind: 'kwHtml' });
      find(plusEncode(this.keyword), { kind: 'kwPlus' });
      find(encodeURIComponent(plusEncode(this.keyword)), { kind: 'kwPlus2' });
      find(encodeURIComponent(this.keyword), { kind: 'kwPct' });
    }
    // An overlap keeps the earlier (longer-lived) patch: a keyword inside a card title is
    // replaced along with the title.
    this.template = new PatchTemplate(page, needles);
  }

  /** The "Next" link of result page `pageNo` of `keyword`: to page pageNo + 1. */
  private nextLinkFor(keyword: string, pageNo: number): Buffer {
    const shown = plusEncode(keyword.trim().replace(/\s+/g, ' '));
    return Buffer.from(
      `<a aria-label="Go to next page, page ${pageNo + 1}" class="s-pagination-item s-pagination-next s-pagination-button s-pagination-separator" href="${this.nextHref}?k=${shown}&amp;page=${pageNo + 1}&amp;ref=sr_pg_${pageNo}" role="button">${this.nextLabel}</a>`,
      'latin1',
    );
  }

  /**
   * The saved page with `keyword`'s result cards for result page `pageNo` (1-based); `last`
   * disables its "Next" link (the saved page's own link otherwise, which names its keyword).
   */
  render(keyword: string, pageNo = 1, last = false): Buffer {
    const shown = keyword.trim().replace(/\s+/g, ' ');
    const kw = {
      kwHtml: Buffer.from(escapeHtml(shown), 'utf8'),
      kwPlus: Buffer.from(plusEncode(shown), 'utf8'),
      kwPlus2: Buffer.from(encodeURIComponent(plusEncode(shown)), 'utf8'),
      kwPct: Buffer.from(encodeURIComponent(shown), 'utf8'),
    };
    const nextLink = this.nextLinkFor(keyword, pageNo);
    const asins = new Map<number, Buffer>();
    const titles = new Map<number, Buffer>();
    const value = (slot: Slot): Buffer => {
      if (slot.kind === 'asin' || slot.kind === 'title') {
        const cache = slot.kind === 'asin' ? asins : titles;
        let v = cache.get(slot.card);
        if (!v) {
          v = Buffer.from(
            slot.kind === 'asin' ? searchCardAsin(keyword, pageNo, slot.card) : escapeHtml(searchCardTitle(keyword, pageNo, slot.card)),
            'utf8',
          );
          cache.set(slot.card, v);
        }
        return v;
      }
      if (slot.kind === 'next') return last ? this.lastPageNext : nextLink;
      return kw[slot.kind];
    };
    return this.template.render(value);
  }
}
