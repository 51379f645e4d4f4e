import { bestsellerResultItemSchema } from '../bestseller-items';
import type { JobKind } from './types';

/** A best-seller list URL (one page): one item per ranked product. */
export const bestsellers = {
  itemSchema: bestsellerResultItemSchema,
  creditsPerPage: 5,
  maxPages: null,
  target: 'bestseller-list',
  sortable: false,
} satisfies JobKind;
