/**
 * What a generated page says about a product, derived from its ASIN alone so that every page
 * kind tells the same story (the details page, its reviews summary and a best-seller card show
 * one price, rating and count) and a product stays put between crawls. The `epoch` (the drift
 * control, drift.ts) moves the changing facts only: price, stock, rating and the count of
 * ratings; title, brand and category are the product's own.
 */
import { productTitle } from './asin-template';
import type { MarketLocale } from './locale';
import { promiseDay } from './aod-offer-data';
import { postalKey } from './delivery-location';
import { createPrng, fnv1a } from './prng';

export type Stock = { kind: 'in' } | { kind: 'few'; left: number } | { kind: 'out' };

export interface ProductFacts {
  asin: string;
  title: string;
  brand: string;
  /** In the marketplace's minor units (cents; yen). */
  priceMinor: number;
  /** 1.0-5.0, one decimal. */
  rating: number;
  ratingsCount: number;
  stock: Stock;
  /** Percent of ratings with 5, 4, 3, 2, 1 stars (sums to 100). */
  histogram: [number, number, number, number, number];
}

const CATEGORIES = ['Electronics', 'Home & Kitchen', 'Sports & Outdoors', 'Office Products', 'Tools & Home Improvement', 'Toys & Games'];

/** The breadcrumb's category of a product (stable per ASIN). */
export function productCategory(asin: string): string {
  return CATEGORIES[fnv1a(`${asin}#category`) % CATEGORIES.length]!;
}

/** A rating's spread over the stars: the lower the average, the more 1-3 star ratings. */
export function histogramFor(rating: number): ProductFacts['histogram'] {
  const gap = 5 - rating;
  const one = Math.max(1, Math.round(gap * 9));
  const two = Math.max(1, Math.round(gap * 4));
  const three = Math.max(2, Math.round(gap * 7));
  const four = Math.max(5, Math.round(8 + gap * 6));
  return [Math.max(0, 100 - one - two - three - four), four, three, two, one];
}

/**
 * The known values of the synthetic pages (`fixturesDir: null`): $19.99, 4.5 stars, 1,234
 * ratings, in stock. Tests of tracking rewrite exactly these strings to show a change.
 */
export function knownFacts(asin: string, title: string): ProductFacts {
  return {
    asin,
    title,
    brand: title.split(' ')[0]!,
    priceMinor: 1999,
    rating: 4.5,
    ratingsCount: 1234,
    stock: { kind: 'in' },
    histogram: histogramFor(4.5),
  };
}

/**
 * The facts of `asin` on a marketplace at drift epoch `epoch` (0: as first crawled). A price
 * costs about the same in every marketplace (converted, with the marketplace's usual endings).
 * About 1 in 5 products is short of stock (1-9 left) or unavailable.
 */
export function productFacts(asin: string, locale: MarketLocale, epoch = 0): ProductFacts {
  const base = createPrng(fnv1a(`${asin}#facts`));
  const usCents = 800 + Math.floor(base() ** 2 * 15000);
  const ending = Math.floor(base() * 8);
  let rating = Math.round((3.4 + base() * 1.5) * 10) / 10;
  let ratingsCount = 12 + Math.floor(base() ** 3 * 48000);
  const stockDraw = base();
  const title = productTitle(asin, 200);
  let price = locale.fromUsCents(usCents, ending);
  let stock = stockOf(stockDraw, base());
  if (epoch > 0) {
    const moved = createPrng(fnv1a(`${asin}#facts#${epoch}`));
    price = locale.fromUsCents(Math.round(usCents * (0.8 + moved() * 0.35)), Math.floor(moved() * 8));
    rating = Math.min(5, Math.max(1, Math.round((rating + (moved() < 0.5 ? -0.1 : 0.1) * Math.ceil(moved() * 2)) * 10) / 10));
    ratingsCount += epoch * (1 + Math.floor(moved() * 60));
    stock = stockOf(moved(), moved());
  }
  return { asin, title, brand: title.split(' ')[0]!, priceMinor: price, rating, ratingsCount, stock, histogram: histogramFor(rating) };
}

