import type { ProductSnapshotData } from '@crawl/core';
import { firstPerAsin, type Item, NOT_OBSERVED, num, text } from './snapshot-values';
import type { TrackingKind } from './types';

/**
 * Review pages observe the product's rating summary: overall `rating`, ratings count
 * (`reviewsCount`) and `title`; a summary without figures is left out. Compare does not apply.
 */
export const reviews: TrackingKind = {
  snapshots(items) {
    const byAsin = firstPerAsin(items, reviewSummarySnapshot);
    for (const [asin, snapshot] of byAsin) if (Object.values(snapshot).every((v) => v === null)) byAsin.delete(asin);
    return byAsin;
  },
  compare: null,
};

function reviewSummarySnapshot(item: Item): ProductSnapshotData {
  const product = (item.product ?? {}) as Item;
  return { ...NOT_OBSERVED, rating: num(product.rating), reviewsCount: num(product.ratingsCount), title: text(product.title) };
}
