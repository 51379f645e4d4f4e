/**
 * Offer listing (/gp/offer-listing/{ASIN}) parser, for both layouts Amazon has served there:
 *
 * - 2014-2020 "Buying Choices" page: one div.olpOffer row per offer with price, condition,
 *   delivery and seller columns; no row is marked as the buy box (isBuyBox is null).
 * - 2021+ All Offers Display (AOD): #aod-pinned-offer (the featured, buy-box offer, when there
 *   is one) followed by #aod-offer rows in #aod-offer-list; both repeat the same sub-ids
 *   (#aod-offer-heading, #aod-offer-shipsFrom, #aod-offer-soldBy, #aod-price-N). A sticky copy
 *   of the pinned offer is ignored.
 *
 * Seller ids come from the seller's own link (seller=... or /shops/<id>). Amazon's retail offer
 * shows a logo or plain name without a link; its id is then read from the row's shipping-policy
 * links, which name the shipping merchant (Amazon itself for that offer), or from the AOD
 * offer's delivery-promise block, whose hidden #ftSelectMerchant names the offer's merchant.
 *
 * Paging: the legacy page has an a-pagination "Next" link. The AOD panel shows ten offers at a
 * time and loads more on "See more" (#aod-show-more-offers) until "End of results"
 * (#aod-end-of-results); whichever of the two is hidden carries `aok-hidden` or `aod-hide`.
 */
import { isMarketplaceCode } from '@crawl/core';
import { Doc, type DomNode, type PageInput, PageSource } from '../page';
import { deliveryLocationOf } from './delivery-location';
import { ancestorOf, elementsUnder, firstOf, hasClass, nodeText } from './node-walk';
import { currencyForMarketplace, parseMoney } from './numbers';
import { interstitialKind } from './page-kind';
import { hasNextPageLink, priceFrom } from './page-helpers';
import { ASIN_RE, asinFromUrl, clean, linesOf, nullFields, textOf } from './text';
import { PARSER_VERSION, type Money, type OfferItem, type OffersPage, type PageContext } from './types';

/** Amazon's own retail seller names across marketplaces ("Amazon.com", "Amazon.de", "Amazon", "Amazon.com.br"). */
const AMAZON_RETAIL_NAME_RE = /^amazon(?:\.[a-z]{2,3}){0,2}(?:\s+(?:services|eu|us|export|retail)\b.*)?$/i;
/** Merchant ids of Amazon's retail offers (US, UK, DE, FR, IT, ES, CA, JP, BR). */
const AMAZON_RETAIL_IDS = new Set([
  'ATVPDKIKX0DER',
  'A3P5ROKL5A1OLE',
  'A3JWKAKR8XB7XF',
  'A1X6FK5RDHNB96',
  'A11IL2PNWYJU7H',
  'A1AT7YVPFBWXBL',
  'A3DWYIK6Y9EEQB',
  'AN1VRQENFRJN5',
  'A1ZZFT5FULY4LN',
]);

const FREE_RE = /\bfree\b|gratis|gratuit|gratuita|gratuito|grátis|kostenlos|kostenfrei|ücretsiz|bezpłatn|darmow|無料|مجان/i;
/** "Ships from OH, United States.", "Dispatched from United Kingdom", "Versand aus Deutschland", ... */
const SHIPS_FROM_RE =
  /^(?:ships from|dispatched from|dispatches from|versand aus|versendet aus|expédié depuis|expédié de|spedito da|spedizione da|enviado desde|enviado de|verzonden (?:vanuit|uit)|skickas från|wysyłka z|gönderim yeri)\s*:?\s*(.+?)(?:\.\s|\.$|$)/i;

type Seller = { name: string; id: string | null };

/** One offer block: its elements, walked once (see node-walk.ts for why not .find()). */
interface Block {
  node: DomNode;
  els: DomNode[];
}

const attr = (n: DomNode | null | undefined, name: string): string | undefined => n?.attribs?.[name];
const byClass = (block: Block, name: string): DomNode | null => firstOf(block.els, (n) => hasClass(n, name));
const byId = (block: Block, id: string): DomNode | null => firstOf(block.els, (n) => attr(n, 'id') === id);
const blockOf = (node: DomNode): Block => ({ node, els: elementsUnder(node) });

