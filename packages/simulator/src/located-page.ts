/**
 * A saved page (or a page rendered from a saved template) as a shopper at a postal code sees it
 * (docs/crawling.md, "Delivery location"): its deliver-to block names the place, its prices move
 * as the built-in pages' do (priceAt, per postal code and ASIN), and a product page's
 * availability and buy-box delivery message (charge and dates) are the place's (placeAt). What
 * varies is located once per page shape; a request only concatenates the page's segments with
 * its values, as the templates do: no regex over a 1.5 MB page per request.
 */
import { deliveryTexts } from './details-page';
import { escapeHtml } from './html';
import { disjointSpans } from './patch-template';
import type { MarketLocale } from './locale';
import { type AmountSlot, findPrices, formatLike, minorOf } from './price-texts';
import { placeAt, priceAt } from './product-facts';

/**
 * What a page is about: one product with its buy box (`product`), one product's offers
 * (`offers`), or cards of many (`cards`: search results, best-seller lists), whose prices move
 * by each card's own ASIN.
 */
export type LocatedKind = 'product' | 'offers' | 'cards';

type SlotKind =
  'line1' | 'line2' | 'amount' | 'whole' | 'fraction' | 'availability' | 'deliveryPrice' | 'deliveryTime' | 'shownCharge' | 'shownDate';

interface Slot extends AmountSlot {
  kind: SlotKind;
  /** An amount's minor digits. */
  digits?: number;
  /** A whole part's fraction slot (read together: one price). */
  fraction?: AmountSlot;
}

const CARD_ASIN = /\bdata-asin="([A-Z0-9]{10})"/g;
const PDM = 'data-csa-c-content-id="DEXUnifiedCXPDM"';
const PRICE_ATTR = /\bdata-csa-c-delivery-price="([^"]*)"/;
const TIME_ATTR = /\bdata-csa-c-delivery-time="([^"]*)"/;
const BOLD_OPEN = '<span class="a-text-bold">';

/** The text after the tag that is open at `at`: from its `>` to the next `<`; null when blank. */
function textAfter(html: string, at: number): AmountSlot | null {
  const open = html.indexOf('>', at);
  const close = open < 0 ? -1 : html.indexOf('<', open);
  if (close < 0 || !html.slice(open + 1, close).trim()) return null;
  return { at: open + 1, length: close - open - 1 };
}

/** The deliver-to block's lines, where withGlowLines (delivery-location.ts) finds them: a line's text up to its `</span>`. */
function glowSlots(html: string): Slot[] {
  const range = (id: string, from: number): AmountSlot | null => {
    const at = html.indexOf(id, from);
    const start = at < 0 ? -1 : html.indexOf('>', at + id.length);
    const end = start < 0 ? -1 : html.indexOf('</span>', start);
    return end < 0 ? null : { at: start + 1, length: end - start - 1 };
  };
  const one = range('glow-ingress-line1', 0);
  const two = one ? range('glow-ingress-line2', one.at + one.length) : null;
  return one && two
    ? [
        { ...one, kind: 'line1' },
        { ...two, kind: 'line2' },
      ]
    : [];
}

/** An attribute value's place inside the tag that starts at `tagAt`. */
function attrValue(html: string, tag: string, tagAt: number, re: RegExp): AmountSlot | null {
  const m = re.exec(tag);
  return m ? { at: tagAt + m.index + m[0].indexOf('"') + 1, length: m[1]!.length } : null;
}

/** The buy box's delivery messages: their charge and dates as data, and as the shopper reads them. */
function deliverySlots(html: string, into: Slot[]): void {
  for (let at = html.indexOf(PDM); at >= 0; at = html.indexOf(PDM, at + PDM.length)) {
    const tagAt = html.lastIndexOf('<span', at);
    const tagEnd = html.indexOf('>', at);
    if (tagAt < 0 || tagEnd < 0) continue;
    const tag = html.slice(tagAt, tagEnd + 1);
    const price = attrValue(html, tag, tagAt, PRICE_ATTR);
    const time = attrValue(html, tag, tagAt, TIME_ATTR);
    if (!price || !time || !price.length) continue;
    into.push({ ...price, kind: 'deliveryPrice' }, { ...time, kind: 'deliveryTime' });
    // " FREE delivery <span class="a-text-bold">Friday, August 21</span>": the words before the
    // dates name the charge as the attribute does; other layouts (a link) keep their words
    const charge = html.slice(price.at, price.at + price.length);
    const words = textAfter(html, tagEnd - 1);
    const shown = words ? html.indexOf(charge, words.at) : -1;
    if (words && shown >= 0 && shown + charge.length <= words.at + words.length)
      into.push({ at: shown, length: charge.length, kind: 'shownCharge' });
    const bold = html.indexOf(BOLD_OPEN, tagEnd);
    const date = bold >= 0 && bold - tagEnd < 1_500 ? textAfter(html, bold) : null;
    if (date) into.push({ ...date, kind: 'shownDate' });
  }
}

/** Sorted, dropping any slot that overlaps an earlier one (a delivery charge is not also a price). */
function disjoint(slots: Slot[]): Slot[] {
  const rank = (s: Slot) => (s.kind === 'amount' || s.kind === 'whole' ? 1 : 0);
  return disjointSpans(slots, (a, b) => rank(a) - rank(b));
}

