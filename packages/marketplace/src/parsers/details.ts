/**
 * Product detail page (/dp/ASIN) parser. The document is parsed once; the raw
 * HTML string is only probed with indexOf for the few script JSON blobs.
 */
import { DETAILS_MAIN_FIELDS, isMarketplaceCode } from '@crawl/core';
import { Doc, type LeaveOut, type PageInput, PageSource } from '../page';
import { classifyAvailability } from './availability';
import {
  extractBestSellersRank,
  extractBrand,
  extractCategories,
  extractDescription,
  extractFeatures,
  extractSeller,
  extractSpecifications,
} from './details-info';
import { extractCommerce } from './details-commerce';
import { type DetailsLandedCost, extractLandedCost } from './details-landed-cost';
import { deliveryLocationOf } from './delivery-location';
import { extractFacts } from './details-facts';
import { extractImages } from './details-media';
import { extractPrices } from './details-price';
import { extractSubscribeAndSave } from './details-subscription';
import { extractVariants } from './details-variants';
import { parseCount, parseRating } from './numbers';
import { interstitialKind } from './page-kind';
import { leaveOutOfDetails } from './page-regions';
import { extractGtin } from './product-codes';
import { readProductRows } from './product-tables';
import { ASIN_RE, asinFromUrl, clean, linesOf, normalizeOrigin, textOf } from './text';
import { PARSER_VERSION, type AvailabilityStatus, type DetailsItem, type PageContext } from './types';

/** <meta>/<link> lookups scoped to <head>: a document-wide attribute query costs ~3 ms. */
function headAttr(doc: Doc, selector: string, attrName: string): string | undefined {
  return doc.root().children('html').children('head').children(selector).first().attr(attrName) ?? doc.q(selector).first().attr(attrName);
}

function extractAsin(doc: Doc): string | null {
  // Ordered, lazily evaluated: input#ASIN is the page's own (child) ASIN; e-book layouts
  // lack it and fall back to the canonical link or the buy-box data attributes.
  const candidates: (() => string | null | undefined)[] = [
    () => doc.q('input#ASIN').first().attr('value'),
    () => asinFromUrl(headAttr(doc, 'link[rel="canonical"]', 'href')),
    () => doc.q('#buybox [data-asin]').first().attr('data-asin'),
    () => doc.q('#averageCustomerReviews[data-asin]').first().attr('data-asin'),
    () => asinFromUrl(headAttr(doc, 'meta[property="og:url"]', 'content')),
    () => doc.q('input[name="ASIN"]').first().attr('value'),
    () => doc.q('[data-csa-c-asin]').first().attr('data-csa-c-asin'),
  ];
  for (const c of candidates) {
    const v = c()?.trim();
    if (v && ASIN_RE.test(v)) return v;
  }
  return null;
}

function extractTitle(doc: Doc): string | null {
  // span#productTitle: some 2024+ pages also carry an <input id="productTitle"> copy.
  const spans = doc.q('#productTitle');
  for (let i = 0; i < spans.length; i++) {
    const el = spans.eq(i);
    const t = el.is('input') ? clean(el.attr('value')) : textOf(el);
    if (t) return t;
  }
  for (const s of ['#ebooksProductTitle', '#title', '#btAsinTitle', 'h1#title span', '#item_name']) {
    const t = textOf(doc.q(s).first());
    if (t) return t;
  }
  const og = clean(headAttr(doc, 'meta[property="og:title"]', 'content'));
  return og || null;
}

function extractRating(doc: Doc): number | null {
  const sources: (() => string | undefined)[] = [
    () => doc.q('#acrPopover').first().attr('title'),
    () => textOf(doc.q('#acrPopover .a-icon-alt').first()),
    () => textOf(doc.q('#averageCustomerReviews .a-icon-alt').first()),
    () => textOf(doc.q('#averageCustomerReviews_feature_div .a-icon-alt').first()),
    () => textOf(doc.q('#acrPopover .a-size-base').first()),
  ];
  for (const s of sources) {
    const r = parseRating(s());
    if (r !== null) return r;
  }
  return null;
}

function extractReviewsCount(doc: Doc): number | null {
  const el = doc.q('#acrCustomerReviewText').first();
  // 2026: visible "(226)" with the exact number in aria-label ("226 Reviews"); compact
  // visible counts ("(1.2K)") make the aria-label the better source.
  const sources = [el.attr('aria-label'), textOf(el)];
  for (const s of sources) {
    const n = parseCount(s);
    if (n !== null) return n;
  }
  return null;
}

function extractAvailability(doc: Doc): { status: AvailabilityStatus; text: string | null } {
  const blocks = doc.q('#availability, #availabilityInsideBuyBox_feature_div, #outOfStock, #availability_feature_div');
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks.eq(i);
    // The first coloured span is the primary message; the rest is an explanation
    // ("We don't know when or if this item will be back in stock.").
    const primary = block
      .find(
        '.primary-availability-message, span.a-color-success, span.a-color-price, span.a-color-state, span.a-color-error, span.a-size-medium',
      )
      .first();
    const text = textOf(primary) || linesOf(block)[0] || '';
    if (!text) continue;
    const status = classifyAvailability(text);
    return { status, text };
  }
  return { status: 'unknown', text: null };
}

