import type { JobResourceData } from '@crawl/core';
import type { JobRow } from '@crawl/db';

/** The job object of DESIGN section 4, as clients and webhook events see it. */
export interface JobResource {
  id: string;
  projectId: string;
  type: JobRow['type'];
  status: JobRow['status'];
  marketplace: string;
  lang: string | null;
  targets: string[];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  progress: { total: number; succeeded: number; failed: number };
  credits: { reserved: number; consumed: number; refunded: number };
  resultsCount: number;
  retryOf: string | null;
  scheduleId: string | null;
  errors: { target: string; code: string; message: string }[];
}

/**
 * Compile-time check against `jobResourceSchema` (@crawl/core), the shape job events declare:
 * the same keys, and every schema-valid object is a JobResource. The schema is narrower where
 * the row is a plain string (error codes); event-data.test.ts parses the events of real rows.
 */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const _jobResourceMatchesSchema: SameKeys<JobResource, JobResourceData> & (JobResourceData extends JobResource ? true : false) = true;

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
