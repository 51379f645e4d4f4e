import { type BestsellerListPage, type BestsellerResultItem, bestsellerListPage } from '@crawl/core';
import { type BestsellersPage, PARSER_VERSION, parseBestsellersPage } from '../parsers';
import { type MarketplaceKind, provenanceOf } from './types';

/** The card fields a best-seller item has no value for when the page lists it only in its data. */
const LAZY_MISSING = ['title', 'image', 'price', 'rating', 'reviewsCount'];

/**
 * `{origin}{path}` of a best-seller list URL, plus `?pg={n}` for its page n > 1: the list's path
 * (only) is re-rooted on the origin (set as the URL's pathname, it cannot change the host, and it
 * must keep a list prefix) and the page is a validated number, never the URL's query text. One
 * item per ranked product, with the ranks the page shows (51-100 on page 2).
 */
export const bestsellers: MarketplaceKind<{ page: BestsellersPage | null }> = {
  url(target, base) {
    const list = listPageOf(target);
    const url = new URL(base);
    url.pathname = list.path;
    if (list.page > 1) url.searchParams.set('pg', String(list.page));
    return url;
  },
  expectedAsin: () => null,
  parse: (page, ctx) => ({ page: parseBestsellersPage(page, ctx) }),
  items(input, { page }, fetched) {
    const provenance = provenanceOf(fetched);
    if (!page) return { error: 'the page is not a best-seller list' };
    const cards = page.items.map((item): BestsellerResultItem => ({
      target: input.target,
      category: page.category,
      ...item,
      ...provenance,
    }));
    // Ranked products the page lists only in its data (rendered on scroll): kept, with the card fields null.
    const lazy = page.lazyItems.map((l): BestsellerResultItem => ({
      target: input.target,
      category: page.category,
      rank: l.rank,
      asin: l.asin,
      title: null,
      url: `${fetched.origin}/dp/${l.asin}`,
      image: null,
      price: null,
      rating: null,
      reviewsCount: null,
      missingFields: LAZY_MISSING,
      parserVersion: PARSER_VERSION,
      ...provenance,
    }));
    const items = [...cards, ...lazy].sort((a, b) => a.rank - b.rank);
    if (!items.length) return { error: 'the best-seller list has no items' };
    return { items, hasNextPage: false, noResults: false };
  },
  noResultsMessage: 'the best-seller list has no products',
};

/** The list page of a best-seller target (validated by normalizeTargets); anything else is a bug upstream. */
function listPageOf(target: string): BestsellerListPage {
  const list = bestsellerListPage(new URL(target));
  if ('issue' in list) throw new Error(`bestsellers target is not a best-seller list page: ${list.issue}`);
  return list;
}
