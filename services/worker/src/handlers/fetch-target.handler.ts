import type { JobRepository } from '@crawl/db';
import { type JobProgressDeps, recordTargetOutcome } from '@crawl/jobs';
import type { MarketplaceCode } from '@crawl/core';
import type { Crawler } from '@crawl/marketplace';
import type { HandlerContext, ParsedPayloadOf } from '@crawl/queue';

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
 * Crawls one target. Skips targets that are no longer pending (cancelled job, or a task
 * redelivered after a crash whose first run already committed), retries blocked/upstream
 * failures through the queue, and records the outcome (last attempt included) in one
 * transaction with the job's progress.
 */
export function fetchTargetHandler(deps: FetchTargetDeps) {
  return async ({ jobId, idx }: ParsedPayloadOf<'crawl.fetchTarget'>, ctx: HandlerContext): Promise<string> => {
    const target = await deps.jobs.findTargetContext(jobId, idx);
    if (!target || target.jobStatus !== 'running' || target.targetStatus !== 'pending') return 'skipped';
    const started = process.hrtime.bigint();
    const outcome = await deps.crawler.crawl(
      { type: target.type, target: target.target, marketplace: target.marketplace as MarketplaceCode, lang: target.lang, tenant: target.projectId },
      `${jobId}-${idx}`,
    );
    deps.onCrawled?.(outcome.ok ? 'OK' : outcome.code, Number(process.hrtime.bigint() - started) / 1e9);
    if (!outcome.ok && outcome.retryable && ctx.attempt < ctx.maxAttempts) {
      throw new RetryableCrawlError(outcome.code, outcome.message);
    }
    const result = await recordTargetOutcome(
      deps,
      jobId,
      idx,
      target.target,
      outcome.ok
        ? { kind: 'succeeded', items: outcome.items, attempts: ctx.attempt }
        : { kind: 'failed', code: outcome.code, message: outcome.message, attempts: ctx.attempt },
    );
    return result;
  };
}
