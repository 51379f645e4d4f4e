import type { JobType } from '@crawl/core';
import { bestsellers } from './bestsellers';
import { details } from './details';
import { offers } from './offers';
import { reviews } from './reviews';
import { search } from './search';
import type { ExportKind } from './types';

export type { ExportKind, LlmValues } from './types';

/**
 * How each job type's items are exported (the `llm` mapping). Typed by JobType: a type without
 * its module does not compile (docs/adding-a-job-type.md).
 */
export const EXPORT_KINDS: { [T in JobType]: ExportKind<T> } = {
  details,
  search,
  offers,
  bestsellers,
  reviews,
};
