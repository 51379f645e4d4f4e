import { DELIVERY_STATUSES, EVENT_TYPES, ID_PATTERN, isSafeText, MAX_REPLAY_PER_CALL, UNSAFE_TEXT_MESSAGE } from '@crawl/core';
import { z } from 'zod';
import { dateLowerBound, dateUpperBound } from '../date-params';
import { intQueryParam } from '../../validation';

/** At most 20 configurations per project. */
export const MAX_WEBHOOKS = 20;

const httpUrl = z
  .string()
  .max(2048)
  .url('must be a valid URL')
  .refine(isSafeText, UNSAFE_TEXT_MESSAGE)
  // zod runs refinements after a failed .url() check too, so the parse must not throw
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http(s) URL');

export const webhookConfigSchema = z
  .object({
    id: z.string().regex(ID_PATTERN, 'must be the id of an existing configuration').optional(),
    name: z.string().max(200).refine(isSafeText, UNSAFE_TEXT_MESSAGE).nullable().optional(),
    url: httpUrl,
    triggerAction: z.enum(EVENT_TYPES, { errorMap: () => ({ message: `must be one of ${EVENT_TYPES.join(', ')}` }) }),
    enabled: z.boolean().default(true),
    secret: z.string().max(256).refine(isSafeText, UNSAFE_TEXT_MESSAGE).optional(),
  })
  .strict()
  .openapi('WebhookConfigInput', {
    description:
      'Without `id` the configuration is created; with an `id` it is kept. Without `secret` (or with "") a NEW secret is generated, also for a kept id: send the current secret back to keep it.',
  });

export const patchWebhooksBody = z
  .object({ configs: z.array(webhookConfigSchema).max(MAX_WEBHOOKS, `at most ${MAX_WEBHOOKS} configurations per project`) })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.configs.forEach((c, i) => {
      if (!c.id) return;
      if (seen.has(c.id)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['configs', i, 'id'], message: 'appears twice' });
      seen.add(c.id);
    });
  });

export const testWebhookBody = z
  .object({
    webhookId: z.string().min(1).max(100).refine(isSafeText, UNSAFE_TEXT_MESSAGE),
    triggerAction: z.enum(EVENT_TYPES).optional(),
  })
  .strict();

export const webhooksQuery = z
  .object({
    limit: intQueryParam(1, 500, 50),
  })
  .strict();

const fromBeforeTo = (q: { from?: Date; to?: Date }) => !q.from || !q.to || q.from <= q.to;

export const deliveriesQuery = z
  .object({
    status: z.enum(DELIVERY_STATUSES).optional(),
    event: z.enum(EVENT_TYPES).optional(),
    webhookId: z.string().regex(ID_PATTERN, 'must be a webhook id').optional(),
    from: dateLowerBound.optional(),
    to: dateUpperBound.optional(),
    limit: intQueryParam(1, 100, 20),
    offset: intQueryParam(0, 1_000_000, 0),
  })
  .strict()
  .refine(fromBeforeTo, { message: '`from` must not be after `to`', path: ['from'] });

export const deliveryIdParams = z.object({ deliveryId: z.string().regex(ID_PATTERN) }).passthrough();

export const replayBody = z
  .object({
    from: dateLowerBound.describe('Failed deliveries created at or after this time'),
    to: dateUpperBound.optional().describe('... and up to this time, inclusive (default: no bound)'),
    webhookId: z.string().regex(ID_PATTERN, 'must be a webhook id').optional(),
    event: z.enum(EVENT_TYPES).optional(),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_REPLAY_PER_CALL)
      .default(MAX_REPLAY_PER_CALL)
      .describe(`At most ${MAX_REPLAY_PER_CALL} per call`),
  })
  .strict()
  .refine(fromBeforeTo, { message: '`from` must not be after `to`', path: ['from'] });

/** Resend takes no body; an empty object is tolerated for clients that always send one. */
export const resendBody = z.union([z.undefined(), z.object({}).strict()]);

/** The bodies with component names in the document, so the generated SDK has a type for each. */
export const ReplaceWebhooksBody = patchWebhooksBody.openapi('ReplaceWebhooksBody');
export const TestWebhookBody = testWebhookBody.openapi('TestWebhookBody');
export const ReplayWebhooksBody = replayBody.openapi('ReplayWebhooksBody');
