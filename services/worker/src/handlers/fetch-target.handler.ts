import type { JobRepository, PageCheckpoint } from '@crawl/db';
import { type JobProgressDeps, recordTargetOutcome } from '@crawl/jobs';
import type { Crawler } from '@crawl/marketplace';
import type { HandlerContext, ParsedPayloadOf } from '@crawl/queue';
import { crawlTargetPages } from '../crawl/target-pages';

export interface FetchTargetDeps extends JobProgressDeps {
  jobs: JobRepository;
  crawler: Crawler;
  onCrawled?: (outcome: string, seconds: number) => void;
}

/** A retryable outcome before the last attempt: BullMQ retries the task with backoff. */
export class RetryableCrawlError extends Error {
  constructor(readonly code: string, message: string) {
    super(`${code}: ${message}`);
    this.name = 'RetryableCrawlError';
  }
}

/**
 * Crawls one target, page by page (crawl/target-pages.ts). Skips targets that are no longer
 * pending (cancelled job, or a task redelivered after a crash whose first run already
 * committed), retries blocked/upstream failures through the queue, and records the outcome
 * (last attempt included) in one transaction with the job's progress.
 */
export function fetchTargetHandler(deps: FetchTargetDeps) {
  const pagesDeps = {
    crawler: deps.crawler,
    saveCheckpoint: (jobId: string, idx: number, checkpoint: PageCheckpoint) => deps.jobs.saveCheckpoint(jobId, idx, checkpoint),
    stillPending: (jobId: string, idx: number) => deps.jobs.isTargetPending(jobId, idx),
    onCrawled: deps.onCrawled,
  };
  return async ({ jobId, idx }: ParsedPayloadOf<'crawl.fetchTarget'>, ctx: HandlerContext): Promise<string> => {
    const target = await deps.jobs.findTargetContext(jobId, idx);
    if (!target || target.jobStatus !== 'running' || target.targetStatus !== 'pending') return 'skipped';
    const result = await crawlTargetPages(pagesDeps, { ...target, jobId, idx }, { attempt: ctx.attempt, maxAttempts: ctx.maxAttempts });
    if (result.kind === 'retry') throw new RetryableCrawlError(result.code, result.message);
    if (result.kind === 'cancelled') return 'skipped';
    return recordTargetOutcome(
      deps,
      jobId,
      idx,
      target.target,
      result.kind === 'succeeded'
        ? { kind: 'succeeded', items: result.items, attempts: ctx.attempt, pagesCrawled: result.pagesCrawled, ...(result.note ? { note: result.note } : {}) }
        : { kind: 'failed', code: result.code, message: result.message, attempts: ctx.attempt },
    );
  };
}
