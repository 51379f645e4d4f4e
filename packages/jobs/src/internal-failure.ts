import { type JobProgressDeps, finalizeJob, recordTargetOutcome } from './job-progress';

/** What a tenant reads for a target our own code could not process: never the exception. */
export const INTERNAL_ERROR_MESSAGE = 'an internal error stopped this target; it was not charged';

/**
 * The final-failure path of `crawl.fetchTarget`: the handler threw (an exception, not a crawl
 * outcome) on its last attempt. The target is recorded as failed with `INTERNAL_ERROR` exactly
 * like any other failed target (refunded, counted, the job finished if it was the last), so it
 * can never stay pending with its credits reserved.
 */
export async function failTargetInternally(deps: JobProgressDeps, jobId: string, idx: number, attempts: number): Promise<string> {
  const target = await deps.targets.findTargetContext(jobId, idx);
  if (!target || target.targetStatus !== 'pending') return 'nothing pending';
  return recordTargetOutcome(deps, jobId, idx, target.target, {
    kind: 'failed',
    code: 'INTERNAL_ERROR',
    message: INTERNAL_ERROR_MESSAGE,
    attempts,
  });
}

/**
 * The final-failure path of `crawl.startJob` (every attempt over ~17 minutes threw): the job
 * ends `failed`, each pending target with `INTERNAL_ERROR`, all of it refunded, and the
 * `job.failed` event is written, so the tenant learns of it and can retry the job.
 */
export async function failJobInternally(deps: JobProgressDeps, jobId: string): Promise<string> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await deps.jobs.lock(trx, jobId))) return 'gone';
    const job = await deps.jobs.findById(jobId, trx);
    if (!job || (job.status !== 'queued' && job.status !== 'running')) return 'already finished';
    const targets = await deps.targets.failPendingTargets(trx, jobId, 'INTERNAL_ERROR', INTERNAL_ERROR_MESSAGE);
    const counted = await deps.jobs.addProgress(trx, jobId, {
      succeeded: 0,
      failed: targets.length,
      results: 0,
      errors: targets.map((target) => ({ target, code: 'INTERNAL_ERROR', message: INTERNAL_ERROR_MESSAGE })),
    });
    await finalizeJob(deps, trx, counted);
    return 'failed';
  });
}
