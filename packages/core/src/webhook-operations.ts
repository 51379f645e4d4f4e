import { z } from './openapi-zod';
import { EVENT_TYPES } from './webhook-events';

/**
 * Webhook operations (docs/events-and-webhooks.md): the delivery log with its attempts, resend and bulk
 * replay. The retry schedule and the limits live here so the deliverer, the gateway and the docs
 * read one definition.
 */

const isoTimestamp = z.string().datetime();

/** Mirrors `webhook_delivery.status`'s check constraint. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Attempts shown with each delivery of the list: the most recent ones (5 automatic + resends). */
export const DELIVERY_ATTEMPTS_SHOWN = 10;
/** Deliveries one replay call re-arms at most; `hasMore` says to call again. */
export const MAX_REPLAY_PER_CALL = 1_000;

export const webhookAttemptSchema = z
  .object({
    attempt: z.number().int().positive().describe('1-5: the automatic schedule; higher: resends and replays'),
    manual: z.boolean().describe('true for an attempt asked for by a resend or a replay'),
    success: z.boolean(),
    statusCode: z.number().int().nullable().describe('null when no HTTP response was received'),
    durationMs: z.number().int().nonnegative(),
    error: z.string().nullable(),
    responseBody: z.string().nullable().describe("The first 1 KiB of the receiver's answer (null without one); signing secrets redacted"),
    createdAt: isoTimestamp,
  })
  .strict()
  .openapi('WebhookAttempt');
export type WebhookAttemptResource = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliveryResourceSchema = z
  .object({
    id: z.string().describe('The delivery id, sent as X-Service-Delivery and the body `id`; the same for every attempt, resend and replay'),
    webhookId: z.string(),
    event: z.enum(EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES).describe('pending: an attempt is due or in flight; delivered: a 2xx was received; failed: no attempt is left'),
    attemptCount: z.number().int().nonnegative(),
    nextAttemptAt: isoTimestamp.nullable().describe('When the next attempt is due (null unless pending)'),
    createdAt: isoTimestamp,
    finishedAt: isoTimestamp.nullable(),
    attempts: z.array(webhookAttemptSchema).describe(`The last ${DELIVERY_ATTEMPTS_SHOWN} attempts, oldest first`),
  })
  .strict()
  .openapi('WebhookDelivery');
export type WebhookDeliveryResource = z.infer<typeof webhookDeliveryResourceSchema>;

export const webhookReplayResultSchema = z
  .object({
    replayed: z.number().int().nonnegative().describe('Failed deliveries re-armed for one more attempt by this call'),
    deliveryIds: z.array(z.string()),
    hasMore: z.boolean().describe('More failed deliveries match: send the same request again to continue'),
  })
  .strict()
  .openapi('WebhookReplayResult');
export type WebhookReplayResultResource = z.infer<typeof webhookReplayResultSchema>;
