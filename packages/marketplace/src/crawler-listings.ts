import type { BestsellerResultItem, OfferResultItem, ResultItem, ReviewResultItem } from '@crawl/core';
import type { CrawlInput } from './crawler';
import type { ParsedPage } from './parse-worker';
import { PARSER_VERSION } from './parsers';
import { expectedAsin } from './urls';

type ListingPage = Extract<ParsedPage, { kind: 'offers' | 'bestsellers' | 'reviews' }>;

export type ListingItems = { items: ResultItem[]; hasNextPage: boolean; noResults: boolean } | { error: string };

/** The card fields a best-seller item has no value for when the page lists it only in its data. */
const LAZY_MISSING = ['title', 'image', 'price', 'rating', 'reviewsCount'];

/**
 * Result items of an offers, best-seller or reviews page, each with the submitted target: a
 * page about another product than the target's ASIN is an error (never stored as its result).
 */
export function listingItems(input: CrawlInput, parsed: ListingPage, origin: string): ListingItems {
  const wanted = expectedAsin(input.type, input.target);
  switch (parsed.kind) {
    case 'offers': {
      const page = parsed.page;
      if (!page || !wanted) return { error: 'the page is not an offer listing' };
      if (page.asin && page.asin !== wanted) return { error: `the page lists offers of ${page.asin}, not ${wanted}` };
      const items = page.offers.map((offer): OfferResultItem => ({ target: input.target, asin: wanted, ...offer }));
      // Offers are one page per target (2 credits): the AOD panel's further offers are not fetched.
      return { items, hasNextPage: false, noResults: items.length === 0 };
    }
    case 'bestsellers': {
      const page = parsed.page;
      if (!page) return { error: 'the page is not a best-seller list' };
      const cards = page.items.map((item): BestsellerResultItem => ({ target: input.target, category: page.category, ...item }));
      // Ranked products the page lists only in its data (rendered on scroll): kept, with the card fields null.
      const lazy = page.lazyItems.map(
        (l): BestsellerResultItem => ({
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
        }),
      );
      const items = [...cards, ...lazy].sort((a, b) => a.rank - b.rank);
      if (!items.length) return { error: 'the best-seller list has no items' };
      return { items, hasNextPage: false, noResults: false };
    }
    case 'reviews': {
      const page = parsed.page;
      if (!page || !wanted) return { error: 'the page is not a review page' };
      if (page.product.asin && page.product.asin !== wanted) return { error: `the page shows reviews of ${page.product.asin}, not ${wanted}` };
      const pageNo = input.page ?? 1;
      const items = page.reviews.map(
        (review): ReviewResultItem => ({ target: input.target, asin: wanted, page: pageNo, ...review, product: page.product }),
      );
      return { items, hasNextPage: page.hasNextPage, noResults: items.length === 0 };
    }
  }
}
