import type { JobRepository, JobTargetRepository } from '@crawl/db';
import { fetchTask, type ReleaseWindow } from '@crawl/jobs';
import type { HandlerContext, ParsedPayloadOf, QueueProducer } from '@crawl/queue';

export { targetTaskId } from '@crawl/jobs';

export interface StartJobDeps {
  jobs: JobRepository;
  targets: JobTargetRepository;
  producer: QueueProducer;
  releases: ReleaseWindow;
}

/**
 * queued -> running, then the organization's free release window is filled (round-robin over
 * its running jobs, so usually with this job's first targets) and those tasks are enqueued
 * (fairness between organizations: packages/jobs/src/release-window.ts). Start tasks carry no
 * priority and BullMQ serves those first, so a new job starts at once.
 *
 * Safe to run again. A restart of a running job (its tasks lost with Redis data, or released
 * by an outcome while Redis refused the enqueue) re-adds the job's released pending targets
 * that are not live in the queue, and only those: unreleased targets wait for their turn.
 */
export function startJobHandler(deps: StartJobDeps) {
  return async ({ jobId }: ParsedPayloadOf<'crawl.startJob'>, ctx: HandlerContext): Promise<string> => {
    const before = await deps.jobs.findById(jobId);
    const job = await deps.jobs.markRunning(jobId);
    if (!job) return 'not startable';
    // Released and enqueued in one transaction: if Redis refuses, nothing is released and this
    // task fails, to be retried (then on the restart path below).
    const released = await deps.releases.release(job.organization_id);
    if (before?.status === 'queued') {
      ctx.log.debug({ jobId, released: released.length }, 'job started');
      return `started, released ${released.length}`;
    }
    const pending = await deps.targets.releasedPendingTargetIndexes(jobId);
    const added = await deps.producer.enqueueMissing(
      'crawl.fetchTarget',
      pending.map((idx) => fetchTask(jobId, idx, deps.releases.size)),
    );
    ctx.log.info({ jobId, added, released: released.length }, 'job restarted');
    return `restarted ${added}`;
  };
}
