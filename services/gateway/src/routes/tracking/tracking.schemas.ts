import { isMarketplaceCode, isSafeText, UNSAFE_TEXT_MESSAGE } from '@crawl/core';
import { z } from 'zod';
import { dateLowerBound } from '../date-params';
import { intQueryParam } from '../../validation';

const marketplace = z
  .string()
  .transform((v) => v.toUpperCase())
  .refine(isMarketplaceCode, 'must be a marketplace code such as US, DE');

export const trackedTargetsQuery = z
  .object({
    marketplace: marketplace.optional(),
    changedSince: dateLowerBound.optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict();
export const timelineQuery = z.object({ marketplace, limit: intQueryParam(1, 1000, 50) }).strict();
export const compareQuery = z
  .object({
    from: z.string().min(1).max(100).refine(isSafeText, UNSAFE_TEXT_MESSAGE),
    to: z.string().min(1).max(100).refine(isSafeText, UNSAFE_TEXT_MESSAGE),
  })
  .strict();
