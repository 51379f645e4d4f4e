import { JOB_KINDS, JOB_TYPES, type JobType, type ProductSnapshotData } from '@crawl/core';
import { SNAPSHOT_ITEM_FIELDS } from '../product-snapshot';
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

/**
 * The result item fields a comparison of a result set of each type reads, of those its item
 * schema has: the ASIN, what its `position` reads and what a snapshot is made of. The tracking
 * repository projects only these of each stored item. One constant list per type, since
 * readStoredFields compiles a reader per list; empty for a type compare refuses.
 */
export const COMPARED_ITEM_FIELDS: Readonly<Record<JobType, readonly string[]>> = Object.fromEntries(
  JOB_TYPES.map((type) => {
    const rule = JOBS_KINDS[type].compare;
    const known = JOB_KINDS[type].itemSchema.shape as Record<string, unknown>;
    const read = rule ? ['asin', ...rule.positionFields, ...SNAPSHOT_ITEM_FIELDS] : [];
    return [type, read.filter((field) => field in known)];
  }),
) as Record<JobType, string[]>;
