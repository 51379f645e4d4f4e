import { asinOfTarget, type DetailsResultItem } from '@crawl/core';
import { type DetailsItem, parseDetailsPage } from '../parsers';
import { productAsin } from './target-asin';
import { type MarketplaceKind, provenanceOf } from './types';

/** `{origin}/dp/{ASIN}`: one item, the product (or one of its variants' page). */
export const details: MarketplaceKind<{ item: DetailsItem | null }> = {
  url: (target, base) => new URL(`/dp/${productAsin('details', target)}`, base),
  expectedAsin: (target) => asinOfTarget(target),
  parse: (page, ctx) => ({ item: parseDetailsPage(page, ctx) }),
  items(input, { item }, fetched) {
    if (!item) return { error: 'the page has no product' };
    const wanted = asinOfTarget(input.target);
    if (wanted && item.asin !== wanted && !item.variants.some((v) => v.asin === wanted)) {
      return { error: `the page shows product ${item.asin}, not ${wanted}` };
    }
    const product: DetailsResultItem = { target: input.target, ...item, ...provenanceOf(fetched) };
    return { items: [product], hasNextPage: false, noResults: false };
  },
  noResultsMessage: 'the marketplace shows no product for this target',
};
