import { type BestsellerResultItem, isBestsellerPath } from '@crawl/core';
import { type BestsellersPage, PARSER_VERSION, parseBestsellersPage } from '../parsers';
import type { MarketplaceKind } from './types';

/** The card fields a best-seller item has no value for when the page lists it only in its data. */
const LAZY_MISSING = ['title', 'image', 'price', 'rating', 'reviewsCount'];

/**
 * `{origin}{path}` of a best-seller list URL, whose path (only) is re-rooted on the origin: set
 * as the URL's pathname, it cannot change the host, and it must keep a list prefix. One item per
 * ranked product.
 */
export const bestsellers: MarketplaceKind<{ page: BestsellersPage | null }> = {
  url(target, base) {
    const url = new URL(base);
    url.pathname = bestsellerPath(target);
    return url;
  },
  expectedAsin: () => null,
  parse: (html, ctx) => ({ page: parseBestsellersPage(html, ctx) }),
  items(input, { page }, origin) {
    if (!page) return { error: 'the page is not a best-seller list' };
    const cards = page.items.map((item): BestsellerResultItem => ({ target: input.target, category: page.category, ...item }));
    // Ranked products the page lists only in its data (rendered on scroll): kept, with the card fields null.
    const lazy = page.lazyItems.map((l): BestsellerResultItem => ({
      target: input.target,
      category: page.category,
      rank: l.rank,
      asin: l.asin,
      title: null,
      url: `${origin}/dp/${l.asin}`,
      image: null,
      price: null,
      rating: null,
      reviewsCount: null,
      missingFields: LAZY_MISSING,
      parserVersion: PARSER_VERSION,
    }));
    const items = [...cards, ...lazy].sort((a, b) => a.rank - b.rank);
    if (!items.length) return { error: 'the best-seller list has no items' };
    return { items, hasNextPage: false, noResults: false };
  },
  noResultsMessage: 'the best-seller list has no products',
};

/** The path of a best-seller list target (validated by normalizeTargets); anything else is a bug upstream. */
function bestsellerPath(target: string): string {
  const path = new URL(target).pathname;
  if (!isBestsellerPath(path)) throw new Error('bestsellers target is not a best-seller list path');
  return path;
}
