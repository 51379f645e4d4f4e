import { offerResultItemSchema } from '../offer-items';
import type { JobKind } from './types';

/** A product's offer listing (one page): one item per offer. */
export const offers = {
  itemSchema: offerResultItemSchema,
  creditsPerPage: 2,
  maxPages: null,
  target: 'asin',
  sortable: false,
} satisfies JobKind;
