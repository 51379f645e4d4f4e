import type { ProductSnapshotData } from '@crawl/core';

/** A stored result item, as the snapshot rules read it. */
export type Item = Record<string, unknown>;

export const money = (v: unknown) => (v && typeof v === 'object' ? (v as { amount?: number; currency?: string }) : null);
export const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().replace(/\s+/g, ' ') : null);
export const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A snapshot that observed nothing: every field null. */
export const NOT_OBSERVED: ProductSnapshotData = {
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

/** One snapshot per ASIN: the first item of each (a product shown twice is one observation, not two that could differ). */
export function firstPerAsin(items: Item[], snapshot: (item: Item) => ProductSnapshotData): Map<string, ProductSnapshotData> {
  const byAsin = new Map<string, ProductSnapshotData>();
  for (const item of items) {
    const asin = item.asin;
    if (typeof asin !== 'string' || byAsin.has(asin)) continue;
    byAsin.set(asin, snapshot(item));
  }
  return byAsin;
}
