import { randomUUID } from 'node:crypto';
import type { SecretBox } from '@crawl/core';
import type { AttemptOutcome, ClaimedDelivery, WebhookDeliveryRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import { type AttemptSettings, attemptDelivery, secretCache } from './attempt';
import { type BreakerSettings, EndpointBreakers } from './endpoint-breaker';
import { OutcomeLog } from './outcome-log';

export interface DeliveryLoopSettings extends AttemptSettings {
  /** Attempts in flight in this process. */
  concurrency: number;
  /** Attempts leased to one endpoint across all processes. */
  endpointConcurrency: number;
  /** An endpoint failing for this long is disabled. */
  disableAfterMs: number;
  /** When an endpoint that stops answering is paused. */
  breaker: BreakerSettings;
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

/**
 * An attempt still waiting for its receiver after this long stops counting against the
 * process's concurrency (up to as many again): a dead receiver's attempts wait for their
 * timeout on the side, instead of taking slots from receivers that answer in milliseconds.
 * It still counts against its endpoint's cap.
 */
const SLOW_AFTER_MS = 500;
/** A lease outlasts the request timeout by this much: time to log the outcome before it expires. */
const LEASE_MARGIN_MS = 5_000;
/**
 * Statements stay batched however many processes share the load (each would otherwise claim and
 * log half as much per statement, and Postgres pays per statement): a claim asks for at least
 * CLAIM_BATCH attempts, an outcome log write waits for OUTCOME_BATCH outcomes or OUTCOME_LINGER_MS.
 * Nothing waits on a logged outcome but its lease release: the receiver already has the delivery.
 */
const CLAIM_BATCH = 32;
const OUTCOME_BATCH = 48;
const OUTCOME_LINGER_MS = 50;

interface Queued {
  delivery: ClaimedDelivery;
  /** When the lease ends, by this process's clock (taken before the claim was sent). */
  leaseEnds: number;
}

/**
 * The deliverer: Postgres is its queue. A claim takes due attempts for every slot free and some
 * more (the larger of CLAIM_BATCH and a quarter of the slots) in one round trip, respecting the
 * per-endpoint cap across processes, so the next attempts are at hand when a slot frees; the
 * attempts are sent concurrently and their outcomes logged by group commit (OutcomeLog). So a
 * delivery costs a share of two round trips.
 *
 * Exactly once per attempt while processes live: a claimed attempt is leased (request timeout
 * + 5 s) and its outcome only moves the delivery from the attempt before it, so an attempt
 * logged as delivered is never sent again. An attempt is sent only while its lease leaves the
 * whole timeout to finish. A crashed process's leases expire and those attempts are claimed
 * again (sent at least once, never lost): the periodic wake-up is the reconciler.
 */
export class DeliveryLoop {
  private inFlight = 0;
  /** Attempts moved aside after SLOW_AFTER_MS (at most `concurrency`). */
  private slow = 0;
  /** Claimed, not sent yet. */
  private readonly queue: Queued[] = [];
  /** Per endpoint: attempts queued or in flight here (answered ones no longer count, logged or not). */
  private readonly held = new Map<string, number>();
  /** Names this process's leases in claims: its own count through `held` instead. */
  private readonly owner = randomUUID();
  private claiming = false;
  private claimAgain = false;
  /** The last claim found fewer attempts than it asked for: a finished attempt alone does not claim again. */
  private drained = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryAt = Number.POSITIVE_INFINITY;
  private closed = false;
  private readonly secretOf: (ciphertext: string) => string;
  private readonly outcomes: OutcomeLog;
  private readonly breakers: EndpointBreakers;
  private readonly leaseMs: number;
  /** Claimed ahead of the free slots, so the next attempts are at hand when a slot frees. */
  private readonly prefetch: number;
  /** The least a claim asks for (fewer only when the slots are all but empty). */
  private readonly claimBatch: number;

  constructor(private readonly deps: DeliveryLoopDeps) {
    this.secretOf = secretCache(deps.secrets);
    this.leaseMs = deps.settings.timeoutMs + LEASE_MARGIN_MS;
    this.claimBatch = Math.min(CLAIM_BATCH, deps.settings.concurrency);
    this.prefetch = Math.max(this.claimBatch, Math.ceil(deps.settings.concurrency / 4));
    this.breakers = new EndpointBreakers(deps.settings.breaker);
    this.outcomes = new OutcomeLog({
      deliveries: deps.deliveries,
      log: deps.log,
      policy: { afterMs: deps.settings.disableAfterMs, reason: AUTO_DISABLE_REASON },
      minBatch: OUTCOME_BATCH,
      lingerMs: OUTCOME_LINGER_MS,
      onLogged: (batch) => {
        this.retryAfter(batch);
        // Logged outcomes release their endpoints' leases: more may be claimable now.
        this.wake();
      },
    });
  }

  /** Something may be due (new deliveries, released leases, a timer): claims if there is room. */
  wake(): void {
    if (this.closed) return;
    this.drained = false;
    this.claimSoon();
  }

  /** Stops claiming, gives back the claims not sent, lets the attempts in flight finish (each is bounded by its timeout) and logs them. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    while (this.claiming) await new Promise((r) => setTimeout(r, 20));
    const unsent = this.queue.splice(0).map((q) => q.delivery.id);
    this.held.clear();
    if (unsent.length) {
      await this.deps.deliveries
        .releaseClaims(unsent)
        .catch((err) =>
          this.deps.log.warn({ err, deliveries: unsent.length }, 'giving back unsent claims failed; their leases will expire'),
        );
    }
    while (this.inFlight > 0 || this.slow > 0) await new Promise((r) => setTimeout(r, 20));
    await this.deps.deliveries
      .retireClaimant(this.owner)
      .catch((err) => this.deps.log.warn({ err }, 'retiring the claimant failed; its load expires with its leases'));
    await this.outcomes.close();
  }

  private room(): number {
    return this.deps.settings.concurrency + this.prefetch - this.inFlight - this.queue.length;
  }

  private claimSoon(): void {
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    if (this.room() >= this.claimBatch) void this.claim();
  }

  private async claim(): Promise<void> {
    this.claiming = true;
    try {
      do {
        this.claimAgain = false;
        const room = this.room();
        if (room <= 0 || this.closed) break;
        const leaseEnds = Date.now() + this.leaseMs;
        const claimed = await this.deps.deliveries.claimDue(room, this.leaseMs, this.deps.settings.endpointConcurrency, {
          owner: this.owner,
          held: this.held,
          skip: this.breakers.paused(),
        });
        this.drained = claimed.length < room;
        for (const delivery of claimed) {
          this.queue.push({ delivery, leaseEnds });
          this.hold(delivery.webhook_id, 1);
        }
        this.pump();
        if (!this.drained && this.room() >= this.claimBatch) this.claimAgain = true;
      } while (this.claimAgain && !this.closed);
    } catch (err) {
      this.deps.log.warn({ err }, 'claiming webhook deliveries failed; retrying on the next wake-up');
    } finally {
      this.claiming = false;
    }
  }

  private hold(webhookId: string, n: number): void {
    const left = (this.held.get(webhookId) ?? 0) + n;
    if (left > 0) this.held.set(webhookId, left);
    else this.held.delete(webhookId);
  }

  /** Starts queued attempts while slots are free. */
  private pump(): void {
    while (!this.closed && this.inFlight < this.deps.settings.concurrency && this.queue.length) {
      const { delivery, leaseEnds } = this.queue.shift()!;
      if (!this.start(delivery, leaseEnds)) this.hold(delivery.webhook_id, -1);
    }
  }

  /** Sends a claimed attempt, or settles it otherwise (false). */
  private start(delivery: ClaimedDelivery, leaseEnds: number): boolean {
    if (!delivery.url) {
      // Its configuration was deleted since (after an attempt in flight at the deletion): cancelled.
      this.deps.deliveries
        .markCancelled(delivery.id)
        .catch((err) => this.deps.log.warn({ err, deliveryId: delivery.id }, 'marking a delivery cancelled did not work'));
      return false;
    }
    if (!delivery.enabled || !delivery.secret_encrypted) {
      // Disabled since: failed (replayable once re-enabled), without an attempt.
      this.deps.deliveries
        .markFailed(delivery.id)
        .catch((err) => this.deps.log.warn({ err, deliveryId: delivery.id }, 'marking a delivery failed did not work'));
      return false;
    }
    // Claimed before its endpoint was paused: held back with the endpoint's other deliveries.
    if (this.breakers.isPaused(delivery.webhook_id)) {
      this.holdBack(delivery.webhook_id, [delivery.id]);
      return false;
    }
    // Its lease could run out mid-send and another process send it too: left to expire and be claimed again.
    if (Date.now() + this.deps.settings.timeoutMs + 1_000 > leaseEnds) return false;
    this.send(delivery);
    return true;
  }

  private send(delivery: ClaimedDelivery): void {
    this.inFlight++;
    let movedAside = false;
    const aside = setTimeout(() => {
      if (this.slow >= this.deps.settings.concurrency) return;
      movedAside = true;
      this.inFlight--;
      this.slow++;
      this.pump();
      this.claimSoon();
    }, SLOW_AFTER_MS);
    void attemptDelivery(delivery, this.secretOf, this.deps.settings).then((outcome) => {
      clearTimeout(aside);
      if (movedAside) this.slow--;
      else this.inFlight--;
      this.hold(delivery.webhook_id, -1);
      this.deps.onAttempt?.(outcome.success, outcome.durationMs / 1000);
      this.outcomes.push(outcome);
      const pausedUntil = this.breakers.record(outcome.webhookId, outcome.success, outcome.statusCode !== null);
      if (pausedUntil !== null) this.pause(outcome.webhookId, pausedUntil);
      this.pump();
      if (!this.drained) this.claimSoon();
    });
  }

  /** Pauses an endpoint that stopped answering: its claims not sent yet and its due deliveries wait for the pause to end. */
  private pause(webhookId: string, until: number): void {
    const released: string[] = [];
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.delivery.webhook_id === webhookId) released.push(this.queue.splice(i, 1)[0]!.delivery.id);
    }
    this.hold(webhookId, -released.length);
    this.deps.log.warn({ webhookId, until: new Date(until) }, 'webhook endpoint is not answering: its deliveries are paused');
    this.holdBack(webhookId, released);
  }

  private holdBack(webhookId: string, released: string[]): void {
    const until = new Date(this.breakers.pausedUntil(webhookId));
    this.deps.deliveries
      .deferEndpoint(webhookId, until, released)
      .catch((err) =>
        this.deps.log.warn({ err, webhookId }, "holding back a paused endpoint's deliveries failed; their leases will expire"),
      );
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
