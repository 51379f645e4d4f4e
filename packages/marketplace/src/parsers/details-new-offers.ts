/**
 * The product's new offers as its details page sums them up (docs/results.md, "New offers and
 * Subscribe & Save"): how many there are and the lowest price among them, from the offer-listing
 * line ("New (12) from $9.99", "14 neufs à partir de EUR 9,99", the 2021+ all-offers ingress
 * "New (3) from $12.99") or, without one, from the "Other sellers on Amazon" box's new offers, so
 * that an item without a buy box still says what the product costs.
 *
 * A line that also counts used offers ("New & Used (7) from", a link to `condition=all`) says
 * nothing about new ones. The lines are looked for where the layouts put them, best first: the
 * offer-listing blocks by id, the all-offers ingress link, then the offer-listing links of the
 * product's own format swatch (books and media, linked to the page's own ASIN).
 */
import type { Doc, DomNode, Sel } from '../page';
import { hiddenByAncestor, shownText } from './coupon-text';
import { moneyFromElement } from './details-price';
import { parseMoney } from './numbers';
import { mentionsNotNewOffers, readNewOffersLine } from './sales-counts';
import type { Money } from './types';

export interface NewOffers {
  newOffersCount: number | null;
  lowestNewPrice: Money | null;
}

/** Offer-listing blocks by id, the explicit new-offer block first (2014-2026 layouts). */
const OFFER_LINE_BLOCK_IDS = [
  'olp-upd-new',
  'olp-upd-new-freeshipping',
  'olp-new',
  'olp_feature_div',
  'olpLinkWidget_feature_div',
  'dynamic-aod-ingress-box',
  'aod-ingress-box',
  'usedAndNewBuyingOption',
  'mbc-olp-link',
  'moreBuyingChoices_feature_div',
];
/** The 2021+ all-offers panel's ingress link, wherever the layout puts it. */
const INGRESS_LINK_ID = 'aod-ingress-link';
/** Format swatches of books and media: each format's offer-listing links. */
const FORMAT_SWATCHES_ID = 'tmmSwatches';

const CONDITION_RE = /[?&]condition=([a-z_]+)/i;
const USED_FILTER_RE = /[?&]f_used[a-z]*=true/i;
const OFFER_LISTING_ASIN_RE = /\/offer-listing\/([A-Z0-9]{10})/i;
/** Where a line's price is shown apart from its words. */
const PRICE_MARKUP = '.a-price, .a-color-price, .a-offscreen';
/** A line is a sentence: a longer text is a box holding several. */
const MAX_LINE = 160;

/** A link to all offers (`condition=all`) or used ones, or a used-offers filter, counts more than new offers. */
function linksToOtherOffers(el: Sel): boolean {
  const href = el.attr('href') ?? '';
  const condition = CONDITION_RE.exec(href)?.[1];
  return (condition !== undefined && condition.toLowerCase() !== 'new') || USED_FILTER_RE.test(href);
}

interface Line {
  count: number | null;
  price: Money | null;
}

function priceIn(scope: Sel, rest: string, marketplace: string): Money | null {
  const marked = scope.find(PRICE_MARKUP);
  for (let i = 0; i < marked.length; i++) {
    const m = moneyFromElement(marked.eq(i), marketplace);
    if (m && m.amount > 0) return m;
  }
  if (!/\d/.test(rest)) return null;
  const m = parseMoney(rest, marketplace);
  return m && m.amount > 0 ? m : null;
}

/**
 * One line about new offers: the link's own text, or, when the link names only the count ("14
 * neufs" before "à partir de EUR 9,99"), the text of the element around it.
 */
function readLine(el: Sel, marketplace: string): Line | null {
  if (hiddenByAncestor(el[0] as DomNode) || linksToOtherOffers(el)) return null;
  const own = readNewOffersLine(shownText(el, false));
  if (!own) return null;
  let price = priceIn(el, own.rest, marketplace);
  if (!price && el.is('a')) {
    const around = el.parent();
    const text = shownText(around, false);
    const wider = text.length <= MAX_LINE ? readNewOffersLine(text) : null;
    if (wider) price = priceIn(around, wider.rest, marketplace);
  }
  return { count: own.count, price };
}

/** The candidate lines of a block: its links, or the block itself when it has none. */
function blockLines(block: Sel): Sel[] {
  const links = block.find('a');
  const out: Sel[] = [];
  if (!links.length) out.push(block);
  for (let i = 0; i < links.length; i++) out.push(links.eq(i));
  return out;
}

function candidateLines(doc: Doc, asin: string | null): Sel[] {
  const out: Sel[] = [];
  for (const id of OFFER_LINE_BLOCK_IDS) {
    const blocks = doc.byId(id);
    for (let b = 0; b < blocks.length; b++) out.push(...blockLines(blocks.eq(b)));
  }
  const ingress = doc.byId(INGRESS_LINK_ID);
  for (let i = 0; i < ingress.length; i++) out.push(ingress.eq(i));
  // A format swatch's offer-listing link counts only for the page's own ASIN: the others are other formats.
  if (asin) {
    const links = doc.byId(FORMAT_SWATCHES_ID).find('a[href*="offer-listing"]');
    for (let i = 0; i < links.length; i++) {
      const linked = OFFER_LISTING_ASIN_RE.exec(links.eq(i).attr('href') ?? '')?.[1];
      if (linked?.toUpperCase() === asin.toUpperCase()) out.push(links.eq(i));
    }
  }
  return out;
}

/** "Other sellers on Amazon" (2014-2021 #mbc): the lowest price among the new offers it lists. */
function lowestOtherSellerPrice(doc: Doc, marketplace: string): Money | null {
  const rows = doc.byId('mbc').find('.mbc-offer-row');
  let lowest: Money | null = null;
  for (let i = 0; i < rows.length; i++) {
    const row = rows.eq(i);
    // the box lists new offers; a row that says otherwise ("Used - Good") is left out
    if (hiddenByAncestor(rows[i] as DomNode) || mentionsNotNewOffers(shownText(row, false))) continue;
    const price = moneyFromElement(row.find('.a-color-price').first(), marketplace);
    if (!price || price.amount <= 0 || (lowest && (price.currency !== lowest.currency || price.amount >= lowest.amount))) continue;
    lowest = price;
  }
  return lowest;
}

/**
 * `newOffersCount` is the count of the first line that names one; `lowestNewPrice` is that line's
 * price, else the first priced new-offers line's ("New from $9.99"), else the lowest new offer of
 * the other sellers' box. `asin` is the page's own ASIN (null when it names none).
 */
export function extractNewOffers(doc: Doc, asin: string | null, marketplace: string): NewOffers {
  let counted: Line | null = null;
  let priced: Money | null = null;
  for (const el of candidateLines(doc, asin)) {
    const line = readLine(el, marketplace);
    if (!line) continue;
    if (line.count !== null) {
      counted = line;
      break;
    }
    priced ??= line.price;
  }
  return {
    newOffersCount: counted?.count ?? null,
    lowestNewPrice: counted?.price ?? priced ?? lowestOtherSellerPrice(doc, marketplace),
  };
}
