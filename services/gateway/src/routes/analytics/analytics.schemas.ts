import { z } from 'zod';
import { dateLowerBound, dateUpperBound } from '../date-params';

const DAY = 24 * 3600 * 1000;

/** Default: the last 30 days ending now. A bare date as `to` means the end of that UTC day. */
export const analyticsQuery = z
  .object({ from: dateLowerBound.optional(), to: dateUpperBound.optional() })
  .strict()
  .transform((q) => {
    const to = q.to ?? new Date();
    const from = q.from ?? new Date(to.getTime() - 30 * DAY);
    return { from, to };
  })
  .superRefine((r, ctx) => {
    if (r.from > r.to) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['from'], message: '`from` must not be after `to`' });
    else if (r.to.getTime() - r.from.getTime() > 366 * DAY)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['from'], message: 'the range must not exceed 366 days' });
  });
