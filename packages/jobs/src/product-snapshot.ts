import { ALERT_FIELDS, type FieldChangeData, type ProductSnapshotData } from '@crawl/core';
import { type Item, money, NOT_OBSERVED, num, text } from './kinds/snapshot-values';

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
 * Which items of a job type make a snapshot, and which fields they observe, is the type's
 * module's (kinds/<type>.ts, JOBS_KINDS).
 *
 * The snapshot's fields are defined once, by `productSnapshotSchema` in @crawl/core (the
 * `snapshot` of `product.changed` events).
 */
export type ProductSnapshot = ProductSnapshotData;

export type MonitoredField = keyof ProductSnapshot;
/** One change: `from` and `to` have the type of the field (`fieldChangeSchema` in @crawl/core). */
export type FieldChange = FieldChangeData;

/** Every field of a snapshot, in its order: the list alert rules' `field_changed` watches too (one list, in @crawl/core). */
export const MONITORED_FIELDS: MonitoredField[] = [...ALERT_FIELDS];

/**
 * The result item fields `snapshotOf` reads each monitored field from: the currency comes with
 * the prices, a card's image is `image`, and the lowest new price comes from offer listings
 * (kinds/offers.ts), never from an item.
 */
const ITEM_FIELDS_OF: Record<MonitoredField, readonly string[]> = {
  price: ['price'],
  listPrice: ['listPrice'],
  currency: ['price', 'listPrice'],
  availability: ['availability'],
  rating: ['rating'],
  reviewsCount: ['reviewsCount'],
  title: ['title'],
  seller: ['seller'],
  bestSellersRank: ['bestSellersRank'],
  isPrime: ['isPrime'],
  mainImage: ['mainImage', 'image'],
  lowestNewPrice: [],
};

/** Every result item field a snapshot is made of (by `snapshotOf`), for each of MONITORED_FIELDS. */
export const SNAPSHOT_ITEM_FIELDS: readonly string[] = [...new Set(MONITORED_FIELDS.flatMap((field) => ITEM_FIELDS_OF[field]))];

/** Fields a search result card shows (and a best-seller list card). */
export const SEARCH_FIELDS: MonitoredField[] = ['price', 'listPrice', 'currency', 'rating', 'reviewsCount', 'title', 'mainImage'];

/**
 * A stored snapshot with every field: snapshots recorded before a field existed (lowestNewPrice
 * came with offers jobs) did not observe it.
 */
export function completeSnapshot(stored: Partial<ProductSnapshot>): ProductSnapshot {
  return { ...NOT_OBSERVED, ...stored };
}

/**
 * The monitored fields of a stored result item: a product page's ('product', a details item) or
 * a result card's ('card', a search or best-seller item: only what a card shows).
 */
export function snapshotOf(view: 'product' | 'card', item: Item): ProductSnapshot {
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
    mainImage: text(view === 'card' ? item.image : item.mainImage),
    lowestNewPrice: null,
  };
  if (view === 'card') {
    snapshot.availability = null;
    snapshot.seller = null;
    snapshot.bestSellersRank = null;
    snapshot.isPrime = null;
  }
  return snapshot;
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
