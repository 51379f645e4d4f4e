import { CREDITS_PER_TARGET } from '@crawl/core';
import type { JobRow } from '@crawl/db';

/**
 * Credits a job's finished targets consumed: each page they crawled (docs/tenancy-and-credits.md;
 * per result page for search). A failed or cancelled target, or a keyword without
 * results, crawled none that count.
 */
export function consumedCredits(job: Pick<JobRow, 'type' | 'pages_crawled'>): number {
  return (job.pages_crawled ?? 0) * CREDITS_PER_TARGET[job.type];
}
