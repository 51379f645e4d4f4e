import { checkPostalCode, isMarketplaceCode, isSafeText, type MarketplaceCode, UNSAFE_TEXT_MESSAGE } from '@crawl/core';
import { z } from 'zod';
import { dateLowerBound } from '../date-params';
import { intQueryParam } from '../../validation';

const marketplace = z
  .string()
  .transform((v) => v.toUpperCase())
  .refine(isMarketplaceCode, 'must be a marketplace code such as US, DE');

/** A delivery location to pick a product's series by: a postal code of the query's marketplace, as a job takes it. */
const postalCode = z.string().max(20);

/**
 * `postalCode` written the way jobs store it (normalised for `marketplace`), or a 400 naming
 * it. A series is picked by marketplace and postal code together: a code means nothing alone.
 */
function withPostalCode<Q extends { marketplace?: MarketplaceCode; postalCode?: string }>(query: Q, ctx: z.RefinementCtx) {
  if (query.postalCode === undefined) return query;
  if (!query.marketplace) {
    ctx.addIssue({ code: 'custom', path: ['postalCode'], message: 'needs marketplace: a postal code is one of a marketplace' });
    return z.NEVER;
  }
  const check = checkPostalCode(query.marketplace, query.postalCode);
  if (!check.ok) {
    ctx.addIssue({ code: 'custom', path: ['postalCode'], message: check.message });
    return z.NEVER;
  }
  return { ...query, postalCode: check.postalCode };
}

/** The fields the tracked products sort by (docs/schedules-and-tracking.md, "Tracked products"); any other is a 400. */
export const TRACKED_SORT_FIELDS = ['lastSeenAt', 'lastChangedAt', 'firstSeenAt', 'changeCount', 'asin', 'title', 'price'] as const;
export type TrackedSortField = (typeof TRACKED_SORT_FIELDS)[number];
const trackedSort = z
  .string()
  .max(40)
  .transform((v, ctx) => {
    const [field, direction = 'asc', ...rest] = v.split(':');
    if (!(TRACKED_SORT_FIELDS as readonly string[]).includes(field!) || (direction !== 'asc' && direction !== 'desc') || rest.length) {
      ctx.addIssue({ code: 'custom', message: `must be field:asc or field:desc, field one of ${TRACKED_SORT_FIELDS.join(', ')}` });
      return z.NEVER;
    }
    return { field: field as TrackedSortField, direction: direction as 'asc' | 'desc' };
  })
  .describe(`field:asc or field:desc; field one of ${TRACKED_SORT_FIELDS.join(', ')} (default lastSeenAt:desc)`);

export const trackedTargetsQuery = z
  .object({
    q: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .refine(isSafeText, UNSAFE_TEXT_MESSAGE)
      .optional()
      .describe('Products whose ASIN starts with, or whose title contains, this text (case-insensitive)'),
    sort: trackedSort.optional(),
    marketplace: marketplace.optional(),
    postalCode: postalCode.optional(),
    changedSince: dateLowerBound.optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict()
  .transform(withPostalCode);
/** Absent `postalCode`: the series of jobs that asked for none. */
export const timelineQuery = z
  .object({ marketplace, postalCode: postalCode.optional(), limit: intQueryParam(1, 1000, 50) })
  .strict()
  .transform(withPostalCode);
export const compareQuery = z
  .object({
    from: z.string().min(1).max(100).refine(isSafeText, UNSAFE_TEXT_MESSAGE),
    to: z.string().min(1).max(100).refine(isSafeText, UNSAFE_TEXT_MESSAGE),
  })
  .strict();
