import type { JobType, ProductSnapshotData } from '@crawl/core';
import { bestsellers } from './bestsellers';
import { details } from './details';
import { offers } from './offers';
import { reviews } from './reviews';
import { search } from './search';
import type { Item } from './snapshot-values';
import type { TrackingKind } from './types';

export type { CompareRule, TrackingKind } from './types';

/**
 * Change tracking and compare, per job type. Typed by JobType: a type without its module does
 * not compile (docs/adding-a-job-type.md).
 */
export const JOBS_KINDS: { [T in JobType]: TrackingKind } = {
  details,
  search,
  offers,
  bestsellers,
  reviews,
};

/**
 * One snapshot per product of a target's result items, by the rules of the job's type (null:
 * the type does not update tracked products): the first card or product of an ASIN (details,
 * search), the buy-box offer of an offer listing, the rating summary of a product's review pages.
 * Empty for a type that does not update tracked products.
 */
export function productSnapshots(type: JobType, items: Item[]): Map<string, ProductSnapshotData> {
  return JOBS_KINDS[type].snapshots?.(items) ?? new Map();
}
