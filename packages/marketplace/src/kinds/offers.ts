import { asinOfTarget, MAX_OFFER_PAGES, type OfferResultItem, type ResultItem } from '@crawl/core';
import { type OffersPage, parseOffersPage } from '../parsers';
import { productAsin } from './target-asin';
import { type MarketplaceKind, provenanceOf } from './types';

/** Offers a legacy listing page shows: page n starts at offer `(n - 1) * 10`. */
const LEGACY_OFFERS_PER_PAGE = 10;

/**
 * `{origin}/gp/offer-listing/{ASIN}`: one item per offer of the product, page after page. Page 1
 * is that URL in either layout; page n > 1 is asked for the way the page before showed its
 * offers (CrawlInput.pageStyle): the legacy "Buying Choices" rows page by `?startIndex=`, the
 * All Offers Display panel loads its further offers from `/gp/product/ajax/aodAjaxMain/` with
 * `pageno=n` (the request the panel's "See more" makes; only the offer list is rendered).
 */
export const offers: MarketplaceKind<{ page: OffersPage | null }> = {
  url(target, base, page, _sort, pageStyle) {
    const asin = productAsin('offers', target);
    if (page > 1 && pageStyle === 'aod') {
      const url = new URL('/gp/product/ajax/aodAjaxMain/', base);
      url.searchParams.set('asin', asin);
      url.searchParams.set('pc', 'dp');
      url.searchParams.set('isonlyrenderofferlist', 'true');
      url.searchParams.set('pageno', String(page));
      return url;
    }
    const url = new URL(`/gp/offer-listing/${asin}`, base);
    if (page > 1) url.searchParams.set('startIndex', String((page - 1) * LEGACY_OFFERS_PER_PAGE));
    return url;
  },
  expectedAsin: (target) => asinOfTarget(target),
  parse: (page, ctx) => ({ page: parseOffersPage(page, ctx) }),
  items(input, { page }, fetched) {
    const wanted = asinOfTarget(input.target);
    if (!page || !wanted) return { error: 'the page is not an offer listing' };
    if (page.asin && page.asin !== wanted) return { error: `the page lists offers of ${page.asin}, not ${wanted}` };
    const { deliveryLocation } = page;
    const items = page.offers.map((offer): OfferResultItem => ({
      target: input.target,
      asin: wanted,
      ...offer,
      deliveryLocation,
      ...provenanceOf(fetched),
    }));
    return { items, hasNextPage: page.hasNextPage, noResults: items.length === 0, pageStyle: page.layout };
  },
  /**
   * Page n's offers ranked after the offers of the pages before (`before` is empty on page 1),
   * so positions are listing-wide and the pinned buy-box offer stays 1.
   *
   * Duplicates: the AOD panel pins the buy-box offer above every page it renders, so an offer
   * pinned on page n > 1 is that same offer again (page 1 holds it, or showed none) and is
   * dropped. Listed offers are all kept, even one that looks like an earlier one: the rows carry
   * no offer id we keep, and a seller may list several offers alike (used copies of one
   * condition and price), so a real offer could not be told from one shifted between two page
   * fetches. A dropped real offer would be silent, and could move the lowest new price; a
   * repeat is visible in the rows and changes no minimum.
   *
   * Location: the panel's further pages carry no deliver-to block of their own; their offers
   * carry the place the listing's earlier pages named.
   */
  continueItems(before: ResultItem[], pageItems: ResultItem[]): ResultItem[] {
    const offers = pageItems as OfferResultItem[];
    const kept = before.length ? offers.filter((offer) => offer.isBuyBox !== true) : offers;
    // a panel page names no place: it delivers where the listing's first page said
    const listed = (before as OfferResultItem[]).find((offer) => offer.deliveryLocation)?.deliveryLocation ?? null;
    return kept.map((offer, i) => ({
      ...offer,
      position: before.length + i + 1,
      deliveryLocation: offer.deliveryLocation ?? listed,
    }));
  },
  noResultsMessage: 'the marketplace lists no offers for this product',
  truncatedMessage: (pages) =>
    `the listing has more offers than the ${pages} page${pages === 1 ? '' : 's'} crawled (config.pages, at most ${MAX_OFFER_PAGES})`,
};
