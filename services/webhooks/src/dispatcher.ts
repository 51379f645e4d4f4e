import { webhookDeliveryBody } from '@crawl/core';
import type { WebhookDeliveryRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';

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
          if (batch.deliveries.length) this.deps.onDeliveries();
          if (batch.events < 200) break;
        }
      } catch (err) {
        this.deps.log.warn({ err }, 'dispatch failed; retrying on the next wake-up');
      }
    } while (this.again);
  }
}
