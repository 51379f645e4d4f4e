import { z } from './openapi-zod';
import { EVENT_TYPES } from './webhook-events';

/**
 * Webhook operations (docs/events-and-webhooks.md): the delivery log with its attempts, resend and bulk
 * replay. The retry schedule and the limits live here so the deliverer, the gateway and the docs
 * read one definition.
 */

const isoTimestamp = z.string().datetime();

/** Mirrors `webhook_delivery.status`'s check constraint. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Attempts shown with each delivery of the list: the most recent ones (5 automatic + resends). */
export const DELIVERY_ATTEMPTS_SHOWN = 10;
/** Deliveries one replay call re-arms at most; `hasMore` says to call again. */
export const MAX_REPLAY_PER_CALL = 1_000;
/**
 * Manual attempts (resends and replays) one delivery may get, on top of its automatic ones: a
 * client looping on replay or resend cannot make one event into an unbounded stream of POSTs.
 */
export const WEBHOOK_MAX_MANUAL_ATTEMPTS = 5;
/** A replay skips a delivery re-armed (by a resend or a replay) less than this long ago. */
export const WEBHOOK_REARM_COOLDOWN_MS = 60_000;
/** Default of the gateway's WEBHOOK_REPLAY_BUDGET_PER_HOUR: deliveries replays may re-arm per project per hour. */
export const DEFAULT_WEBHOOK_REPLAY_BUDGET_PER_HOUR = 2_000;

export const webhookAttemptSchema = z
  .object({
    attempt: z
      .number()
      .int()
      .positive()
      .describe(`1-5: the automatic schedule; higher: resends and replays (${WEBHOOK_MAX_MANUAL_ATTEMPTS} at most per delivery)`),
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
    status: z
      .enum(DELIVERY_STATUSES)
      .describe(
        'pending: an attempt is due or in flight; delivered: a 2xx was received; failed: no attempt is left; cancelled: its webhook configuration was deleted before the delivery was made (never sent again)',
      ),
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
    hasMore: z
      .boolean()
      .describe(
        `More failed deliveries can be replayed now: send the same request again to continue. Deliveries that had their ${WEBHOOK_MAX_MANUAL_ATTEMPTS} manual attempts, or were re-armed in the last ${WEBHOOK_REARM_COOLDOWN_MS / 1000} s, are not counted`,
      ),
  })
  .strict()
  .openapi('WebhookReplayResult');
export type WebhookReplayResultResource = z.infer<typeof webhookReplayResultSchema>;
