import { ID_PATTERN, isSafeText, JOB_STATUSES, JOB_TYPES, UNSAFE_TEXT_MESSAGE } from '@crawl/core';
import { jobBodySchema } from '@crawl/jobs';
import { z } from 'zod';
import { dateLowerBound, dateUpperBound } from '../date-params';
import { EXPORT_FORMAT_NAMES } from '@crawl/exports';
import { intQueryParam } from '../../validation';

export const jobIdParams = z.object({ jobId: z.string().regex(ID_PATTERN) }).passthrough();

/** The fields a job list sorts by (`?sort=field:asc|desc`), and their columns. */
const JOB_SORT_COLUMNS = { createdAt: 'created_at', status: 'status', type: 'type' } as const;
const JOB_SORT = new RegExp(`^(${Object.keys(JOB_SORT_COLUMNS).join('|')}):(asc|desc)$`);

const jobSort = z
  .string()
  .regex(JOB_SORT, `sort must be field:asc or field:desc, the field one of ${Object.keys(JOB_SORT_COLUMNS).join(', ')}`)
  .transform((v) => {
    const [field, direction] = v.split(':') as [keyof typeof JOB_SORT_COLUMNS, 'asc' | 'desc'];
    return { column: JOB_SORT_COLUMNS[field], direction };
  });

export const listJobsQuery = z
  .object({
    status: z.enum(JOB_STATUSES).optional(),
    type: z.enum(JOB_TYPES).optional(),
    q: z.string().trim().min(1).max(200).refine(isSafeText, UNSAFE_TEXT_MESSAGE).optional(),
    from: dateLowerBound.optional(),
    to: dateUpperBound.optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
    sort: jobSort.optional(),
  })
  .strict()
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`', path: ['from'] });

export const resultsQuery = z
  .object({
    limit: intQueryParam(1, 1000, 100),
    offset: intQueryParam(0, 10_000_000, 0),
  })
  .strict();

export const exportQuery = z.object({ format: z.enum(EXPORT_FORMAT_NAMES).default('json') }).strict();

/** Cancel takes no body; an empty object is tolerated for clients that always send one. */
export const emptyBody = z.union([z.undefined(), z.object({}).strict()]);

/**
 * Retry's optional body: `targets` is `all` (the default, the spec's retry of
 * every target) or `failed` (only the targets that produced no result). No body, or `{}`, is
 * the spec's retry.
 */
export const retryBodyObject = z
  .object({
    targets: z.enum(['all', 'failed']).default('all').openapi({
      description:
        '`all`: every target of a failed or cancelled job. `failed`: only the targets of a finished job that failed or were cancelled',
    }),
  })
  .strict();
export const retryBody = z.union([z.undefined(), retryBodyObject]).transform((body) => body?.targets ?? 'all');

/** The bodies with component names in the document, so the generated SDK has a type for each. */
export const CreateJobBody = jobBodySchema.openapi('CreateJobBody');
export const RetryJobBody = retryBodyObject.openapi('RetryJobBody');
