import { isRefusedByData, type JobRepository, type JobRow, type NewJob } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { QueueProducer } from '@crawl/queue';

/** A job accepted: its row, and the organization's balance right after its reservation. */
export interface AcceptedJob {
  job: JobRow;
  creditsRemaining: number;
}

export interface JobIntakeDeps {
  jobs: JobRepository;
  producer: QueueProducer;
  log: Logger;
}

interface Submission {
  job: NewJob;
  resolve(accepted: AcceptedJob | undefined): void;
  reject(err: unknown): void;
}

interface Lane {
  waiting: Submission[];
  running: number;
  scheduled: boolean;
}

/**
 * Statements of one organization sent at once: the second waits for the organization row in
 * Postgres, and starts the moment the first commits, without a round trip through the gateway.
 */
const STATEMENTS_IN_FLIGHT = 2;

/** A statement reserves for at most this many jobs, or this many targets (one job may have more). */
const MAX_JOBS_PER_STATEMENT = 100;
const MAX_TARGETS_PER_STATEMENT = 5_000;

/**
 * Job creations, committed in groups per organization. Every creation of an organization
 * locks its row (the credit balance) until its commit, so its creations run one after the other
 * whatever we do, each paying a commit (a WAL flush) while the others wait, and each holding a
 * pool connection meanwhile. Here they are queued per organization instead, with at most
 * STATEMENTS_IN_FLIGHT statements running: the jobs that arrived while those ran are recorded
 * by the next one, together (JobRepository.insertManyWithReservation), and their start tasks go
 * to the queue in one round trip. A lone creation runs at the end of its event-loop turn, as
 * before. Requests in flight together have no order between them; one answered before another
 * was sent is committed before it.
 *
 * Nothing is weakened:
 * - credits: one conditional UPDATE reserves a group's total, so the balance never goes
 *   negative; when it does not cover the whole group, its jobs are reserved one by one in
 *   arrival order, each accepted or refused exactly as alone;
 * - a group that Postgres refuses for a value or constraint (one bad job) is also retried one
 *   by one, so each job gets its own outcome; an error whose outcome is unknown (connection
 *   lost, timeout) is every job's error, never retried;
 * - an accepted job is committed before it is answered; its start task is added after the
 *   commit, and when Redis refuses, the job stays `queued` for the reconciler, as before;
 * - idempotency keys get their job id in the same statement as the job.
 */
export class JobIntake {
  /** Creations waiting, and statements running, per organization with either. */
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly deps: JobIntakeDeps) {}

  /** Records, reserves and enqueues `job`; undefined when the balance does not cover it. */
  submit(job: NewJob): Promise<AcceptedJob | undefined> {
    return new Promise((resolve, reject) => {
      const organizationId = job.organizationId;
      let lane = this.lanes.get(organizationId);
      if (!lane) this.lanes.set(organizationId, (lane = { waiting: [], running: 0, scheduled: false }));
      lane.waiting.push({ job, resolve, reject });
      if (lane.running < STATEMENTS_IN_FLIGHT && !lane.scheduled) {
        lane.scheduled = true;
        setImmediate(() => {
          lane.scheduled = false;
          this.pump(organizationId, lane);
        });
      }
    });
  }

  private pump(organizationId: string, lane: Lane): void {
    while (lane.running < STATEMENTS_IN_FLIGHT && lane.waiting.length) {
      const group = lane.waiting.splice(0, groupSize(lane.waiting));
      lane.running++;
      // commit settles each submission; the catch only guards the lane against a bug leaving it stuck.
      void this.commit(organizationId, group)
        .catch((err: unknown) => group.forEach((s) => s.reject(err)))
        .finally(() => {
          lane.running--;
          this.pump(organizationId, lane);
        });
    }
    if (!lane.running && !lane.waiting.length && !lane.scheduled) this.lanes.delete(organizationId);
  }

  /** Settles every submission of `group`; never throws. */
  private async commit(organizationId: string, group: Submission[]): Promise<void> {
    let rows: Awaited<ReturnType<JobRepository['insertManyWithReservation']>>;
    try {
      rows = await this.deps.jobs.insertManyWithReservation(
        organizationId,
        group.map((s) => s.job),
      );
    } catch (err) {
      if (group.length > 1 && isRefusedByData(err)) return this.oneByOne(organizationId, group);
      for (const s of group) s.reject(err);
      return;
    }
    if (!rows.length && group.length > 1) return this.oneByOne(organizationId, group);
    // Committed: the next group may start while this one's start tasks are added.
    void this.enqueueStarts(rows).then(() => {
      const accepted = new Map(rows.map(({ balance_after, ...job }) => [job.id, { job: job as JobRow, creditsRemaining: balance_after }]));
      for (const s of group) s.resolve(accepted.get(s.job.id));
    });
  }

  private async oneByOne(organizationId: string, group: Submission[]): Promise<void> {
    for (const submission of group) await this.commit(organizationId, [submission]);
  }

  /** Best effort: a failed enqueue leaves the jobs `queued` in Postgres for the reconciler. */
  private async enqueueStarts(rows: JobRow[]): Promise<void> {
    if (!rows.length) return;
    try {
      await this.deps.producer.enqueueBulk(
        'crawl.startJob',
        rows.map((row) => ({ payload: { jobId: row.id }, jobId: row.id })),
        { awaitedByRequest: true },
      );
    } catch (err) {
      this.deps.log.warn({ err, jobIds: rows.map((row) => row.id) }, 'enqueue failed; the reconciler will enqueue the jobs later');
    }
  }
}

/** How many of the waiting creations the next statement takes: at least one, within the limits. */
function groupSize(waiting: Submission[]): number {
  let targets = 0;
  let n = 0;
  while (n < waiting.length && n < MAX_JOBS_PER_STATEMENT) {
    targets += waiting[n]!.job.spec.targets.length;
    if (n > 0 && targets > MAX_TARGETS_PER_STATEMENT) break;
    n++;
  }
  return n;
}
