import { webhookDeliveryBody } from '@crawl/core';
import type { WebhookDeliveryRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { QueueProducer } from '@crawl/queue';
import { attemptTaskId } from './handlers/deliver.handler';

export interface DispatcherDeps {
  deliveries: WebhookDeliveryRepository;
  producer: QueueProducer;
  log: Logger;
}

/**
 * Moves events from the outbox to deliveries and queues their first attempts. Runs when
 * Postgres notifies a new event and on a timer (the notification is a hint, the outbox is
 * the truth). Runs never overlap within a process; across processes SKIP LOCKED splits work.
 */
export class Dispatcher {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: DispatcherDeps) {}

  /** Requests a run; a request during a run triggers one more run after it. */
  wake(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        for (;;) {
          const batch = await this.deps.deliveries.dispatchEvents(200, (id, event) =>
            webhookDeliveryBody({ id, event: event.type, createdAt: event.created_at, projectId: event.project_id, data: event.data }),
          );
          await this.deps.producer
            .enqueueBulk(
              'webhook.deliver',
              batch.deliveries.map((d) => ({ payload: { deliveryId: d.id, attempt: 1, webhookId: d.webhookId }, jobId: attemptTaskId(d.id, 1) })),
            )
            .catch((err) => this.deps.log.warn({ err, deliveries: batch.deliveries.length }, 'first attempts not enqueued; the reconciler will'));
          if (batch.events < 200) break;
        }
      } catch (err) {
        this.deps.log.warn({ err }, 'dispatch failed; retrying on the next wake-up');
      }
    } while (this.again);
  }
}

/** Re-enqueues pending deliveries whose next attempt is overdue (their task was lost). */
export async function reconcileDeliveries(deps: DispatcherDeps, graceMs: number): Promise<number> {
  const overdue = await deps.deliveries.findOverdue(graceMs, 500);
  const bucket = Math.floor(Date.now() / Math.max(graceMs, 1_000));
  for (const d of overdue) {
    await deps.producer.enqueue('webhook.deliver', { deliveryId: d.id, attempt: d.attempts + 1 }, { jobId: `${attemptTaskId(d.id, d.attempts + 1)}-r${bucket}` });
  }
  return overdue.length;
}
