import { isTerminal, type JobResourceData } from '@crawl/core';
import { type JobRetentionState, type JobRow, jobSpecOf } from '@crawl/db';
import { consumedCredits } from './job-credits';

/** The job object (docs/http-api.md), as clients and job events see it (`jobResourceSchema` in @crawl/core). */
export type JobResource = JobResourceData;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Credits consumed so far. A finished job has its settled figure; a running one is charged for
 * the pages its finished targets crawled (`pages_crawled`, which the worker adds with each
 * outcome), which is what the settlement will consume for those targets.
 */
function consumedSoFar(row: JobRow): number {
  return isTerminal(row.status) ? row.credits_consumed : consumedCredits(row);
}

export function toJobResource(row: JobRow & JobRetentionState): JobResource {
  const spec = jobSpecOf(row);
  return {
    id: row.id,
    projectId: row.project_id,
    type: row.type,
    status: row.status,
    marketplace: spec.marketplace,
    lang: spec.lang,
    targets: spec.targets,
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    progress: { total: row.target_count, succeeded: row.succeeded, failed: row.failed },
    credits: { reserved: row.credits_reserved, consumed: consumedSoFar(row), refunded: row.credits_refunded },
    resultsCount: row.results_count,
    retryOf: row.retry_of,
    scheduleId: row.schedule_id,
    errors: row.errors,
    pages: spec.pages,
    sort: spec.sort,
    postalCode: spec.postalCode,
    notes: row.notes ?? [],
    ...(row.results_purged_at ? { resultsPurgedAt: row.results_purged_at.toISOString() } : {}),
  };
}
