import { asinOfTarget, type ReviewResultItem } from '@crawl/core';
import { parseReviewsPage, type ReviewsPage } from '../parsers';
import { productAsin } from './target-asin';
import { type MarketplaceKind, provenanceOf } from './types';

/** `{origin}/product-reviews/{ASIN}?pageNumber={n}` (plus `&sortBy=`): one item per review, with its page. */
export const reviews: MarketplaceKind<{ page: ReviewsPage | null }> = {
  url(target, base, page, sort) {
    const url = new URL(`/product-reviews/${productAsin('reviews', target)}`, base);
    url.searchParams.set('pageNumber', String(page));
    if (sort) url.searchParams.set('sortBy', sort);
    return url;
  },
  expectedAsin: (target) => asinOfTarget(target),
  parse: (page, ctx) => ({ page: parseReviewsPage(page, ctx) }),
  items(input, { page }, fetched) {
    const wanted = asinOfTarget(input.target);
    if (!page || !wanted) return { error: 'the page is not a review page' };
    if (page.product.asin && page.product.asin !== wanted)
      return { error: `the page shows reviews of ${page.product.asin}, not ${wanted}` };
    const pageNo = input.page ?? 1;
    const items = page.reviews.map((review): ReviewResultItem => ({
      target: input.target,
      asin: wanted,
      page: pageNo,
      ...review,
      product: page.product,
      ...provenanceOf(fetched),
    }));
    return { items, hasNextPage: page.hasNextPage, noResults: items.length === 0 };
  },
  noResultsMessage: 'the product has no reviews on the marketplace',
  signInMessage: 'the marketplace requires a sign-in to show reviews for this product',
};