function stockOf(draw: number, left: number): Stock {
  if (draw < 0.82) return { kind: 'in' };
  if (draw < 0.93) return { kind: 'few', left: 1 + Math.floor(left * 9) };
  return { kind: 'out' };
}

/** The buy box's delivery: its charge (0: free) and the promised days (after the fixed day promises are dated from). */
export interface Delivery {
  chargeMinor: number;
  firstDay: number;
  lastDay: number;
}

const CHARGES_US_CENTS = [399, 499, 599, 699, 899];

/** The draws of `asin` at `postalCode` (null: the marketplace's default place), the same for the same pair. */
const hereOf = (asin: string, postalCode: string | null) => createPrng(fnv1a(`${asin}#at#${postalCode ? postalKey(postalCode) : '-'}`));

/**
 * A price as it is at `postalCode` (docs/crawling.md, "Delivery location"): a few percent up or
 * down, never the same, with the price's last digit; unchanged without a code.
 */
export function priceAt(minor: number, asin: string, postalCode: string | null): number {
  if (!postalCode) return minor;
  const here = hereOf(asin, postalCode);
  const factor = 1 + (here() < 0.5 ? -1 : 1) * (0.01 + here() * 0.06);
  // the last digit stays (…9, …5), the rest moves: $13.95 -> $13.45 or $14.65
  const tens = Math.floor(minor / 10);
  let moved = Math.max(1, Math.round(tens * factor));
  if (moved === tens) moved = tens + 1;
  return moved * 10 + (minor % 10);
}

/** What a place changes about a product besides its price (priceAt): out of stock there, and the buy box's delivery. */
export interface Place {
  out: boolean;
  delivery: Delivery;
}

/**
 * A product at `postalCode` (docs/crawling.md, "Delivery location"): out of stock in about 1
 * place in 6, and the buy box's delivery (free or a charge, sooner or later), drawn from the ASIN
 * and the code, so the built-in pages and the saved ones (located-page.ts) agree. Without a code:
 * in stock as it is, delivered to the marketplace's default place.
 */
export function placeAt(asin: string, locale: MarketLocale, postalCode: string | null): Place {
  const here = hereOf(asin, postalCode);
  here();
  here(); // the two draws priceAt takes
  const out = postalCode !== null && here() < 0.16;
  const free = here() < 0.6;
  const charge = CHARGES_US_CENTS[Math.floor(here() * CHARGES_US_CENTS.length)]!;
  const firstDay = 2 + Math.floor(here() * 6);
  const lastDay = here() < 0.35 ? firstDay + 2 + Math.floor(here() * 3) : firstDay;
  return { out, delivery: { chargeMinor: free ? 0 : locale.convertUsCents(charge), firstDay, lastDay } };
}

/** The facts of a product as a shopper at `postalCode` sees them: its price there (priceAt) and its place's stock and delivery (placeAt). */
export function factsAt(facts: ProductFacts, locale: MarketLocale, postalCode: string | null): ProductFacts & { delivery: Delivery } {
  const { out, delivery } = placeAt(facts.asin, locale, postalCode);
  return {
    ...facts,
    priceMinor: priceAt(facts.priceMinor, facts.asin, postalCode),
    stock: out ? { kind: 'out' } : facts.stock,
    delivery,
  };
}

/** A delivery's dates as a delivery message shows them ("Tuesday, June 3", "June 9 - June 13"). */
export function deliveryDateText(delivery: Delivery, locale: MarketLocale): string {
  return delivery.firstDay === delivery.lastDay
    ? promiseDay(locale, delivery.firstDay, true)
    : `${promiseDay(locale, delivery.firstDay, false)} - ${promiseDay(locale, delivery.lastDay, false)}`;
}
