import { AppError } from '@crawl/core';
import type { PoolStats } from '@crawl/db';
import { Counter, Gauge, type Logger, type Registry } from '@crawl/observability';
import type { LeaseSemaphore } from '@crawl/redis';
import type { Response } from 'express';

/** Limits of streamed exports; the gateway's EXPORT_* variables (config.ts says why these defaults). */
export interface ExportLimits {
  /** Exports one gateway streams at once; each holds one connection of an export pool of this size. */
  poolSize: number;
  /** Exports one project runs at once across every gateway (a Redis lease per export). */
  maxPerProject: number;
  /** Exports one organization (all its projects) runs at once across every gateway (a Redis lease too). */
  maxPerOrganization: number;
  /**
   * The fraction of one gateway's pool that one organization may hold (at least one slot),
   * however many projects it has; fewer while other organizations export (ExportGate says how).
   */
  organizationShare: number;
  /** Longest wait for a client to accept more bytes before the export is abandoned. */
  idleTimeoutMs: number;
  /** Longest an export may run, however fast the client reads. */
  maxDurationMs: number;
  /** On shutdown, how long running exports may finish before they are cut. */
  shutdownGraceMs: number;
}

export const DEFAULT_EXPORT_LIMITS: ExportLimits = {
  poolSize: 4,
  maxPerProject: 2,
  maxPerOrganization: 4,
  organizationShare: 0.5,
  idleTimeoutMs: 30_000,
  maxDurationMs: 300_000,
  shutdownGraceMs: 10_000,
};

/** A lease outlives the longest export by this much, so a live export never loses its slot. */
export const EXPORT_LEASE_SLACK_MS = 5_000;
/** Seconds a client refused for a per-project or per-organization cap is told to wait: exports take seconds to minutes. */
const CAP_RETRY_AFTER_SECONDS = 5;
/** Like the rate limiter: a Redis that does not answer in time does not block exports. */
const REDIS_TIMEOUT_MS = 250;
/**
 * Longest an export admitted on a reclaimed slot waits for the cut export to give its
 * connection back (milliseconds in practice: the cut ends a write or a fetch of 100 rows);
 * past it, it goes on and the export pool queues its query until the connection returns.
 */
const RECLAIM_WAIT_MS = 2_000;

export type AbortReason = 'client_closed' | 'idle_timeout' | 'max_duration' | 'shutdown' | 'reclaimed';

interface Running {
  organizationId: string;
  /** Its slot was given to an organization holding none: it is being cut and no longer counts. */
  reclaimed: boolean;
  abort(reason: AbortReason): void;
  done: Promise<void>;
}

export class ExportAborted extends Error {
  constructor(readonly reason: AbortReason) {
    super(`export aborted: ${reason}`);
  }
}

/** One admitted export: aborting it destroys the response; `release` must run once it stopped. */
export interface Ticket {
  readonly signal: AbortSignal;
  abort(reason: AbortReason): void;
  /** Marks the response complete: a later 'close' is the normal end, not an abort. */
  ended(): void;
  release(): Promise<void>;
}

/** Slots of a gateway's pool that one organization may hold: `share` of it, at least one. */
export function organizationSlots(limits: Pick<ExportLimits, 'poolSize' | 'organizationShare'>): number {
  return Math.max(1, Math.floor(limits.poolSize * limits.organizationShare));
}

/**
 * Admission and lifetime of streamed exports. Every export holds a Postgres connection for as
 * long as the client reads, so each one is bounded: by a per-gateway count equal to the
 * export pool's size (API queries use another pool and never wait behind downloads), by the
 * fair share below, by per-organization and per-project leases in Redis shared by every
 * gateway (crash-safe: a dead gateway's leases expire), and in time (idle writes, total
 * duration, shutdown). Whatever ends an export, the response is destroyed and the cursor's
 * connection returns to the pool.
 *
 * The share (docs/tenancy-and-credits.md), so that no number of organizations can starve
 * another of this gateway's slots:
 * - an organization with an export here may start another while it holds fewer than
 *   `min(organizationSlots, floor(poolSize / n))` (n: the organizations exporting here) and,
 *   while another organization exports here, while two slots are free: the last free slot is
 *   kept for an organization with none; beyond either, 429;
 * - an organization with no export here takes a free slot; when none is free and another
 *   organization holds two or more, the newest export of the one holding most is cut (a
 *   truncated download, abort reason `reclaimed`) and its slot goes to the newcomer, which
 *   waits at most RECLAIM_WAIT_MS for the connection;
 * - 503 only when each slot serves a different organization (or at shutdown).
 * A cut costs a client its newest download. The kept slot spares one to the first newcomer (a
 * cut is needed only once that slot is taken too); without cuts, slow readers of a few
 * organizations would hold every slot for minutes, however the caps shrink.
 *
 * Fail-open on Redis: if the lease cannot be taken within 250 ms the export runs without it;
 * the per-gateway count still bounds what it can cost, and refusing every download while
 * Redis blinks would be an outage of its own.
 */
