import { asinOfTarget, type OfferResultItem } from '@crawl/core';
import { type OffersPage, parseOffersPage } from '../parsers';
import { productAsin } from './target-asin';
import type { MarketplaceKind } from './types';

/** `{origin}/gp/offer-listing/{ASIN}`: one item per offer of the product. */
export const offers: MarketplaceKind<{ page: OffersPage | null }> = {
  url: (target, base) => new URL(`/gp/offer-listing/${productAsin('offers', target)}`, base),
  expectedAsin: (target) => asinOfTarget(target),
  parse: (html, ctx) => ({ page: parseOffersPage(html, ctx) }),
  items(input, { page }) {
    const wanted = asinOfTarget(input.target);
    if (!page || !wanted) return { error: 'the page is not an offer listing' };
    if (page.asin && page.asin !== wanted) return { error: `the page lists offers of ${page.asin}, not ${wanted}` };
    const items = page.offers.map((offer): OfferResultItem => ({ target: input.target, asin: wanted, ...offer }));
    // Offers are one page per target (2 credits): the AOD panel's further offers are not fetched.
    return { items, hasNextPage: false, noResults: items.length === 0 };
  },
  noResultsMessage: 'the marketplace lists no offers for this product',
};
