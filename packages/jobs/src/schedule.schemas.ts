import { isSafeText, UNSAFE_TEXT_MESSAGE } from '@crawl/core';
import { z } from 'zod';
import { jobBodySchema } from './job-body.schema';
import { checkCron } from './schedule-cron';

export const cronSchema = z
  .string()
  .max(200)
  .refine(isSafeText, UNSAFE_TEXT_MESSAGE)
  .superRefine((value, ctx) => {
    const check = checkCron(value);
    if (!check.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: check.message });
  })
  .transform((v) => v.trim().split(/\s+/).join(' '));

/** A schedule's `crawlConfig` is validated exactly like a job body. */
export const createScheduleBody = z
  .object({
    cron: cronSchema,
    crawlConfig: jobBodySchema,
    enabled: z.boolean().default(true),
  })
  .strict();

export const patchScheduleBody = z
  .object({
    enabled: z.boolean().optional(),
    cron: cronSchema.optional(),
    crawlConfig: jobBodySchema.optional(),
  })
  .strict()
  .refine((b) => b.enabled !== undefined || b.cron !== undefined || b.crawlConfig !== undefined, {
    message: 'send at least one of enabled, cron, crawlConfig',
  });