function sellerIdFromHref(href: string | undefined): string | null {
  if (!href) return null;
  const param = /[?&](?:seller|merchantId|me)=([A-Z0-9]{8,20})(?=&|#|$)/.exec(href);
  if (param) return param[1]!;
  const shop = /\/shops\/([A-Z0-9]{8,20})(?=[/?#]|$)/.exec(href);
  return shop ? shop[1]! : null;
}

function isAmazonRetail(seller: Seller | null): boolean {
  if (!seller) return false;
  return (seller.id !== null && AMAZON_RETAIL_IDS.has(seller.id)) || AMAZON_RETAIL_NAME_RE.test(seller.name);
}

const isRealLink = (n: DomNode): boolean => n.name === 'a' && !!attr(n, 'href') && !/^javascript:/i.test(attr(n, 'href')!);

/** Seller of one offer: link text, or the logo's alt text when Amazon shows a logo without a link. */
function readSeller(nameEl: DomNode | null, offer: Block): { seller: Seller | null; href: string | undefined } {
  if (!nameEl) return { seller: null, href: undefined };
  const inner = elementsUnder(nameEl);
  const link = nameEl.name === 'a' && isRealLink(nameEl) ? nameEl : firstOf(inner, isRealLink);
  const name =
    nodeText(link) ||
    clean(
      attr(
        firstOf(inner, (n) => n.name === 'img' && !!attr(n, 'alt')),
        'alt',
      ),
    ) ||
    nodeText(nameEl);
  if (!name) return { seller: null, href: undefined };
  const href = attr(link, 'href');
  let id = sellerIdFromHref(href);
  if (!id && AMAZON_RETAIL_NAME_RE.test(name)) {
    // Amazon's logo has no link; its shipping/returns policy links name the merchant.
    id = sellerIdFromHref(
      attr(
        firstOf(offer.els, (n) => n.name === 'a' && (attr(n, 'href') ?? '').includes('seller=')),
        'href',
      ),
    );
  }
  return { seller: { name, id }, href };
}

/** Free shipping is amount 0 in the offer's currency (or the marketplace's). */
function freeShipping(price: Money | null, marketplace: string): Money {
  return { amount: 0, currency: price?.currency ?? currencyForMarketplace(marketplace) };
}

function fulfilled(
  seller: Seller | null,
  explicitBadge: boolean,
  sellerHref: string | undefined,
  shipsFrom: string | null,
): boolean | null {
  if (explicitBadge || isAmazonRetail(seller)) return true;
  const flag = /[?&]isAmazonFulfilled=([01])/.exec(sellerHref ?? '');
  if (flag) return flag[1] === '1';
  if (shipsFrom !== null) return /^amazon\b/i.test(shipsFrom);
  return null;
}

function finish(offer: Omit<OfferItem, 'missingFields' | 'parserVersion'>): OfferItem {
  return { ...offer, missingFields: nullFields(offer, ['price', 'condition', 'seller']), parserVersion: PARSER_VERSION };
}

/** A displayed 0 is not a price: rental rows render "0,00" when the rental term is unpriced. */
function positive(m: Money | null): Money | null {
  return m && m.amount > 0 ? m : null;
}

function moneyOf(doc: Doc, node: DomNode | null, marketplace: string): Money | null {
  return node ? priceFrom(doc.$(node as never), marketplace) : null;
}

/** "Used\n - Like New" -> "Used - Like New". */
function conditionText(node: DomNode | null): string | null {
  return clean(nodeText(node).replace(/\s*-\s*/g, ' - ')) || null;
}

// ---------------------------------------------------------------- legacy olp layout

function legacyShipping(doc: Doc, row: Block, price: Money | null, marketplace: string): Money | null {
  const info = byClass(row, 'olpShippingInfo');
  if (!info) return null;
  const charge = firstOf(elementsUnder(info), (n) => hasClass(n, 'olpShippingPrice'));
  if (charge) return moneyOf(doc, charge, marketplace);
  const text = nodeText(info);
  return text && FREE_RE.test(text) ? freeShipping(price, marketplace) : null;
}

function legacyDelivery(doc: Doc, row: Block): { shipsFrom: string | null; deliveryText: string | null } {
  const column = byClass(row, 'olpDeliveryColumn');
  if (!column) return { shipsFrom: null, deliveryText: null };
  const els = elementsUnder(column);
  let shipsFrom: string | null = null;
  let deliveryText: string | null = null;
  for (const li of els) {
    if (li.name !== 'li') continue;
    const inner = elementsUnder(li);
    // Shipping-rates / return-policy links are not delivery information.
    if (inner.some((n) => n.name === 'a' && /\/gp\/aag\/details|sshmPath/.test(attr(n, 'href') ?? ''))) continue;
    // Expandable rows hold the delivery promise ("Arrives between November 5-27.", "Back-ordered...").
    const expander = firstOf(inner, (n) => hasClass(n, 'a-expander-content'));
    const first = expander ? nodeText(expander) : (linesOf(doc.$(li as never))[0] ?? '');
    const from = SHIPS_FROM_RE.exec(first);
    if (from) shipsFrom ??= clean(from[1]);
    else if (!deliveryText && expander && first) deliveryText = first;
  }
  if (!deliveryText) {
    // Older rows put the availability sentence directly in p.olpAvailability.
    const availability = firstOf(els, (n) => hasClass(n, 'olpAvailability'));
    if (availability)
      deliveryText =
        clean(
          doc
            .$(availability as never)
            .clone()
            .children('ul')
            .remove()
            .end()
            .text(),
        ) || null;
  }
  return { shipsFrom, deliveryText };
}

function parseLegacyRow(doc: Doc, node: DomNode, position: number, marketplace: string): OfferItem {
  const row = blockOf(node);
  const price = positive(moneyOf(doc, byClass(row, 'olpOfferPrice'), marketplace));
  const { seller, href } = readSeller(byClass(row, 'olpSellerName'), row);
  const { shipsFrom, deliveryText } = legacyDelivery(doc, row);
  // The "Fulfillment by Amazon" badge; a Prime icon alone is no proof (sellers fulfil Prime offers too).
  const badge = row.els.some((n) => hasClass(n, 'olpBadge') || hasClass(n, 'olpFbaPopoverTrigger'));
  return finish({
    position,
    price,
    shipping: legacyShipping(doc, row, price, marketplace),
    condition: conditionText(byClass(row, 'olpCondition')),
    seller,
    fulfilledByAmazon: fulfilled(seller, badge, href, shipsFrom),
    shipsFrom,
    isBuyBox: null,
    deliveryText,
  });
}

// ---------------------------------------------------------------- AOD layout (2021+)

/**
 * Value of an AOD "label | value" block (Ships from / Sold by): the right column of the grid
 * layout, else the last non-empty span (the first one is the label: "Vendido por", "Versand").
 */
function labelledValue(node: DomNode | null): DomNode | null {
  if (!node) return null;
  const els = elementsUnder(node);
  const right = firstOf(els, (n) => hasClass(n, 'a-col-right'));
  if (right) return right;
  const spans = els.filter((n) => n.name === 'span' && nodeText(n));
  return spans.length > 1 ? spans.at(-1)! : node;
}

function aodPrice(doc: Doc, offer: Block, marketplace: string): Money | null {
  const scopes = offer.els.filter(
    (n) => (attr(n, 'id') ?? '').startsWith('aod-price') || attr(n, 'id') === 'aod-offer-price' || hasClass(n, 'aod-offer-price'),
  );
  const pool = scopes.length ? scopes.flatMap((n) => elementsUnder(n)) : offer.els;
  for (const n of pool) {
    if (!hasClass(n, 'a-price') || hasClass(n, 'a-text-price') || attr(n, 'data-a-strike') === 'true') continue;
    const m = positive(moneyOf(doc, n, marketplace));
    if (m) return m;
  }
  return null;
}

function aodShipping(doc: Doc, offer: Block, price: Money | null, marketplace: string): Money | null {
  const tagged = firstOf(offer.els, (n) => attr(n, 'data-csa-c-delivery-price') !== undefined);
  const raw = clean(attr(tagged, 'data-csa-c-delivery-price'));
  if (raw) {
    if (!/\d/.test(raw)) return freeShipping(price, marketplace); // "FREE", "GRATIS", "KOSTENLOSE"
    const m = parseMoney(raw, marketplace);
    return m && m.amount === 0 ? freeShipping(price, marketplace) : m;
  }
  const text = nodeText(
    firstOf(offer.els, (n) => hasClass(n, 'aod-ship-charge') || (attr(n, 'id') ?? '').startsWith('aod-offer-shipping')),
  );
  if (!text) return surchargeShipping(offer, marketplace);
  if (/\d/.test(text))
    return (
      moneyOf(
        doc,
        firstOf(offer.els, (n) => hasClass(n, 'aod-ship-charge')),
        marketplace,
      ) ?? parseMoney(text, marketplace)
    );
  return FREE_RE.test(text) ? freeShipping(price, marketplace) : null;
}

/**
 * Older panels print the charge as a plain secondary line under the price: "+ $14.38 shipping",
 * "+ 3,99 € Versand". The leading "+" and a money amount mark it in every language.
 */
function surchargeShipping(offer: Block, marketplace: string): Money | null {
  for (const n of offer.els) {
    if (n.name !== 'span' || !hasClass(n, 'a-color-secondary')) continue;
    const text = nodeText(n);
    if (/^\+\s*\S*\d/.test(text)) return positive(parseMoney(text.slice(1), marketplace));
  }
  return null;
}

function aodDelivery(doc: Doc, offer: Block): string | null {
  const block =
    firstOf(
      offer.els,
      (n) =>
        attr(n, 'id') === 'mir-layout-DELIVERY_BLOCK' ||
        (attr(n, 'id') ?? '').startsWith('delivery-block') ||
        hasClass(n, 'aod-delivery-promise'),
    ) ?? firstOf(offer.els, (n) => attr(n, 'data-csa-c-delivery-time') !== undefined);
  // Hidden parts ("... More" expanders) are not shown to a shopper.
  const shown = block ? doc.$(block as never).clone() : null;
  shown?.find('.aok-hidden').remove();
  const lines = shown ? linesOf(shown) : [];
  return lines.length ? lines.join(' ') : null;
}

/** A merchant id the offer names without a link: the delivery promise's merchant (see the header). */
function aodMerchantId(offer: Block): string | null {
  const id = clean(attr(byId(offer, 'ftSelectMerchant'), 'value'));
  return /^[A-Z0-9]{8,20}$/.test(id) ? id : null;
}

function parseAodOffer(doc: Doc, offer: Block, position: number, isBuyBox: boolean, marketplace: string): OfferItem {
  const price = aodPrice(doc, offer, marketplace);
  const heading = byId(offer, 'aod-offer-heading');
  const headingTitle = heading ? firstOf(elementsUnder(heading), (n) => n.name === 'h5') : null;
  const shipsValue = labelledValue(byId(offer, 'aod-offer-shipsFrom'));
  const shipsFrom = shipsValue ? nodeText(firstOf(elementsUnder(shipsValue), (n) => n.name === 'span') ?? shipsValue) || null : null;
  // The seller rating widget sits in the same column as the name: the name is the link, else the first span.
  const soldBy = byId(offer, 'aod-offer-soldBy');
  const sellerLink = firstOf(soldBy ? elementsUnder(soldBy) : [], isRealLink);
  const sellerCol = labelledValue(soldBy);
  const nameEl = sellerLink ?? (sellerCol ? (firstOf(elementsUnder(sellerCol), (n) => n.name === 'span') ?? sellerCol) : null);
  const read = readSeller(nameEl, offer);
  const { href } = read;
  const seller = read.seller && read.seller.id === null ? { ...read.seller, id: aodMerchantId(offer) } : read.seller;
  const badge = offer.els.some((n) => hasClass(n, 'aod-fba-badge') || (attr(n, 'id') ?? '').startsWith('aod-fulfilled-by-amazon'));
  return finish({
    position,
    price,
    shipping: aodShipping(doc, offer, price, marketplace),
    condition: conditionText(headingTitle ?? heading),
    seller,
    fulfilledByAmazon: fulfilled(seller, badge, href, shipsFrom),
    shipsFrom,
    isBuyBox,
    deliveryText: aodDelivery(doc, offer),
  });
}

/** Offers of the AOD panel, the pinned (buy-box) one first; null when the page has no AOD offers. */
function aodOffers(doc: Doc, marketplace: string): OfferItem[] | null {
  // A sticky header (#aod-sticky-pinned-container) repeats the pinned offer while scrolling; it is a copy, not an offer.
  const notSticky = (n: DomNode) => !ancestorOf(n, (a) => (attr(a, 'id') ?? '').includes('sticky'));
  const pinned = (doc.byId('aod-pinned-offer').toArray() as DomNode[]).find(notSticky);
  const listed = (doc.byId('aod-offer').toArray() as DomNode[]).filter(notSticky);
  if (!pinned && listed.length === 0) return null;
  const out: OfferItem[] = [];
  const pinnedBlock = pinned ? blockOf(pinned) : null;
  // "No featured offers available": a pinned block without a price is no offer.
  if (pinnedBlock && aodPrice(doc, pinnedBlock, marketplace) !== null) out.push(parseAodOffer(doc, pinnedBlock, 1, true, marketplace));
  for (const node of listed) out.push(parseAodOffer(doc, blockOf(node), out.length + 1, false, marketplace));
  return out;
}

// ---------------------------------------------------------------- page

function pageAsin(doc: Doc): string | null {
  const candidates: (() => string | null | undefined)[] = [
    () => asinFromUrl(doc.q('#olpDetailPageLink a').first().attr('href')),
    () => asinFromUrl(doc.q('#olpProductImage a').first().attr('href')),
    () => doc.q('#aod-asin-block-asin, input#ASIN').first().attr('value'),
    // Every AOD offer's delivery-promise block names the product (a fragment of later panel pages too).
    () => doc.q('input#ftSelectAsin').first().attr('value'),
    () => doc.q('#aod-container input[name="items[0.base][asin]"]').first().attr('value'),
    () => asinFromUrl(doc.$('head link[rel="canonical"]').first().attr('href')),
  ];
  for (const c of candidates) {
    const v = c()?.trim();
    if (v && ASIN_RE.test(v)) return v;
  }
  return null;
}

function pageTitle(doc: Doc): string | null {
  const legacy = doc.q('#olpProductDetails h1').first();
  if (legacy.length) {
    const t = textOf(legacy.clone().find('.olpSubHeadingSection').remove().end());
    if (t) return t;
  }
  return textOf(doc.q('#aod-asin-title-text').first()) || null;
}

function totalOffers(doc: Doc): number | null {
  const input = doc.byId('aod-total-offer-count').first();
  const n = Number(input.attr('value'));
  return input.length && Number.isInteger(n) && n >= 0 ? n : null;
}

/** Whether an element with this id is on the page and not hidden by its class. */
function shownById(doc: Doc, id: string): boolean {
  return doc.byId(id).filter((_, el) => !/\b(?:aok-hidden|aod-hide)\b/.test(el.attribs.class ?? '')).length > 0;
}

/**
 * How many listed offers the panel has shown up to this page: #aod-price-N numbers the offers
 * across its pages (the pinned one is 0), so a later page's last N counts the pages before it;
 * without numbered prices, this page's listed offers.
 */
function aodOffersShown(doc: Doc, offers: OfferItem[]): number {
  const numbers = (doc.$('[id^="aod-price-"]').toArray() as DomNode[])
    .map((el) => Number(/^aod-price-(\d+)$/.exec(attr(el, 'id') ?? '')?.[1]))
    .filter((n) => Number.isInteger(n));
  const listed = offers.filter((o) => o.isBuyBox !== true).length;
  return Math.max(listed, ...numbers);
}

/**
 * Whether the AOD panel has offers after this page: not once "End of results" shows; yes while
 * "See more" shows; else while the announced total (pinned offer not counted) exceeds the
 * offers shown so far (a wasted page fetch is cheaper than lost offers).
 */
function aodHasMore(doc: Doc, offers: OfferItem[], total: number | null): boolean {
  if (shownById(doc, 'aod-end-of-results')) return false;
  if (shownById(doc, 'aod-show-more-offers')) return true;
  return total !== null && total > aodOffersShown(doc, offers);
}

/**
 * Parses one offers page. Returns null for pages that are not an offer listing (captcha, sign-in
 * wall, a product page without the offers panel); an offer listing without offers yields `offers: []`.
 */
export function parseOffersPage(html: PageInput, ctx: PageContext): OffersPage | null {
  const source = PageSource.of(html);
  if (!source.length || interstitialKind(source, 'offers')) return null;
  const doc = new Doc(source);
  const marketplace = (ctx.marketplace || '').toUpperCase();
  const legacyRows = doc.$('.olpOffer').toArray() as DomNode[];
  const total = totalOffers(doc);
  // the listing's own deliver-to block; the panel's further pages have none (the crawler fills them in)
  const deliveryLocation = isMarketplaceCode(marketplace) ? deliveryLocationOf(source, marketplace) : null;
  const page = { asin: pageAsin(doc), title: pageTitle(doc), totalOffers: total, deliveryLocation };
  if (legacyRows.length || doc.byId('olpOfferList').length) {
    const offers = legacyRows.map((node, i) => parseLegacyRow(doc, node, i + 1, marketplace));
    return { layout: 'offer-listing', ...page, hasNextPage: hasNextPageLink(doc), offers };
  }
  const aod = aodOffers(doc, marketplace);
  if (aod === null && !doc.byId('aod-offer-list').length && !doc.byId('aod-container').length) return null;
  const offers = aod ?? [];
  return { layout: 'aod', ...page, hasNextPage: aodHasMore(doc, offers, total), offers };
}
