import { ID_PATTERN, isSafeText, JOB_STATUSES, UNSAFE_TEXT_MESSAGE } from '@crawl/core';
import { z } from 'zod';
import { intQueryParam } from '../../validation';

/** ISO date (`2026-11-01`) or timestamp; a bare date as a lower bound means its midnight UTC. */
export const isoDateOrTimestamp = z
  .string()
  .refine((v) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
    message: 'must be an ISO 8601 date or timestamp',
  });

/** A bare date as an upper bound covers that whole day. */
function endOfDay(v: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(Date.parse(v) + 24 * 3600 * 1000 - 1) : new Date(v);
}

export const jobIdParams = z.object({ jobId: z.string().regex(ID_PATTERN) }).passthrough();

export const listJobsQuery = z
  .object({
    status: z.enum(JOB_STATUSES).optional(),
    q: z.string().trim().min(1).max(200).refine(isSafeText, UNSAFE_TEXT_MESSAGE).optional(),
    from: isoDateOrTimestamp.transform((v) => new Date(v)).optional(),
    to: isoDateOrTimestamp.transform(endOfDay).optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] });

export const resultsQuery = z
  .object({
    limit: intQueryParam(1, 1000, 100),
    offset: intQueryParam(0, 10_000_000, 0),
  })
  .strict();

export const exportQuery = z.object({ format: z.enum(['json', 'csv', 'llm']).default('json') }).strict();

/** Retry and cancel take no body; an empty object is tolerated for clients that always send one. */
export const emptyBody = z.union([z.undefined(), z.object({}).strict()]);
