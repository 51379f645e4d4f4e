import { SecretBox, WEBHOOK_MAX_ATTEMPTS, webhookRetryDelayMs } from '@crawl/core';
import type { WebhookConfigRepository, WebhookDeliveryRepository } from '@crawl/db';
import type { HandlerContext, LeaseSemaphore, ParsedPayloadOf, QueueProducer } from '@crawl/queue';
import { deliverWebhook } from '@crawl/webhook-delivery';

export interface DeliverDeps {
  configs: WebhookConfigRepository;
  deliveries: WebhookDeliveryRepository;
  producer: QueueProducer;
  endpointSlots: LeaseSemaphore;
  secrets: SecretBox;
  settings: { timeoutMs: number; backoffBaseMs: number; allowPrivate: boolean };
  onAttempt?: (success: boolean, seconds: number) => void;
}

/** Task id of attempt n of a delivery: the same attempt is never queued twice. */
export const attemptTaskId = (deliveryId: string, attempt: number) => `${deliveryId}-a${attempt}`;

/**
 * One attempt of one delivery. The attempt is claimed in Postgres first, so only one process
 * sends it and a delivery logged as delivered is never sent again. Each attempt is logged;
 * a failed attempt before the fifth schedules the next one as a delayed task.
 */
export function deliverHandler(deps: DeliverDeps) {
  return async ({ deliveryId, attempt, deferrals = 0 }: ParsedPayloadOf<'webhook.deliver'>, ctx: HandlerContext): Promise<string> => {
    // The lease outlives the request timeout, so a live attempt is never claimed twice.
    const delivery = await deps.deliveries.claimAttempt(deliveryId, attempt, deps.settings.timeoutMs + 5_000);
    if (!delivery) return 'not due';
    const config = await deps.configs.findById(delivery.webhook_id);
    if (!config || !config.enabled) {
      await deps.deliveries.markFailed(deliveryId);
      return 'webhook removed or disabled';
    }
    const release = await deps.endpointSlots.tryAcquire(config.id);
    if (!release) {
      // The receiver already has its share of in-flight deliveries: wait without holding one
      // of this process's slots. The wait doubles each time (up to the timeout), so a brief
      // burst waits milliseconds while a dead receiver's backlog polls only every few seconds.
      await deps.deliveries.releaseClaim(deliveryId);
      const waitMs = Math.min(deps.settings.timeoutMs, 50 * 2 ** deferrals) * (0.75 + Math.random() / 2);
      await deps.producer.enqueue(
        'webhook.deliver',
        { deliveryId, attempt, deferrals: deferrals + 1 },
        { jobId: `${attemptTaskId(deliveryId, attempt)}-d${deferrals + 1}`, delayMs: Math.round(waitMs) },
      );
      return 'deferred';
    }
    let result;
    try {
      result = await deliverWebhook({
        url: config.url,
        secret: deps.secrets.decrypt(config.secret_encrypted),
        body: delivery.body,
        event: delivery.event_type,
        deliveryId,
        webhookId: config.id,
        timeoutMs: deps.settings.timeoutMs,
        allowPrivate: deps.settings.allowPrivate,
      });
    } finally {
      await release().catch(() => undefined);
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
        .enqueue('webhook.deliver', { deliveryId, attempt: attempt + 1 }, { jobId: attemptTaskId(deliveryId, attempt + 1), delayMs })
        .catch((err) => ctx.log.warn({ err, deliveryId }, 'next attempt not enqueued; the reconciler will'));
    }
    return result.success ? 'delivered' : final ? 'failed' : `retry in ${delayMs} ms`;
  };
}
