import { MAX_REVIEW_PAGES } from '../domain';
import { reviewResultItemSchema } from '../review-items';
import type { JobKind } from './types';

/** A product's review pages (up to `config.pages`, in `config.sort` order): one item per review. */
export const reviews = {
  itemSchema: reviewResultItemSchema,
  creditsPerPage: 2,
  maxPages: MAX_REVIEW_PAGES,
  target: 'asin',
  sortable: true,
} satisfies JobKind;
