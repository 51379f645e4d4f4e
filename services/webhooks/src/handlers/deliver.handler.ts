import { type SecretBox, WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs } from '@crawl/core';
import type { ClaimedDelivery, WebhookDeliveryRepository } from '@crawl/db';
import type { HandlerContext, LeaseSemaphore, ParsedPayloadOf, QueueProducer } from '@crawl/queue';
import { deliverWebhook } from '@crawl/webhook-delivery';

export interface DeliverDeps {
  deliveries: WebhookDeliveryRepository;
  producer: QueueProducer;
  endpointSlots: LeaseSemaphore;
  secrets: SecretBox;
  settings: { timeoutMs: number; backoffBaseMs: number; allowPrivate: boolean };
  onAttempt?: (success: boolean, seconds: number) => void;
}

type Payload = ParsedPayloadOf<'webhook.deliver'>;

/** Task id of attempt n of a delivery: the same attempt is never queued twice. */
export const attemptTaskId = (deliveryId: string, attempt: number) => `${deliveryId}-a${attempt}`;

/** Decrypted secrets by ciphertext: a secret only changes with its ciphertext. */
function secretCache(box: SecretBox) {
  const cache = new Map<string, string>();
  return (ciphertext: string) => {
    let plain = cache.get(ciphertext);
    if (plain === undefined) {
      plain = box.decrypt(ciphertext);
      if (cache.size >= 1_000) cache.delete(cache.keys().next().value!);
      cache.set(ciphertext, plain);
    }
    return plain;
  };
}

/**
 * One attempt of one delivery. A receiver that already has its share of deliveries in flight
 * makes the attempt wait (without holding a slot of this process); then the attempt is
 * claimed in Postgres, so only one process sends it and a delivery logged as delivered is
 * never sent again. Each attempt is logged; a failed attempt before the fifth schedules the
 * next one as a delayed task.
 */
export function deliverHandler(deps: DeliverDeps) {
  const secretOf = secretCache(deps.secrets);

  /** Waits doubling each time (up to the timeout): a burst waits ms, a dead receiver's backlog polls every few s. */
  const defer = async (p: Payload, webhookId: string) => {
    const deferrals = (p.deferrals ?? 0) + 1;
    const waitMs = Math.min(deps.settings.timeoutMs, 25 * 2 ** deferrals) * (0.75 + Math.random() / 2);
    await deps.producer.enqueue(
      'webhook.deliver',
      { deliveryId: p.deliveryId, attempt: p.attempt, deferrals, webhookId },
      { jobId: `${attemptTaskId(p.deliveryId, p.attempt)}-d${deferrals}`, delayMs: Math.round(waitMs) },
    );
    return 'deferred';
  };

  return async (payload: Payload, ctx: HandlerContext): Promise<string> => {
    const { deliveryId, attempt } = payload;
    let release = payload.webhookId ? await deps.endpointSlots.tryAcquire(payload.webhookId) : null;
    if (payload.webhookId && !release) return defer(payload, payload.webhookId);
    let delivery: ClaimedDelivery | undefined;
    let result;
    try {
      // The lease outlives the request timeout, so a live attempt is never claimed twice.
      delivery = await deps.deliveries.claimAttempt(deliveryId, attempt, deps.settings.timeoutMs + 5_000);
      if (!delivery) return 'not due';
      if (!delivery.url || !delivery.enabled || !delivery.secret_encrypted) {
        await deps.deliveries.markFailed(deliveryId);
        return 'webhook removed or disabled';
      }
      if (!release) {
        release = await deps.endpointSlots.tryAcquire(delivery.webhook_id);
        if (!release) {
          await deps.deliveries.releaseClaim(deliveryId);
          return defer(payload, delivery.webhook_id);
        }
      }
      result = await deliverWebhook({
        url: delivery.url,
        secret: secretOf(delivery.secret_encrypted),
        body: delivery.body,
        event: delivery.event_type,
        deliveryId,
        webhookId: delivery.webhook_id,
        timeoutMs: deps.settings.timeoutMs,
        allowPrivate: deps.settings.allowPrivate,
      });
    } finally {
      await release?.().catch(() => undefined);
    }
    deps.onAttempt?.(result.success, result.durationMs / 1000);
    const final = !result.success && attempt >= WEBHOOK_MAX_ATTEMPTS;
    const delayMs = result.success || final ? null : webhookRetryDelayMs(attempt, deps.settings.backoffBaseMs);
    await deps.deliveries.recordAttempt(delivery, {
      number: attempt,
      success: result.success,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      final,
      nextAttemptAt: delayMs === null ? null : new Date(Date.now() + delayMs),
    });
    if (delayMs !== null) {
      // If this enqueue is lost (Redis down), the reconciler finds the overdue delivery.
      await deps.producer
        .enqueue('webhook.deliver', { deliveryId, attempt: attempt + 1, webhookId: delivery.webhook_id }, { jobId: attemptTaskId(deliveryId, attempt + 1), delayMs })
        .catch((err) => ctx.log.warn({ err, deliveryId }, 'next attempt not enqueued; the reconciler will'));
    }
    return result.success ? 'delivered' : final ? 'failed' : `retry in ${delayMs} ms`;
  };
}

/**
 * The final-failure path of `webhook.deliver`: an attempt threw (our error, not the
 * receiver's answer) on every queue-level try. The attempt is logged with a generic error and
 * the delivery marked failed, so it is not left pending for the reconciler to re-enqueue forever.
 */
export async function failDeliveryInternally(deliveries: WebhookDeliveryRepository, deliveryId: string, attempt: number): Promise<string> {
  const delivery = await deliveries.findById(deliveryId);
  if (!delivery || delivery.status !== 'pending') return 'nothing pending';
  await deliveries.recordAttempt(delivery, {
    number: attempt,
    success: false,
    statusCode: null,
    durationMs: 0,
    error: 'internal error: the delivery could not be attempted',
    final: true,
    nextAttemptAt: null,
  });
  return 'failed';
}
