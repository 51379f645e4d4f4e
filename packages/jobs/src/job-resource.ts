import type { JobResourceData } from '@crawl/core';
import type { JobRow } from '@crawl/db';

/** The job object of DESIGN section 4, as clients and job events see it (`jobResourceSchema` in @crawl/core). */
export type JobResource = JobResourceData;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toJobResource(row: JobRow): JobResource {
  return {
    id: row.id,
    projectId: row.project_id,
    type: row.type,
    status: row.status,
    marketplace: row.marketplace,
    lang: row.lang,
    targets: row.targets,
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    progress: { total: row.target_count, succeeded: row.succeeded, failed: row.failed },
    credits: { reserved: row.credits_reserved, consumed: row.credits_consumed, refunded: row.credits_refunded },
    resultsCount: row.results_count,
    retryOf: row.retry_of,
    scheduleId: row.schedule_id,
    errors: row.errors,
  };
}
