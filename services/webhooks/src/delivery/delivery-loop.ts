import type { SecretBox } from '@crawl/core';
import type { AttemptOutcome, ClaimedDelivery, WebhookDeliveryRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import { type AttemptSettings, attemptDelivery, secretCache } from './attempt';

export interface DeliveryLoopSettings extends AttemptSettings {
  /** Attempts in flight in this process. */
  concurrency: number;
  /** Attempts in flight to one endpoint across all processes. */
  endpointConcurrency: number;
  /** An endpoint failing for this long is disabled. */
  disableAfterMs: number;
}

export interface DeliveryLoopDeps {
  deliveries: WebhookDeliveryRepository;
  secrets: SecretBox;
  log: Logger;
  settings: DeliveryLoopSettings;
  onAttempt?: (success: boolean, seconds: number) => void;
}

/**
 * What an automatically disabled endpoint shows as its reason, followed by when it started
 * failing: the owner reads it on the configuration, next to `disabledAt`.
 */
export const AUTO_DISABLE_REASON = 'every delivery attempt failed since';

/** Outcomes logged per statement at most. */
const FLUSH_BATCH = 500;
const FLUSH_RETRY_MS = 1_000;
/**
 * An attempt still waiting for its receiver after this long stops counting against the
 * process's concurrency (up to as many again): a dead receiver's attempts wait for their
 * timeout on the side, instead of taking slots from receivers that answer in milliseconds.
 * It still counts against its endpoint's cap.
 */
const SLOW_AFTER_MS = 500;

/**
 * The deliverer: Postgres is its queue. A claim takes every due attempt there is room for in one
 * statement (respecting the per-endpoint cap across processes), the attempts are sent
 * concurrently, and their outcomes are logged in one statement per flush (group commit: the
 * outcomes that finish during a flush go into the next one). So a delivery costs a share of
 * two round trips instead of four durable ones per attempt.
 *
 * Exactly once per attempt while processes live: a claimed attempt is leased (request timeout
 * + 5 s) and its outcome only moves the delivery from the attempt before it, so an attempt
 * logged as delivered is never sent again. A crashed process's leases expire and those attempts
 * are claimed again (sent at least once, never lost): the periodic wake-up is the reconciler.
 */
export class DeliveryLoop {
  private inFlight = 0;
  /** Attempts moved aside after SLOW_AFTER_MS (at most `concurrency`). */
  private slow = 0;
  private claiming = false;
  private claimAgain = false;
  private flushing: Promise<void> | null = null;
  private readonly outcomes: AttemptOutcome[] = [];
  private retryTimer: NodeJS.Timeout | null = null;
  private retryAt = Number.POSITIVE_INFINITY;
  private closed = false;
  private readonly secretOf: (ciphertext: string) => string;
  /** Under a backlog, claim again only once this many slots are free: claims stay batched. */
  private readonly claimBatchMin: number;

  constructor(private readonly deps: DeliveryLoopDeps) {
    this.secretOf = secretCache(deps.secrets);
    this.claimBatchMin = Math.max(1, Math.floor(deps.settings.concurrency / 4));
  }

  /** Asks for a claim; a request during a claim triggers one more claim after it. */
  wake(): void {
    if (this.closed) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    void this.claim();
  }

  /** Stops claiming, lets the attempts in flight finish (each is bounded by its timeout) and logs them. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    while (this.inFlight > 0 || this.slow > 0 || this.claiming) await new Promise((r) => setTimeout(r, 20));
    await this.flush();
  }

  private async claim(): Promise<void> {
    this.claiming = true;
    try {
      do {
        this.claimAgain = false;
        const room = this.deps.settings.concurrency - this.inFlight;
        if (room <= 0 || this.closed) break;
        const claimed = await this.deps.deliveries.claimDue(
          room,
          this.deps.settings.timeoutMs + 5_000,
          this.deps.settings.endpointConcurrency,
        );
        for (const delivery of claimed) this.start(delivery);
        if (claimed.length === room) this.claimAgain = true;
      } while (this.claimAgain && !this.closed);
    } catch (err) {
      this.deps.log.warn({ err }, 'claiming webhook deliveries failed; retrying on the next wake-up');
    } finally {
      this.claiming = false;
    }
  }

  private start(delivery: ClaimedDelivery): void {
    if (!delivery.url) {
      // Its configuration was deleted since (after an attempt in flight at the deletion): cancelled.
      this.deps.deliveries
        .markCancelled(delivery.id)
        .catch((err) => this.deps.log.warn({ err, deliveryId: delivery.id }, 'marking a delivery cancelled did not work'));
      return;
    }
    if (!delivery.enabled || !delivery.secret_encrypted) {
      // Disabled since: failed (replayable once re-enabled), without an attempt.
      this.deps.deliveries
        .markFailed(delivery.id)
        .catch((err) => this.deps.log.warn({ err, deliveryId: delivery.id }, 'marking a delivery failed did not work'));
      return;
    }
    this.inFlight++;
    let movedAside = false;
    const aside = setTimeout(() => {
      if (this.slow >= this.deps.settings.concurrency) return;
      movedAside = true;
      this.inFlight--;
      this.slow++;
      this.wake();
    }, SLOW_AFTER_MS);
    void attemptDelivery(delivery, this.secretOf, this.deps.settings).then((outcome) => {
      clearTimeout(aside);
      if (movedAside) this.slow--;
      else this.inFlight--;
      this.deps.onAttempt?.(outcome.success, outcome.durationMs / 1000);
      this.outcomes.push(outcome);
      void this.flush();
      if (this.deps.settings.concurrency - this.inFlight >= this.claimBatchMin) this.wake();
    });
  }

  /** Logs every outcome waiting; concurrent callers share the flush in progress. */
  private flush(): Promise<void> {
    this.flushing ??= this.flushAll().finally(() => {
      this.flushing = null;
      if (this.outcomes.length) void this.flush();
    });
    return this.flushing;
  }

  private async flushAll(): Promise<void> {
    while (this.outcomes.length) {
      const batch = this.outcomes.splice(0, FLUSH_BATCH);
      try {
        const disabled = await this.deps.deliveries.recordAttempts(batch, {
          afterMs: this.deps.settings.disableAfterMs,
          reason: AUTO_DISABLE_REASON,
        });
        for (const endpoint of disabled) {
          this.deps.log.warn(
            { webhookId: endpoint.id, projectId: endpoint.project_id, failingSince: endpoint.failing_since },
            'webhook.disabled: the endpoint failed every delivery attempt for too long and was disabled',
          );
        }
        this.retryAfter(batch);
        // Logged outcomes release their endpoints' slots: more may be claimable now.
        this.wake();
      } catch (err) {
        this.deps.log.warn({ err, outcomes: batch.length }, 'logging webhook attempts failed; retrying');
        if (this.closed) return; // the leases expire and those attempts are made again
        this.outcomes.unshift(...batch);
        await new Promise((r) => setTimeout(r, FLUSH_RETRY_MS));
      }
    }
  }

  /** Wakes up when the earliest retry of this batch is due (the periodic wake-up covers the rest). */
  private retryAfter(batch: AttemptOutcome[]): void {
    const earliest = Math.min(...batch.map((o) => o.nextAttemptAt?.getTime() ?? Number.POSITIVE_INFINITY));
    if (!Number.isFinite(earliest) || earliest >= this.retryAt || this.closed) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryAt = earliest;
    this.retryTimer = setTimeout(
      () => {
        this.retryAt = Number.POSITIVE_INFINITY;
        this.retryTimer = null;
        this.wake();
      },
      Math.max(0, earliest - Date.now()) + 5,
    );
  }
}
