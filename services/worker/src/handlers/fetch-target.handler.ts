import type { JobRepository, JobTargetRepository, PageCheckpoint } from '@crawl/db';
import { type JobProgressDeps, recordTargetOutcome } from '@crawl/jobs';
import type { Crawler } from '@crawl/marketplace';
import { HandBackTask, type HandlerContext, type ParsedPayloadOf } from '@crawl/queue';
import type { JobLiveness } from '../crawl/job-liveness';
import { crawlTargetPages } from '../crawl/target-pages';

export interface FetchTargetDeps extends JobProgressDeps {
  jobs: JobRepository;
  targets: JobTargetRepository;
  crawler: Crawler;
  onCrawled?: (outcome: string, seconds: number) => void;
  /** Cached "is the job still running" for the exit turns (see JobLiveness). */
  liveness?: JobLiveness;
  /** Aborted when the shutdown grace is over (see crawlTargetPages). */
  fetchDeadline?: AbortSignal;
}

/** A retryable outcome before the last attempt: BullMQ retries the task with backoff. */
export class RetryableCrawlError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'RetryableCrawlError';
  }
}

/**
 * Crawls one target, page by page (crawl/target-pages.ts). Skips targets that are no longer
 * pending (cancelled job, or a task redelivered after a crash whose first run already
 * committed) and pages of a job cancelled while they waited for an exit, hands the task back
 * to the queue when the process shuts down before its page was fetched, retries
 * blocked/upstream failures through the queue, and records the outcome (last attempt
 * included) in one transaction with the job's progress.
 */
export function fetchTargetHandler(deps: FetchTargetDeps) {
  const pagesDeps = {
    crawler: deps.crawler,
    saveCheckpoint: (jobId: string, idx: number, checkpoint: PageCheckpoint) => deps.targets.saveCheckpoint(jobId, idx, checkpoint),
    stillPending: (jobId: string, idx: number) => deps.targets.isTargetPending(jobId, idx),
    onCrawled: deps.onCrawled,
    ...(deps.liveness ? { jobWanted: (jobId: string) => deps.liveness!.wanted(jobId) } : {}),
    ...(deps.fetchDeadline ? { fetchDeadline: deps.fetchDeadline } : {}),
  };
  return async ({ jobId, idx }: ParsedPayloadOf<'crawl.fetchTarget'>, ctx: HandlerContext): Promise<string> => {
    const target = await deps.targets.findTargetContext(jobId, idx);
    if (!target || target.jobStatus !== 'running' || target.targetStatus !== 'pending') return 'skipped';
    const result = await crawlTargetPages(pagesDeps, { ...target, jobId, idx }, { attempt: ctx.attempt, maxAttempts: ctx.maxAttempts });
    if (result.kind === 'retry') throw new RetryableCrawlError(result.code, result.message);
    if (result.kind === 'cancelled') return 'skipped';
    if (result.kind === 'handBack') throw new HandBackTask('worker shutting down before the page was fetched');
    return recordTargetOutcome(
      deps,
      jobId,
      idx,
      target.target,
      result.kind === 'succeeded'
        ? {
            kind: 'succeeded',
            items: result.items,
            attempts: ctx.attempt,
            pagesCrawled: result.pagesCrawled,
            ...(result.note ? { note: result.note } : {}),
          }
        : { kind: 'failed', code: result.code, message: result.message, attempts: ctx.attempt },
    );
  };
}