export class ExportGate {
  private readonly running = new Set<Running>();
  private closing = false;
  private readonly aborts: Counter<'reason'> | undefined;

  constructor(
    private readonly slots: { project: LeaseSemaphore; organization: LeaseSemaphore },
    readonly limits: ExportLimits,
    private readonly log: Logger,
    metrics?: { registry: Registry; poolStats: () => PoolStats },
  ) {
    if (!metrics) return;
    this.aborts = new Counter({
      name: 'export_aborts_total',
      help: 'Exports cut short, by reason',
      labelNames: ['reason'],
      registers: [metrics.registry],
    });
    const running = this.running;
    new Gauge({
      name: 'exports_in_flight',
      help: 'Exports this gateway is streaming',
      registers: [metrics.registry],
      collect() {
        this.set(running.size);
      },
    });
    new Gauge({
      name: 'export_pool_connections',
      help: 'Connections of the export pool by state (busy ones are held by exports)',
      labelNames: ['state'],
      registers: [metrics.registry],
      collect() {
        const stats = metrics.poolStats();
        this.set({ state: 'busy' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
  }

  /** Exports in flight on this gateway. */
  get active(): number {
    return this.running.size;
  }

  /**
   * Takes a slot for an export of `projectId` (of `organizationId`), or throws 503 (every slot
   * serves another organization, shutting down) or 429 (the organization's share of this
   * gateway, or its or the project's cap across gateways).
   */
  async admit(projectId: string, organizationId: string, res: Response): Promise<Ticket> {
    if (this.closing) throw refusal('UNAVAILABLE', 'The gateway is shutting down; retry the export.', 1);
    // Synchronous up to running.add: concurrent admissions see each other's slots.
    const reclaimed = this.claimSlot(organizationId);
    let markDone!: () => void;
    const entry: Running = {
      organizationId,
      reclaimed: false,
      abort: (_reason: AbortReason) => undefined as void,
      done: new Promise<void>((resolve) => (markDone = resolve)),
    };
    this.running.add(entry);
    const leave = () => {
      this.running.delete(entry);
      markDone();
    };
    if (reclaimed) {
      reclaimed.abort('reclaimed');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([reclaimed.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, RECLAIM_WAIT_MS)))]);
      clearTimeout(timer);
    }
    let organizationLease: (() => Promise<void>) | null;
    let projectLease: (() => Promise<void>) | null = null;
    try {
      organizationLease = await this.lease(this.slots.organization, organizationId);
      if (organizationLease) {
        projectLease = await this.lease(this.slots.project, projectId);
        if (!projectLease) await withTimeout(organizationLease(), REDIS_TIMEOUT_MS).catch(() => undefined);
      }
    } catch (err) {
      leave();
      throw err;
    }
    if (!organizationLease || !projectLease) {
      leave();
      const [max, what] = organizationLease
        ? [this.limits.maxPerProject, 'a project']
        : [this.limits.maxPerOrganization, 'an organization'];
      throw refusal(
        'RATE_LIMITED',
        `At most ${max} export${max === 1 ? '' : 's'} of ${what} may run at once; retry when one has finished.`,
        CAP_RETRY_AFTER_SECONDS,
        {
          limit: max,
          retryAfterSeconds: CAP_RETRY_AFTER_SECONDS,
        },
      );
    }
    const [releaseOrganization, releaseProject] = [organizationLease, projectLease];
    const lease = async () => {
      await Promise.all([releaseProject(), releaseOrganization()]);
    };
    if (entry.reclaimed) {
      // Its slot went to an organization holding none while its leases were taken: nothing was sent yet.
      await withTimeout(lease(), REDIS_TIMEOUT_MS).catch(() => undefined);
      leave();
      throw refusal(
        'RATE_LIMITED',
        "This gateway's export slot went to an organization with no export running; retry when one of yours has finished.",
        CAP_RETRY_AFTER_SECONDS,
        { retryAfterSeconds: CAP_RETRY_AFTER_SECONDS },
      );
    }
    return this.ticket(entry, res, lease, leave, projectId);
  }

  /**
   * Decides admission by the share rule of the class comment: throws the refusal, or returns
   * the export whose slot the newcomer takes (marked reclaimed, so it no longer counts), or null.
   */
  private claimSlot(organizationId: string): Running | null {
    const { poolSize } = this.limits;
    const perOrganization = new Map<string, Running[]>();
    for (const e of this.running) {
      if (e.reclaimed) continue;
      const list = perOrganization.get(e.organizationId);
      if (list) list.push(e);
      else perOrganization.set(e.organizationId, [e]);
    }
    const live = [...perOrganization.values()].reduce((sum, list) => sum + list.length, 0);
    const held = perOrganization.get(organizationId)?.length ?? 0;
    if (held > 0) {
      const configured = organizationSlots(this.limits);
      const organizations = perOrganization.size;
      const share = Math.min(configured, Math.max(1, Math.floor(poolSize / organizations)));
      if (held >= share && share < poolSize) {
        throw refusal(
          'RATE_LIMITED',
          share === configured
            ? `At most ${share} of this gateway's ${poolSize} export slots may serve one organization at once; retry when one of its exports has finished.`
            : `At most ${share} of this gateway's ${poolSize} export slots may serve one organization while ${organizations} organizations export; retry when one of its exports has finished.`,
          CAP_RETRY_AFTER_SECONDS,
          { limit: share, retryAfterSeconds: CAP_RETRY_AFTER_SECONDS },
        );
      }
      if (poolSize - live < 2 && organizations > 1) {
        throw refusal(
          'RATE_LIMITED',
          "This gateway's last free export slot is kept for an organization with no export running; retry when one of yours has finished.",
          CAP_RETRY_AFTER_SECONDS,
          { limit: held, retryAfterSeconds: CAP_RETRY_AFTER_SECONDS },
        );
      }
      // one organization alone, with a share of the whole pool
      if (live >= poolSize) throw this.full(`This gateway is already streaming its maximum of ${poolSize} exports; retry shortly.`);
      return null;
    }
    if (live < poolSize) return null;
    // The newest export of the organization holding most (two or more), the least work lost.
    let victim: Running | null = null;
    let most = 1;
    for (const list of perOrganization.values()) {
      const newest = list[list.length - 1]!;
      if (list.length > most || (list.length === most && victim && this.isNewer(newest, victim))) {
        most = list.length;
        victim = newest;
      }
    }
    if (!victim) throw this.full(`Each of this gateway's ${poolSize} export slots serves a different organization; retry shortly.`);
    victim.reclaimed = true;
    return victim;
  }

  /** Whether `a` was admitted after `b` (the set iterates in admission order). */
  private isNewer(a: Running, b: Running): boolean {
    for (const e of this.running) {
      if (e === a) return false;
      if (e === b) return true;
    }
    return false;
  }

  private full(message: string): AppError {
    return refusal('UNAVAILABLE', message, 2);
  }

  private ticket(
    entry: { abort(reason: AbortReason): void },
    res: Response,
    lease: () => Promise<void>,
    leave: () => void,
    projectId: string,
  ): Ticket {
    const controller = new AbortController();
    let complete = false;
    const abort = (reason: AbortReason) => {
      if (complete || controller.signal.aborted) return;
      controller.abort(new ExportAborted(reason));
      this.aborts?.inc({ reason });
      if (reason !== 'client_closed') this.log.info({ projectId, reason }, 'export cut short');
      // A truncated download, never a silently short file that parses.
      if (!res.destroyed) res.destroy();
    };
    entry.abort = abort;
    const onClose = () => abort('client_closed');
    res.on('close', onClose);
    res.on('error', onClose);
    const deadline = setTimeout(() => abort('max_duration'), this.limits.maxDurationMs);
    deadline.unref();
    // The client may have gone while we loaded the job: 'close' has already fired then.
    if (res.destroyed || res.socket?.destroyed) abort('client_closed');
    // Shutdown began while this export waited for its lease: it must not start now.
    else if (this.closing) abort('shutdown');
    let released: Promise<void> | null = null;
    return {
      signal: controller.signal,
      abort,
      ended: () => void (complete = true),
      release: () =>
        (released ??= (async () => {
          complete = true;
          clearTimeout(deadline);
          res.off('close', onClose);
          res.off('error', onClose);
          await withTimeout(lease(), REDIS_TIMEOUT_MS).catch(() => undefined); // else the lease expires
          leave();
        })()),
    };
  }

  /** A release function, null when `resource` is at its cap; a no-op release when Redis is slow. */
  private async lease(slots: LeaseSemaphore, resource: string): Promise<(() => Promise<void>) | null> {
    const pending = slots.tryAcquire(resource);
    try {
      return await withTimeout(pending, REDIS_TIMEOUT_MS);
    } catch (err) {
      this.log.warn({ err, resource }, 'export lease unavailable, admitting without it');
      // A lease granted after we gave up on it would hold a slot for nothing.
      pending
        .then(
          (late) => late?.(),
          () => undefined,
        )
        .catch(() => undefined);
      return async () => undefined;
    }
  }

  /**
   * Refuses new exports, lets running ones finish for `shutdownGraceMs`, then cuts the rest;
   * resolves once every one has released its connection, well within the shutdown deadline.
   */
  async shutdown(): Promise<void> {
    this.closing = true;
    const all = [...this.running];
    if (!all.length) return;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.limits.shutdownGraceMs)));
    await Promise.race([Promise.all(all.map((e) => e.done)), grace]);
    clearTimeout(timer);
    for (const entry of this.running) entry.abort('shutdown');
    await Promise.all(all.map((e) => e.done));
  }
}

/** The error handler sends `retryAfterSeconds` as Retry-After (an UNAVAILABLE body shows no details). */
function refusal(code: 'UNAVAILABLE' | 'RATE_LIMITED', message: string, retryAfterSeconds: number, details?: object): AppError {
  return new AppError(code, message, { details: details ?? { retryAfterSeconds } });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
