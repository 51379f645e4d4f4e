import { bestsellerResultItemSchema } from '../bestseller-items';
import type { JobKind } from './types';

/**
 * A best-seller list URL, one page of the list (`?pg=2` or `/ref=zg_bs_pg_2` names page 2, ranks
 * 51-100; see bestseller-lists.ts): one item per ranked product.
 */
export const bestsellers = {
  itemSchema: bestsellerResultItemSchema,
  creditsPerPage: 5,
  maxPages: null,
  target: 'bestseller-list',
  sortable: false,
} satisfies JobKind;
