import { webhookDeliveryBody } from '@crawl/core';
import type { WebhookDeliveryRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';

/**
 * Deliveries per dispatch transaction aimed at. A batch costs four round trips whatever its
 * size, but the deliverer waits for its commit: with 10 configurations per event, 500 events
 * would keep the first deliveries back for a 5,000-row insert. So the events per batch follow
 * the configurations per event of the batch before, within MIN_EVENTS..MAX_EVENTS.
 */
const DISPATCH_ROWS = 1_000;
const MIN_EVENTS = 50;
const MAX_EVENTS = 1_000;
const FIRST_EVENTS = 100;

export interface DispatcherDeps {
  deliveries: WebhookDeliveryRepository;
  log: Logger;
  /** New deliveries are due at once: the deliverer is woken rather than waiting for its poll. */
  onDeliveries: () => void;
}

/**
 * Moves events from the outbox to deliveries, which are due at once. Runs when Postgres
 * notifies a new event and on a timer (the notification is a hint, the outbox is the truth).
 * Runs never overlap within a process; across processes SKIP LOCKED splits work.
 */
export class Dispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private eventsPerBatch = FIRST_EVENTS;

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
          const limit = this.eventsPerBatch;
          const batch = await this.deps.deliveries.dispatchEvents(limit, (id, event) =>
            webhookDeliveryBody({ id, event: event.type, createdAt: event.created_at, projectId: event.project_id, data: event.data }),
          );
          if (batch.deliveries.length) this.deps.onDeliveries();
          if (batch.events) {
            const perEvent = batch.deliveries.length / batch.events;
            this.eventsPerBatch = Math.min(MAX_EVENTS, Math.max(MIN_EVENTS, Math.round(DISPATCH_ROWS / Math.max(perEvent, 1e-3))));
          }
          if (batch.events < limit) break;
        }
      } catch (err) {
        this.deps.log.warn({ err }, 'dispatch failed; retrying on the next wake-up');
      }
    } while (this.again);
  }
}