/** How one request's page is drawn: the shopper's place, its deliver-to lines and the page's product. */
export interface Placement {
  postalCode: string;
  /** The deliver-to block's two lines (delivery-location.ts glowLines). */
  lines: [string, string];
  /** The page's product (`product`, `offers`), or the fallback of cards outside any card. */
  asin: string;
}

export class LocatedPage {
  private readonly slots: Slot[];
  /** Card starts (`cards`): where each card's `data-asin` value is, ascending. */
  private readonly cards: number[] = [];

  /**
   * @param shape the page, or any page rendered from the same template with the same layout
   * (an AsinTemplate's pages differ from its own only in same-length patches): slots are
   * read from the body each request brings.
   */
  constructor(
    shape: Buffer,
    private readonly kind: LocatedKind,
    private readonly locale: MarketLocale,
  ) {
    const html = shape.toString('latin1');
    const slots: Slot[] = [];
    slots.push(...glowSlots(html));
    const prices = findPrices(html, locale.digits);
    for (const a of prices.amounts) slots.push({ ...a, kind: 'amount' });
    for (const s of prices.splits) slots.push({ ...s.whole, kind: 'whole', ...(s.fraction ? { fraction: s.fraction } : {}) });
    if (kind === 'product') {
      for (let at = html.indexOf('id="availability"'); at >= 0; at = html.indexOf('id="availability"', at + 1)) {
        // its first span with words ("In Stock"), past wrappers
        for (let span = html.indexOf('<span', at); span >= 0 && span - at < 800; span = html.indexOf('<span', span + 1)) {
          const text = textAfter(html, span);
          if (!text) continue;
          slots.push({ ...text, kind: 'availability' });
          break;
        }
      }
      deliverySlots(html, slots);
    }
    if (kind === 'cards') for (const m of html.matchAll(CARD_ASIN)) this.cards.push(m.index + 'data-asin="'.length);
    this.slots = disjoint(slots);
  }

  /** The ASIN whose price the slot at `at` shows: its card's, else the page's. */
  private asinAt(body: Buffer, at: number, page: string): string {
    let lo = 0;
    let hi = this.cards.length - 1;
    let card = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.cards[mid]! <= at) {
        card = this.cards[mid]!;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return card < 0 ? page : body.toString('latin1', card, card + 10);
  }

  /** `body` (this page's shape) as the shopper at `placement` sees it: one new buffer. */
  render(body: Buffer, placement: Placement): Buffer {
    const { postalCode, asin } = placement;
    const digits = this.locale.digits;
    const place = this.kind === 'product' ? placeAt(asin, this.locale, postalCode) : null;
    const delivery = place ? deliveryTexts(place.delivery, this.locale) : null;
    const read = (s: AmountSlot) => body.toString('latin1', s.at, s.at + s.length);
    const utf8 = (text: string) => Buffer.from(escapeHtml(text), 'utf8');
    const parts: Buffer[] = [];
    let from = 0;
    const put = (s: AmountSlot, value: Buffer | null) => {
      if (!value) return;
      parts.push(body.subarray(from, s.at), value);
      from = s.at + s.length;
    };
    const moved = (s: AmountSlot, minor: number) =>
      priceAt(minor, this.kind === 'cards' ? this.asinAt(body, s.at, asin) : asin, postalCode);
    for (const s of this.slots) {
      switch (s.kind) {
        case 'line1':
        case 'line2':
          put(s, utf8(placement.lines[s.kind === 'line1' ? 0 : 1]));
          break;
        case 'amount':
          put(s, Buffer.from(formatLike(read(s), moved(s, minorOf(read(s))), s.digits ?? digits), 'latin1'));
          break;
        case 'whole': {
          const fraction = s.fraction ? read(s.fraction) : '';
          const next = String(moved(s, minorOf(read(s) + fraction))).padStart(digits + 1, '0');
          const whole = formatLike(read(s), Number(next.slice(0, next.length - digits)), 0);
          put(s, Buffer.from(whole, 'latin1'));
          if (s.fraction) put(s.fraction, Buffer.from(next.slice(-digits), 'latin1'));
          break;
        }
        case 'availability':
          put(s, place?.out ? utf8(` ${this.locale.texts.unavailable} `) : null);
          break;
        case 'deliveryPrice':
        case 'shownCharge':
          put(s, delivery && utf8(delivery.charge));
          break;
        case 'deliveryTime':
        case 'shownDate':
          put(s, delivery && utf8(delivery.date));
          break;
      }
    }
    parts.push(body.subarray(from));
    return Buffer.concat(parts);
  }
}

/**
 * The located pages of a page store's fixed shapes (saved pages, template pages), made on a
 * shape's first located request and kept: the store's pages are all there is, read at start.
 */
export class LocatedShapes {
  private readonly pages = new Map<Buffer, LocatedPage>();

  of(shape: Buffer, kind: LocatedKind, locale: MarketLocale): LocatedPage {
    let page = this.pages.get(shape);
    if (!page) {
      page = new LocatedPage(shape, kind, locale);
      this.pages.set(shape, page);
    }
    return page;
  }
}
