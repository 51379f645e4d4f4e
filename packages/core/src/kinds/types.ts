import type { z } from '../openapi-zod';

/**
 * What the whole house agrees on about one job type: the stored item's shape, the price of a
 * page, how deep a target goes and what a target is. One module per type (kinds/<type>.ts),
 * gathered in JOB_KINDS (kinds/index.ts); docs/adding-a-job-type.md walks through adding one.
 */
export interface JobKind<S extends z.AnyZodObject = z.AnyZodObject> {
  /** The stored result item (strict): its key order is the documented field order of every response and export. */
  itemSchema: S;
  /** Credits per page crawled (a job reserves every page of every target; pages not crawled are refunded). */
  creditsPerPage: number;
  /** `config.pages` accepted up to this; null: one page per target, and `config.pages` is refused. */
  maxPages: number | null;
  /**
   * Pages per target when `config.pages` is absent (multi-page types; 1 when not set). What a
   * page means decides it: search pages are a ranking the tenant chooses the depth of, while an
   * offers job asks for every offer of a product, so it goes up to its cap and refunds the rest.
   */
  defaultPages?: number;
  /** What a target is: a search keyword, an ASIN or product URL, or a best-seller list URL (normalizeTargets). */
  target: 'keyword' | 'asin' | 'bestseller-list';
  /** Whether `config.sort` (the marketplace's review order) applies. */
  sortable: boolean;
}
