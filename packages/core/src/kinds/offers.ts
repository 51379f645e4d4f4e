import { MAX_OFFER_PAGES } from '../domain';
import { offerResultItemSchema } from '../offer-items';
import type { JobKind } from './types';

/**
 * A product's offer listing, every page of it up to `config.pages` (default: the cap, so "all
 * offers" is all of them; pages the listing does not have are refunded): one item per offer.
 */
export const offers = {
  itemSchema: offerResultItemSchema,
  creditsPerPage: 2,
  maxPages: MAX_OFFER_PAGES,
  defaultPages: MAX_OFFER_PAGES,
  target: 'asin',
  sortable: false,
} satisfies JobKind;
