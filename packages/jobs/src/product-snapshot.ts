import { type FieldChangeData, isNewCondition, type ProductSnapshotData } from '@crawl/core';

/**
 * Change tracking rules, pure functions so that they are tested on their own.
 *
 * A snapshot holds the monitored fields of one product as one crawl saw them. Noise rules:
 * - A field the page did not show (null, or availability `unknown`) is "not observed": it is
 *   neither a change nor does it erase the last known value. A parser miss must not look like
 *   a product losing its price.
 * - Prices and list prices compare in cents (19.9 == 19.90); ratings to one decimal; review
 *   counts exactly; titles and seller names after collapsing whitespace.
 * - Image URLs compare without Amazon's size/format modifiers (`._AC_SX679_.`), which change
 *   with the page layout, not with the product.
 * - Search cards show fewer fields than product pages: they are compared only on what a card
 *   shows (price, list price, currency, rating, reviews, title, image), so a search crawl never
 *   reports availability, seller, rank or Prime changes.
 * - Offer listings observe the buy box: its winner (`seller`) and its price
 *   (`price`, `currency`), the same things a product page's buy box shows, when the layout marks
 *   one (legacy listings do not). Review pages observe
 *   the product's overall `rating`, its ratings count (`reviewsCount`) and `title`. Every other
 *   field of their snapshot is not observed.
 * - The first snapshot of a product is its baseline, never a change.
 *
 * The snapshot's fields are defined once, by `productSnapshotSchema` in @crawl/core (the
 * `snapshot` of `product.changed` events).
 */
export type ProductSnapshot = ProductSnapshotData;

export type MonitoredField = keyof ProductSnapshot;
/** One change: `from` and `to` have the type of the field (`fieldChangeSchema` in @crawl/core). */
export type FieldChange = FieldChangeData;

export const MONITORED_FIELDS: MonitoredField[] = [
  'price', 'listPrice', 'currency', 'availability', 'rating', 'reviewsCount', 'title', 'seller', 'bestSellersRank', 'isPrime', 'mainImage', 'lowestNewPrice',
];

/** Fields a search result card shows (and a best-seller list card). */
export const SEARCH_FIELDS: MonitoredField[] = ['price', 'listPrice', 'currency', 'rating', 'reviewsCount', 'title', 'mainImage'];

/** The job types whose results update tracked products (best-seller lists only feed compare). */
export type TrackedJobType = 'details' | 'search' | 'offers' | 'reviews';

export function isTrackedJobType(type: string): type is TrackedJobType {
  return type === 'details' || type === 'search' || type === 'offers' || type === 'reviews';
}

const NOT_OBSERVED: ProductSnapshot = {
  price: null,
  listPrice: null,
  currency: null,
  availability: null,
  rating: null,
  reviewsCount: null,
  title: null,
  seller: null,
  bestSellersRank: null,
  isPrime: null,
  mainImage: null,
  lowestNewPrice: null,
};

/**
 * A stored snapshot with every field: snapshots recorded before a field existed (lowestNewPrice
 * came with offers jobs) did not observe it.
 */
export function completeSnapshot(stored: Partial<ProductSnapshot>): ProductSnapshot {
  return { ...NOT_OBSERVED, ...stored };
}


type Item = Record<string, unknown>;
const money = (v: unknown) => (v && typeof v === 'object' ? (v as { amount?: number; currency?: string }) : null);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().replace(/\s+/g, ' ') : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The monitored fields of a stored result item (details product or search card). */
export function snapshotOf(kind: 'details' | 'search', item: Item): ProductSnapshot {
  const price = money(item.price);
  const listPrice = money(item.listPrice);
  const availability = (item.availability as { status?: string } | null | undefined)?.status;
  const bsr = Array.isArray(item.bestSellersRank) ? (item.bestSellersRank[0] as { category: string; rank: number } | undefined) : undefined;
  const seller = item.seller as { name?: string } | null | undefined;
  const snapshot: ProductSnapshot = {
    price: num(price?.amount),
    listPrice: num(listPrice?.amount),
    currency: price?.currency ?? listPrice?.currency ?? null,
    availability: availability && availability !== 'unknown' ? availability : null,
    rating: num(item.rating),
    reviewsCount: num(item.reviewsCount),
    title: text(item.title),
    seller: text(seller?.name),
    bestSellersRank: bsr ? { category: bsr.category, rank: bsr.rank } : null,
    isPrime: typeof item.isPrime === 'boolean' ? item.isPrime : null,
    mainImage: text(kind === 'search' ? item.image : item.mainImage),
    lowestNewPrice: null,
  };
  if (kind === 'search') {
    snapshot.availability = null;
    snapshot.seller = null;
    snapshot.bestSellersRank = null;
    snapshot.isPrime = null;
  }
  return snapshot;
}

