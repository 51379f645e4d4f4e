import type { JobRepository } from '@crawl/db';
import type { HandlerContext, ParsedPayloadOf, QueueProducer } from '@crawl/queue';

export interface StartJobDeps {
  jobs: JobRepository;
  producer: QueueProducer;
}

/** Task id of one target's crawl: deterministic, so a target is never queued twice. */
export const targetTaskId = (jobId: string, idx: number) => `${jobId}-${idx}`;

/**
 * Fairness: the k-th target of every job gets priority k (lower runs first). Jobs therefore
 * advance round-robin: a 1-target job created while a 1,000-target job runs has its target
 * at priority 1, ahead of everything the big job has left. Start tasks carry no priority and
 * BullMQ serves those first, so a new job starts at once.
 */
const MAX_PRIORITY = 2_097_152;
export const targetPriority = (idx: number) => Math.min(idx + 1, MAX_PRIORITY);

/**
 * queued -> running, then one crawl task per pending target. Safe to run again: a restart of
 * a running job (its tasks lost with Redis data) re-adds only the tasks that are not live.
 */
export function startJobHandler(deps: StartJobDeps) {
  return async ({ jobId }: ParsedPayloadOf<'crawl.startJob'>, ctx: HandlerContext): Promise<string> => {
    const before = await deps.jobs.findById(jobId);
    const job = await deps.jobs.markRunning(jobId);
    if (!job) return 'not startable';
    const pending = await deps.jobs.pendingTargetIndexes(jobId);
    const tasks = pending.map((idx) => ({ payload: { jobId, idx }, jobId: targetTaskId(jobId, idx), priority: targetPriority(idx) }));
    if (before?.status === 'queued') {
      await deps.producer.enqueueBulk('crawl.fetchTarget', tasks);
      ctx.log.debug({ jobId, targets: tasks.length }, 'job started');
      return `started ${tasks.length}`;
    }
    const added = await deps.producer.enqueueMissing('crawl.fetchTarget', tasks);
    ctx.log.info({ jobId, added }, 'job restarted');
    return `restarted ${added}`;
  };
}
