import { CREDITS_PER_TARGET } from '@crawl/core';
import type { CreditRepository, Db, EventRepository, JobRepository, JobRow, ResultRepository, Transaction, Database } from '@crawl/db';
import { toJobResource } from './job-resource';

export interface JobProgressDeps {
  db: Db;
  jobs: JobRepository;
  results: ResultRepository;
  credits: CreditRepository;
  events: EventRepository;
}

export type TargetOutcome =
  | { kind: 'succeeded'; items: Record<string, unknown>[]; attempts: number }
  | { kind: 'failed'; code: string; message: string; attempts: number };

export type RecordResult = 'recorded' | 'finalized' | 'discarded';

/**
 * Records one target's outcome and, when it was the job's last, finishes the job: all in
 * one transaction, so a crash at any point leaves either nothing or everything (target state,
 * result rows, counters, credit settlement, outbox event).
 */
export async function recordTargetOutcome(deps: JobProgressDeps, jobId: string, idx: number, target: string, outcome: TargetOutcome): Promise<RecordResult> {
  return deps.db.transaction().execute(async (trx) => {
    const claimed = await deps.jobs.finishTarget(trx, jobId, idx, {
      status: outcome.kind,
      attempts: outcome.attempts,
      ...(outcome.kind === 'failed' ? { errorCode: outcome.code, errorMessage: outcome.message } : {}),
    });
    if (!claimed) return 'discarded';
    if (outcome.kind === 'succeeded') await deps.results.insertMany(trx, jobId, idx, outcome.items);
    const job = await deps.jobs.addProgress(
      trx,
      jobId,
      outcome.kind === 'succeeded'
        ? { succeeded: 1, failed: 0, results: outcome.items.length }
        : { succeeded: 0, failed: 1, results: 0, error: { target, code: outcome.code, message: outcome.message } },
    );
    if (job.status !== 'running' || job.succeeded + job.failed < job.target_count) return 'recorded';
    await finalizeJob(deps, trx, job);
    return 'finalized';
  });
}

/**
 * running -> completed (at least one target produced a result) or failed (none did).
 * Credits: succeeded targets are consumed, every other target is refunded (DESIGN section 5).
 * The job.completed / job.failed event goes to the outbox in the same transaction.
 */
export async function finalizeJob(deps: JobProgressDeps, trx: Transaction<Database>, job: JobRow): Promise<JobRow> {
  const status = job.succeeded > 0 ? 'completed' : 'failed';
  const consumed = job.succeeded * CREDITS_PER_TARGET[job.type];
  const refunded = job.credits_reserved - consumed;
  await deps.credits.settle(trx, job.organization_id, job.id, consumed, refunded);
  const final = await deps.jobs.markTerminal(trx, job.id, { status, creditsConsumed: consumed, creditsRefunded: refunded });
  await deps.events.insert(trx, {
    projectId: final.project_id,
    type: status === 'completed' ? 'job.completed' : 'job.failed',
    data: { ...toJobResource(final) },
  });
  return final;
}
