import type { Database, Db, ReleasedTarget, ReleaseWindowRepository, Transaction } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { QueueProducer } from '@crawl/queue';

/**
 * Crawl fairness between organizations: a per-organization release window.
 *
 * Postgres holds every target (`job_target`, status `pending` until crawled). A target is
 * *released* (`released_at` set) when its `crawl.fetchTarget` task is put in the queue, and
 * each organization has at most W = `CRAWL_ORG_WINDOW` released-and-pending targets at any
 * time: queued, in flight or waiting for a retry. Releases happen when a job starts, in the
 * transaction that records each target outcome (the finished target freed one slot), and in
 * the reconciler's top-up (a cancel frees slots without an outcome). They are serialised per
 * organization by an advisory lock, so concurrent completions never over-release.
 *
 * - Between organizations: a released task's BullMQ priority (lower runs first) is the
 *   organization's window occupancy before it + 1 + its recent service, capped at W. A
 *   backlogged organization releases one task per finished one at priority W. A newcomer's
 *   first tasks (priorities 1..W) run ahead of every backlog, but only up to W of them, and
 *   then it releases at W too. Tasks of equal priority run FIFO, so each backlogged
 *   organization keeps W tasks circulating in one FIFO line and gets an equal share of the
 *   workers, however many jobs it runs.
 * - Recent service: the organization's finished targets, decaying by e every
 *   SERVICE_MEMORY_SECONDS. Without it, a client that submits a job of fewer than W targets,
 *   waits for it and submits the next would be a newcomer at every job and, on a fleet smaller
 *   than W, take nearly all workers from backlogged organizations. An organization that has
 *   had little crawled lately (new, idle, or light: a few targets a minute) is still served
 *   ahead, which is the max-min fair outcome: it asks for less than its share.
 * - Within an organization: round-robin over its running jobs (lowest target index first,
 *   the older job first on ties), so fairness there is per job and a new small job is
 *   released at the next free slot instead of behind a big job's backlog. It still waits for
 *   the up to W - 1 tasks its organization already has in the queue.
 * - Redis holds at most W fetch tasks per organization with work, and one organization
 *   occupies at most W workers, whatever its backlog.
 *
 * Rejected: static "virtual time" priorities per organization (start-time fair queueing).
 * They need a global virtual clock that grows without bound past BullMQ's priority cap
 * (2,097,152) under continuous load, and cannot interleave a new job with the organization's
 * backlog already in the queue without re-prioritising it.
 *
 * Crash safety: a release enqueues its tasks inside its transaction, before the commit. (The
 * opposite order leaves a target released with no task whenever a worker dies between the
 * two, and its job waits a minute or more for the reconciler's restart of stalled jobs;
 * e2e/src/worker-crash.test.ts, which runs no reconciler, failed with it.) A crash before
 * the commit leaves at worst a task for a target not marked released: harmless, since the
 * fetch handler crawls any pending target of a running job once, and a finished target is
 * never released. When Redis refuses the enqueue, a job start, cancel or top-up rolls its
 * release back (and is retried); an outcome keeps its recorded result and commits the release
 * without tasks, which the reconciler's restart of stalled running jobs re-adds (the start
 * handler's restart path re-adds exactly the released pending targets not live in the queue).
 */
export interface ReleaseWindowDeps {
  db: Db;
  windows: ReleaseWindowRepository;
  producer: QueueProducer;
  log: Logger;
  /** W: released-and-pending targets per organization (CRAWL_ORG_WINDOW). */
  window: number;
}

/** Time constant of an organization's recent service (a burst is mostly forgotten after 3-4 minutes). */
export const SERVICE_MEMORY_SECONDS = 60;

/** Task id of one target's crawl: deterministic, so a target is never queued twice. */
export const targetTaskId = (jobId: string, idx: number) => `${jobId}-${idx}`;

/** BullMQ's highest priority value (lowest precedence). */
const MAX_PRIORITY = 2_097_152;

export function fetchTask(jobId: string, idx: number, priority: number) {
  return { payload: { jobId, idx }, jobId: targetTaskId(jobId, idx), priority: Math.max(1, Math.min(priority, MAX_PRIORITY)) };
}

export class ReleaseWindow {
  constructor(private readonly deps: ReleaseWindowDeps) {}

  /** W: released-and-pending targets per organization. */
  get size(): number {
    return this.deps.window;
  }

  /**
   * Fills the organization's free window inside `trx` and enqueues the released tasks before
   * the commit. Call it last in the transaction: its advisory lock is then held only until the
   * commit. `served`: 1 when a target of the organization was just crawled (its recent
   * service). `keepOnEnqueueError`: when Redis refuses, log and let the transaction commit
   * (a recorded outcome is worth keeping) instead of throwing.
   */
  async releaseIn(
    trx: Transaction<Database>,
    organizationId: string,
    options: { served?: 0 | 1; keepOnEnqueueError?: boolean } = {},
  ): Promise<ReleasedTarget[]> {
    await this.deps.windows.lock(trx, organizationId);
    const released = await this.deps.windows.releaseTargets(trx, organizationId, {
      window: this.deps.window,
      served: options.served ?? 0,
      decaySeconds: SERVICE_MEMORY_SECONDS,
    });
    try {
      await this.enqueue(released);
    } catch (err) {
      if (!options.keepOnEnqueueError) throw err;
      this.deps.log.warn(
        { err, organizationId, targets: released.length },
        'enqueue of released targets failed; the stalled-job restart re-adds them',
      );
    }
    return released;
  }

  /** Fills the organization's free window in a transaction of its own; throws (releasing nothing) when Redis refuses. */
  async release(organizationId: string): Promise<ReleasedTarget[]> {
    return this.deps.db.transaction().execute((trx) => this.releaseIn(trx, organizationId));
  }

  /** Enqueues released targets (idempotent: task ids are the targets'). */
  async enqueue(released: ReleasedTarget[]): Promise<void> {
    if (!released.length) return;
    await this.deps.producer.enqueueBulk(
      'crawl.fetchTarget',
      released.map((t) => fetchTask(t.jobId, t.idx, t.priority)),
    );
  }

  /** `release`, never throwing: returns how many targets were released (0 on failure, the top-up retries). */
  async releaseAndEnqueue(organizationId: string): Promise<number> {
    try {
      return (await this.release(organizationId)).length;
    } catch (err) {
      this.deps.log.warn({ err, organizationId }, 'release failed; the reconciler tops the window up later');
      return 0;
    }
  }

  /**
   * The reconciler's top-up: organizations with free slots and unreleased targets (a cancelled
   * job's released targets stopped counting; a release was missed) get their window filled.
   */
  async topUp(batch: number): Promise<number> {
    const organizations = await this.deps.windows.organizationsToTopUp(this.deps.window, batch);
    let released = 0;
    for (const organizationId of organizations) released += await this.releaseAndEnqueue(organizationId);
    return released;
  }
}
