import { AppError, type CostEstimateResource, creditCost, isTerminal, type JobSpec, newId, pagesPerTarget, specCost } from '@crawl/core';
import {
  type CreditRepository,
  type Database,
  type Db,
  type JobRepository,
  type JobRow,
  jobSpecOf,
  type JobTargetRepository,
  type NewJob,
  type Transaction,
} from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { QueueProducer } from '@crawl/queue';
import { consumedCredits } from './job-credits';
import { type AcceptedJob, JobIntake } from './job-intake';
import type { ReleaseWindow } from './release-window';

export interface JobServiceDeps {
  db: Db;
  jobs: JobRepository;
  targets: JobTargetRepository;
  credits: CreditRepository;
  producer: QueueProducer;
  log: Logger;
  /**
   * When given, a cancel refills its organization's release window at once (the cancelled
   * job's released targets stop counting); without it the reconciler's top-up does, within
   * RECONCILE_INTERVAL_MS.
   */
  releases?: ReleaseWindow;
}

export interface JobOwner {
  projectId: string;
  organizationId: string;
}

/** Why a job exists: none for an API request, else the job it retries or the schedule that fired it. */
export interface JobOrigin {
  retryOf?: string;
  scheduleId?: string;
  idempotencyKey?: string;
}

/** Which targets a retry takes (see `JobService.retry`). */
export type RetryTargets = 'all' | 'failed';

export type CostEstimate = CostEstimateResource;

/** The row a job spec makes (API, retry, schedule): its id, cost and where it comes from. */
function newJob(spec: JobSpec, owner: JobOwner, origin: JobOrigin): NewJob {
  return {
    id: newId('job'),
    projectId: owner.projectId,
    organizationId: owner.organizationId,
    spec,
    creditsReserved: specCost(spec),
    retryOf: origin.retryOf ?? null,
    scheduleId: origin.scheduleId ?? null,
    idempotencyKey: origin.idempotencyKey ? { projectId: owner.projectId, key: origin.idempotencyKey } : null,
  };
}

/** A short balance is an expected outcome: the API answers 402, the scheduler records a skipped run. */
export type RecordedJob = { ok: true; job: JobRow } | { ok: false; cost: number };

/**
 * Job lifecycle on the producer side: create (reserve credits + record + enqueue), cancel
 * (refund what was not crawled) and retry (a new job, reserved again). Postgres is the source
 * of truth: a job is accepted once its transaction commits, whatever happens to the enqueue.
 */
export class JobService {
  private readonly intake: JobIntake;

  constructor(private readonly deps: JobServiceDeps) {
    this.intake = new JobIntake(deps);
  }

  async create(spec: JobSpec, owner: JobOwner, origin: JobOrigin = {}): Promise<JobRow> {
    return (await this.accept(spec, owner, origin)).job;
  }

  /**
   * `create`, also answering the organization's balance right after this job's reservation
   * (X-Credits-Remaining). Creations of one organization are committed in groups (JobIntake);
   * the start task is enqueued after the commit, best effort (the reconciler re-adds it).
   */
  async accept(spec: JobSpec, owner: JobOwner, origin: JobOrigin = {}): Promise<AcceptedJob> {
    const job = newJob(spec, owner, origin);
    const accepted = await this.intake.submit(job);
    if (!accepted) {
      const balance = (await this.deps.credits.balance(owner.organizationId)) ?? 0;
      throw new AppError('INSUFFICIENT_CREDITS', `This job costs ${job.creditsReserved} credits; the balance is ${balance}.`, {
        details: { balance, cost: job.creditsReserved },
      });
    }
    return accepted;
  }

  /**
   * The job row of a schedule's run: id, cost, credit reservation and targets, atomically,
   * inside the caller's `trx`, so that the job commits or rolls back with the caller's own rows
   * (the scheduler's run record and next fire time). It does not enqueue: the row is invisible
   * until the caller commits, so the caller calls `enqueueStart` after commit, and a crash in
   * between leaves a `queued` job for the reconciler.
   */
  async record(spec: JobSpec, owner: JobOwner, origin: JobOrigin = {}, trx?: Transaction<Database>): Promise<RecordedJob> {
    const job = newJob(spec, owner, origin);
    const row = await this.deps.jobs.insertWithReservation(job, trx);
    return row ? { ok: true, job: row } : { ok: false, cost: job.creditsReserved };
  }

  /** Best effort: a failed enqueue leaves the job `queued` in Postgres for the reconciler. */
  async enqueueStart(jobId: string): Promise<boolean> {
    try {
      await this.deps.producer.enqueue('crawl.startJob', { jobId }, { jobId });
      return true;
    } catch (err) {
      this.deps.log.warn({ err, jobId }, 'enqueue failed; the reconciler will enqueue the job later');
      return false;
    }
  }

