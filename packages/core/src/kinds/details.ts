import { detailsResultItemSchema } from '../result-items';
import type { JobKind } from './types';

/** A product page per ASIN or product URL: one item, the product. */
export const details = {
  itemSchema: detailsResultItemSchema,
  creditsPerPage: 2,
  maxPages: null,
  target: 'asin',
  sortable: false,
} satisfies JobKind;
