import type { AttemptOutcome, AutoDisablePolicy, DisabledEndpoint, WebhookDeliveryRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';

/** Outcomes logged per statement at most. */
const FLUSH_BATCH = 500;
const FLUSH_RETRY_MS = 1_000;

export interface OutcomeLogDeps {
  deliveries: WebhookDeliveryRepository;
  log: Logger;
  policy: AutoDisablePolicy;
  /**
   * A write waits for this many outcomes, or for `lingerMs` after the first one: under load the
   * writes stay batched however many processes deliver, and alone an outcome waits a moment.
   */
  minBatch: number;
  lingerMs: number;
  /** After each logged batch: its leases are released, so more may be claimable. */
  onLogged: (batch: AttemptOutcome[]) => void;
}

/**
 * Group commit of attempt outcomes: one durable statement logs every outcome waiting (once there
 * are `minBatch` of them or the first has waited `lingerMs`), and the outcomes that finish
 * meanwhile go into the next one. So a delivery costs a share of one write. An outcome is kept
 * (and retried) until logged: its lease holds its delivery until then, and if the process dies
 * first the lease expires and the attempt is made again (at least once).
 */
export class OutcomeLog {
  private readonly waiting: AttemptOutcome[] = [];
  private flushing: Promise<void> | null = null;
  private linger: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: OutcomeLogDeps) {}

  push(outcome: AttemptOutcome): void {
    this.waiting.push(outcome);
    if (this.waiting.length >= this.deps.minBatch) void this.flush();
    else this.linger ??= setTimeout(() => void this.flush(), this.deps.lingerMs);
  }

  /** Logs what is waiting and stops retrying failed writes (their leases will expire). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /** Logs every outcome waiting; concurrent callers share the flush in progress. */
  private flush(): Promise<void> {
    if (this.linger) clearTimeout(this.linger);
    this.linger = null;
    this.flushing ??= this.flushAll().finally(() => {
      this.flushing = null;
      // What arrived during the write: at once if it makes a batch, else after the linger.
      if (this.waiting.length >= this.deps.minBatch || (this.waiting.length && this.closed)) void this.flush();
      else if (this.waiting.length) this.linger ??= setTimeout(() => void this.flush(), this.deps.lingerMs);
    });
    return this.flushing;
  }

  private async flushAll(): Promise<void> {
    while (this.waiting.length) {
      const batch = this.waiting.splice(0, FLUSH_BATCH);
      try {
        const disabled = await this.deps.deliveries.recordAttempts(batch, this.deps.policy);
        for (const endpoint of disabled) this.logDisabled(endpoint);
        this.deps.onLogged(batch);
      } catch (err) {
        this.deps.log.warn({ err, outcomes: batch.length }, 'logging webhook attempts failed; retrying');
        if (this.closed) return; // the leases expire and those attempts are made again
        this.waiting.unshift(...batch);
        await new Promise((r) => setTimeout(r, FLUSH_RETRY_MS));
      }
    }
  }

  private logDisabled(endpoint: DisabledEndpoint): void {
    this.deps.log.warn(
      { webhookId: endpoint.id, projectId: endpoint.project_id, failingSince: endpoint.failing_since },
      'webhook.disabled: the endpoint failed every delivery attempt for too long and was disabled',
    );
  }
}