/**
 * One snapshot per product of a target's result items: the first card or product of an ASIN
 * (details, search: a product shown twice is one observation), the buy-box offer of an offer
 * listing, the rating summary of a product's review pages. An offers or reviews snapshot that
 * observed nothing (a listing that marks no buy box, a summary without figures) is left out.
 */
export function productSnapshots(type: TrackedJobType, items: Item[]): Map<string, ProductSnapshot> {
  if (type === 'offers') return offerSnapshots(items);
  const byAsin = new Map<string, ProductSnapshot>();
  for (const item of items) {
    const asin = item.asin;
    if (typeof asin !== 'string' || byAsin.has(asin)) continue;
    byAsin.set(asin, type === 'reviews' ? reviewSummarySnapshot(item) : snapshotOf(type, item));
  }
  if (type === 'reviews') for (const [asin, snapshot] of byAsin) if (Object.values(snapshot).every((v) => v === null)) byAsin.delete(asin);
  return byAsin;
}

/**
 * Per product of an offer listing: the buy-box offer's winner and price (what a product page's
 * buy box shows too) and the lowest price of a new offer, in the currency of either.
 */
function offerSnapshots(items: Item[]): Map<string, ProductSnapshot> {
  const offersByAsin = new Map<string, Item[]>();
  for (const offer of items) {
    if (typeof offer.asin !== 'string') continue;
    const offers = offersByAsin.get(offer.asin);
    if (offers) offers.push(offer);
    else offersByAsin.set(offer.asin, [offer]);
  }
  const byAsin = new Map<string, ProductSnapshot>();
  for (const [asin, offers] of offersByAsin) {
    const buyBox = offers.find((o) => o.isBuyBox === true);
    const buyBoxPrice = money(buyBox?.price);
    const newPrices = offers.filter((o) => isNewCondition(typeof o.condition === 'string' ? o.condition : null)).map((o) => money(o.price)).filter((p) => num(p?.amount) !== null);
    const currency = buyBoxPrice?.currency ?? newPrices[0]?.currency ?? null;
    const amounts = newPrices.filter((p) => p!.currency === currency).map((p) => p!.amount!);
    const snapshot: ProductSnapshot = {
      ...NOT_OBSERVED,
      price: num(buyBoxPrice?.amount),
      currency,
      seller: text((buyBox?.seller as { name?: string } | null | undefined)?.name),
      lowestNewPrice: amounts.length ? Math.min(...amounts) : null,
    };
    if (Object.values(snapshot).some((v) => v !== null)) byAsin.set(asin, snapshot);
  }
  return byAsin;
}

function reviewSummarySnapshot(item: Item): ProductSnapshot {
  const product = (item.product ?? {}) as Item;
  return { ...NOT_OBSERVED, rating: num(product.rating), reviewsCount: num(product.ratingsCount), title: text(product.title) };
}

const imageKey = (url: string) => url.replace(/\._[^/]*_\.(jpg|jpeg|png|webp|gif)$/i, '.$1');

function same(field: MonitoredField, a: unknown, b: unknown): boolean {
  switch (field) {
    case 'price':
    case 'listPrice':
    case 'lowestNewPrice':
      return Math.round((a as number) * 100) === Math.round((b as number) * 100);
    case 'rating':
      return Math.round((a as number) * 10) === Math.round((b as number) * 10);
    case 'mainImage':
      return imageKey(a as string) === imageKey(b as string);
    case 'bestSellersRank': {
      const x = a as { category: string; rank: number };
      const y = b as { category: string; rank: number };
      return x.rank === y.rank && x.category === y.category;
    }
    default:
      return a === b;
  }
}

/**
 * Compares a new snapshot with the last known values. Returns the changes and the merged
 * "last known" snapshot (observed fields replaced, unobserved ones kept).
 */
export function diffSnapshot(previous: ProductSnapshot | null, next: ProductSnapshot): { changes: FieldChange[]; merged: ProductSnapshot } {
  if (!previous) return { changes: [], merged: next };
  const changes: FieldChange[] = [];
  const merged: ProductSnapshot = completeSnapshot(previous);
  for (const field of MONITORED_FIELDS) {
    const to = next[field];
    if (to === null) continue;
    const from = previous[field];
    (merged as unknown as Record<string, unknown>)[field] = to;
    if (from === null || from === undefined) continue; // first observation of this field
    // The loop loses the field/value correlation TypeScript would need; both come from the same field.
    if (!same(field, from, to)) changes.push({ field, from, to } as FieldChange);
  }
  return { changes, merged };
}