  /**
   * The reconciler's start of a job still `queued`: unlike `enqueueStart`, a start task of the
   * same id that already finished (failed for good, or completed) is replaced rather than
   * deduplicated against, so a job can never stay queued behind a dead task.
   */
  async requeueStart(jobId: string): Promise<boolean> {
    try {
      await this.deps.producer.enqueueMissing('crawl.startJob', [{ payload: { jobId }, jobId }]);
      return true;
    } catch (err) {
      this.deps.log.warn({ err, jobId }, 'requeue failed; the next sweep tries again');
      return false;
    }
  }

  /**
   * Restarts a running job whose progress stalled (its tasks may have been lost with Redis
   * data). The task id changes per time bucket so the add is not deduplicated against the
   * job's original start task, yet repeated sweeps within a bucket stay idempotent.
   */
  async enqueueRestart(jobId: string, bucketMs = 60_000): Promise<boolean> {
    try {
      await this.deps.producer.enqueue('crawl.startJob', { jobId }, { jobId: `${jobId}-restart-${Math.floor(Date.now() / bucketMs)}` });
      return true;
    } catch (err) {
      this.deps.log.warn({ err, jobId }, 'restart enqueue failed');
      return false;
    }
  }

  async cancel(jobId: string, projectId: string): Promise<JobRow> {
    const cancelled = await this.deps.db.transaction().execute(async (trx) => {
      const job = await this.deps.jobs.lockInProject(trx, jobId, projectId);
      if (!job) throw new AppError('NOT_FOUND', `Job ${jobId} not found.`);
      if (isTerminal(job.status)) {
        throw new AppError('INVALID_STATE', `Job ${jobId} is ${job.status}; only queued or running jobs can be cancelled.`, {
          details: { status: job.status },
        });
      }
      await this.deps.targets.cancelPendingTargets(trx, job.id);
      // Pages crawled by targets finished before the cancel keep their results and are paid; the rest are refunded.
      const consumed = consumedCredits(job);
      const refunded = job.credits_reserved - consumed;
      await this.deps.credits.settle(trx, job.organization_id, job.id, consumed, refunded);
      return this.deps.jobs.markTerminal(trx, job.id, { status: 'cancelled', creditsConsumed: consumed, creditsRefunded: refunded });
    });
    // After the commit, in a transaction of its own: the cancel holds target rows that a
    // concurrent release may be about to skip, and never waits for the release window lock.
    await this.deps.releases?.releaseAndEnqueue(cancelled.organization_id);
    return cancelled;
  }

  /**
   * A new job with the same type and config; the original stays as it was. `all` (the spec's
   * retry) takes every target of a failed or cancelled job. `failed` takes only the targets
   * that produced no result (failed, or cancelled before being crawled), and so also applies to
   * a completed job with some failed targets, the usual case; it is refused when there are none.
   * Credits are reserved for the new job's targets only.
   */
  async retry(jobId: string, owner: JobOwner, options: { idempotencyKey?: string; targets?: RetryTargets } = {}): Promise<JobRow> {
    const job = await this.deps.jobs.findInProject(jobId, owner.projectId);
    if (!job) throw new AppError('NOT_FOUND', `Job ${jobId} not found.`);
    const targets = await this.retryTargets(job, options.targets ?? 'all');
    return this.create({ ...jobSpecOf(job), targets }, owner, {
      retryOf: job.id,
      scheduleId: job.schedule_id ?? undefined,
      idempotencyKey: options.idempotencyKey,
    });
  }

  private async retryTargets(job: JobRow, which: RetryTargets): Promise<string[]> {
    if (which === 'all') {
      if (job.status !== 'failed' && job.status !== 'cancelled') {
        throw new AppError('INVALID_STATE', `Job ${job.id} is ${job.status}; only failed or cancelled jobs can be retried.`, {
          details: { status: job.status },
        });
      }
      return job.targets;
    }
    if (!isTerminal(job.status)) {
      throw new AppError('INVALID_STATE', `Job ${job.id} is ${job.status}; only finished jobs can have their failed targets retried.`, {
        details: { status: job.status },
      });
    }
    const targets = await this.deps.targets.targetsWithoutResult(job.id);
    if (!targets.length) {
      throw new AppError('INVALID_STATE', `Job ${job.id} has no failed or cancelled targets to retry.`, {
        details: { status: job.status },
      });
    }
    return targets;
  }

  /**
   * What creating this job would cost, and whether it would be accepted now, without creating
   * or reserving anything. The body went through the same validation as a create.
   */
  async estimate(spec: JobSpec, owner: JobOwner): Promise<CostEstimate> {
    const cost = specCost(spec);
    const balance = (await this.deps.credits.balance(owner.organizationId)) ?? 0;
    const accepted = balance >= cost;
    return {
      targets: spec.targets.length,
      // As on the job resource: a page count only for the types that crawl several pages.
      pages: spec.pages,
      creditsPerTarget: creditCost(spec.type, 1, pagesPerTarget(spec)),
      cost,
      balance,
      accepted,
      refusal: accepted ? null : { code: 'INSUFFICIENT_CREDITS', message: `This job costs ${cost} credits; the balance is ${balance}.` },
    };
  }
}
