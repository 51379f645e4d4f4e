import { createAlertRuleBody, ID_PATTERN, normalizeAsin, previewAlertRuleBody, updateAlertRuleBody } from '@crawl/core';
import { z } from 'zod';
import { dateLowerBound, dateUpperBound } from '../date-params';
import { intQueryParam } from '../../validation';

export const CreateAlertRuleBody = createAlertRuleBody;
export const UpdateAlertRuleBody = updateAlertRuleBody;
export const PreviewAlertRuleBody = previewAlertRuleBody;

/** A project holds at most 100 rules: one page of the default size lists them all. */
export const alertRulesQuery = z
  .object({
    limit: intQueryParam(1, 100, 100),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict();

const fromBeforeTo = (q: { from?: Date; to?: Date }) => !q.from || !q.to || q.from <= q.to;

export const alertsQuery = z
  .object({
    ruleId: z.string().regex(ID_PATTERN, 'must be an alert rule id').optional(),
    asin: z
      .string()
      .max(20)
      .transform(
        (v, ctx) => normalizeAsin(v) ?? (ctx.addIssue({ code: 'custom', message: 'must be an ASIN (10 letters and digits)' }), z.NEVER),
      )
      .optional(),
    from: dateLowerBound.optional(),
    to: dateUpperBound.optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict()
  .refine(fromBeforeTo, { message: '`from` must not be after `to`', path: ['from'] });

/** Delete takes no body; an empty object is tolerated for clients that always send one. */
export const emptyBody = z.union([z.undefined(), z.object({}).strict()]);
