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

export const trackedTargetsQuery = z
  .object({
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
