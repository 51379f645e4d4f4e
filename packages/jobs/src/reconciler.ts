import type { JobRepository } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { JobService } from './job.service';
import type { ReleaseWindow } from './release-window';

/**
 * Re-enqueues jobs that Postgres holds as `queued` for longer than `graceMs`: their enqueue
 * failed (Redis down), Redis lost its data, or their start task failed for good. A live start
 * task is left alone and the start handler ignores jobs that already started, so running this
 * often is harmless.
 * With `releases`, also tops up the release window of organizations with free slots and
 * unreleased targets (a cancel frees slots without a target outcome to refill them).
 * Returns how many start or restart tasks were enqueued.
 */
export async function reconcileQueuedJobs(
  deps: { jobs: JobRepository; jobService: JobService; log: Logger; releases?: ReleaseWindow },
  options: { graceMs: number; batch: number; stalledAfterMs?: number } = { graceMs: 10_000, batch: 500 },
): Promise<number> {
  const queued = await deps.jobs.findQueuedBefore(new Date(Date.now() - options.graceMs), options.batch);
  let enqueued = 0;
  for (const job of queued) {
    if (await deps.jobService.requeueStart(job.id)) enqueued += 1;
    else return enqueued; // Redis still down: try again on the next sweep
  }
  // Running jobs without progress for a while may have lost their fan-out with Redis data.
  const stalled = await deps.jobs.findStalledRunning(options.stalledAfterMs ?? 60_000, options.batch);
  for (const job of stalled) {
    if (await deps.jobService.enqueueRestart(job.id)) enqueued += 1;
    else break;
  }
  if (enqueued) deps.log.info({ enqueued }, 'reconciler enqueued queued jobs');
  const released = deps.releases ? await deps.releases.topUp(options.batch) : 0;
  if (released) deps.log.info({ released }, 'reconciler topped up release windows');
  return enqueued;
}