/**
 * `isPrime`: true when the price / buy-box area shows a Prime badge for the offer (or the
 * page's `isPrimeEligible` flag is 1); false only when the page says the offer is not Prime
 * (the flag is 0, or the buy-box badge is marked `data-isprime="false"`); null when the page
 * does not say. A missing badge is not a "no": signed-out, regional and script-stripped pages
 * often show no Prime badge at all, and reading that as false flipped tracked products
 * between true and false from one crawl to the next.
 */
function extractIsPrime(doc: Doc): boolean | null {
  // Only badges in the price / buy-box area; carousels lower on the page carry their own icons.
  const icons = doc.q(
    '#priceBadging_feature_div .a-icon-prime, #price .a-icon-prime, #corePrice_feature_div .a-icon-prime, #corePriceDisplay_desktop_feature_div .a-icon-prime, #apex_desktop .a-icon-prime, #buybox .a-icon-prime, #deliveryBlockMessage .a-icon-prime, #mir-layout-DELIVERY_BLOCK .a-icon-prime',
  );
  let markedNotPrime = false;
  for (let i = 0; i < icons.length; i++) {
    const icon = icons.eq(i);
    // An upsell icon ("join Prime") says nothing about this offer.
    if (icon.hasClass('primeUpsellIcon')) continue;
    if (icon.attr('data-isprime') === 'false') {
      markedNotPrime = true;
      continue;
    }
    return true;
  }
  const flag = doc.q('input#isPrimeEligible').attr('value');
  if (flag === '1') return true;
  if (flag === '0' || markedNotPrime) return false;
  return null;
}

/** A main field the page did not show: null, an empty list or map, or an availability without a message. */
function notShown(item: DetailsItem, field: keyof DetailsItem): boolean {
  const value = item[field];
  if (field === 'availability') return item.availability.status === 'unknown';
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

const NO_LANDED_COST: DetailsLandedCost = {
  shipping: null,
  deliveryPromise: null,
  unitPrice: null,
  couponValue: null,
  stockQuantity: null,
};

export function parseDetailsPage(page: PageInput, ctx: PageContext): DetailsItem | null {
  return parseDetailsWithout(page, ctx, leaveOutOfDetails);
}

/** parseDetailsPage leaving out the regions `leaveOut` names (page-regions.unit.test.ts parses pages whole too). */
export function parseDetailsWithout(page: PageInput, ctx: PageContext, leaveOut: LeaveOut | undefined): DetailsItem | null {
  const source = PageSource.of(page);
  if (!source.length || interstitialKind(source, 'details') === 'captcha') return null;
  const doc = new Doc(source, leaveOut ? { leaveOut } : {});
  const asin = extractAsin(doc);
  const title = extractTitle(doc);
  if (!asin && !title) return null;

  const marketplace = (ctx.marketplace || '').toUpperCase();
  const { price, listPrice } = extractPrices(doc, marketplace);
  const specifications = extractSpecifications(doc);
  const brand = extractBrand(doc, specifications);
  const rating = extractRating(doc);
  const reviewsCount = extractReviewsCount(doc);
  const availability = extractAvailability(doc);
  const { mainImage, images } = extractImages(doc);
  const seller = extractSeller(doc);
  const commerce = extractCommerce(doc, seller, { asin, marketplace });
  const code = isMarketplaceCode(marketplace) ? marketplace : null;

  const item: DetailsItem = {
    asin: asin ?? '',
    url: asin ? `${normalizeOrigin(ctx.origin)}/dp/${asin}` : null,
    title,
    brand,
    price,
    listPrice,
    rating,
    reviewsCount,
    availability,
    mainImage,
    images,
    features: extractFeatures(doc),
    description: extractDescription(doc),
    categories: extractCategories(doc),
    bestSellersRank: extractBestSellersRank(doc),
    seller,
    isPrime: extractIsPrime(doc),
    variants: extractVariants(doc),
    specifications,
    ...extractFacts(doc, asin),
    ...commerce,
    gtin: extractGtin(readProductRows(doc)),
    deliveryLocation: code ? deliveryLocationOf(source, code) : null,
    ...(code ? extractLandedCost(doc, code, ctx.fetchedAt ?? new Date(), { coupon: commerce.coupon, availability }) : NO_LANDED_COST),
    subscribeAndSave: extractSubscribeAndSave(doc, marketplace),
    missingFields: [],
    parserVersion: PARSER_VERSION,
  };
  item.missingFields = DETAILS_MAIN_FIELDS.filter((field) => notShown(item, field));
  return item;
}
