import type { ResultItem, SearchResultItem } from '@crawl/core';
import { parseSearchResults, type SearchResultsPage } from '../parsers';
import { type MarketplaceKind, provenanceOf } from './types';

/**
 * `{origin}/s?k={keyword}` plus `&page={n}` for result page n > 1: one item per result card,
 * with the keyword and the page it was on.
 */
export const search: MarketplaceKind<SearchResultsPage> = {
  url(target, base, page) {
    const url = new URL('/s', base);
    url.searchParams.set('k', target);
    if (page > 1) url.searchParams.set('page', String(page));
    return url;
  },
  expectedAsin: () => null,
  parse: (page, ctx) => parseSearchResults(page, ctx),
  items(input, page, fetched) {
    if (page.noResults) return { items: [], hasNextPage: false, noResults: true };
    if (!page.cards.length) return { error: 'the page has no search result cards' };
    const pageNo = input.page ?? 1;
    const items = page.cards.map((card): SearchResultItem => ({
      keyword: input.target,
      page: pageNo,
      totalResults: page.totalResults,
      ...card,
      ...provenanceOf(fetched),
    }));
    return { items, hasNextPage: page.hasNextPage, noResults: false };
  },
  /**
   * Page n's cards numbered after the cards of the pages before: `position` (every card) and
   * `organicPosition` (organic cards) continue across pages, so they are overall ranks.
   */
  continueItems(before: ResultItem[], pageItems: ResultItem[]): ResultItem[] {
    const cards = before as SearchResultItem[];
    const organicBefore = cards.filter((i) => i.organicPosition !== null).length;
    return (pageItems as SearchResultItem[]).map((item) => ({
      ...item,
      position: before.length + item.position,
      organicPosition: item.organicPosition === null ? null : organicBefore + item.organicPosition,
    }));
  },
  noResultsMessage: 'the marketplace found no results for this keyword',
};
