import { z } from 'zod';
import { dateLowerBound, dateUpperBound } from '../date-params';
import { intQueryParam } from '../../validation';

const DAY = 24 * 3600 * 1000;

/**
 * The range of the totals and of the ledger page. Default: the last 30 days ending now, like
 * analytics; a bare date as `to` covers that UTC day. At most 366 days.
 */
export const usageQuery = z
  .object({
    from: dateLowerBound.optional(),
    to: dateUpperBound.optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict()
  .transform(({ from, to, ...page }) => {
    const end = to ?? new Date();
    return { from: from ?? new Date(end.getTime() - 30 * DAY), to: end, ...page };
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['from'], message: '`from` must not be after `to`' });
    else if (q.to.getTime() - q.from.getTime() > 366 * DAY)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['from'], message: 'the range must not exceed 366 days' });
  });
