import type { AlertCondition, AlertValue, EventType, ProductAlertData } from '@crawl/core';
import type { JobRow } from '@crawl/db';
import { type JobResource, toJobResource } from './job-resource';
import type { FieldChange, ProductSnapshot } from './product-snapshot';

/**
 * The producers of live webhook event `data` (schemas: webhook-events.ts in @crawl/core). The
 * gateway's test deliveries call the same functions on sample rows, so a test event has the
 * live shape by construction, not by a copy kept in step by hand.
 */

/** A storage delivery a job.completed event announces (docs/destinations.md). */
export interface QueuedDelivery {
  destinationId: string;
  key: string;
}

/**
 * The job.completed / job.failed event of a job that has just reached its terminal status; a
 * completed job's event says where its export is being delivered.
 */
export function jobFinishedEvent(
  job: JobRow,
  deliveries: QueuedDelivery[] = [],
): { type: Extract<EventType, 'job.completed' | 'job.failed'>; data: JobResource & { deliveries?: QueuedDelivery[] } } {
  if (job.status === 'completed') return { type: 'job.completed', data: { ...toJobResource(job), deliveries } };
  return { type: 'job.failed', data: toJobResource(job) };
}

/** The `data` of a product.changed event: `snapshot` is the merged last known state, not the crawl's partial view. */
export function productChangedData(input: {
  asin: string;
  marketplace: string;
  /** '' or null: the series of jobs without a postal code. */
  postalCode: string | null;
  jobId: string;
  changes: FieldChange[];
  merged: ProductSnapshot;
}) {
  return {
    asin: input.asin,
    marketplace: input.marketplace,
    postalCode: input.postalCode || null,
    jobId: input.jobId,
    changes: input.changes,
    snapshot: input.merged,
  };
}

/** The `data` of a product.alert event (docs/alerts.md); `snapshot` is the merged last known state, as product.changed's. */
export function productAlertData(input: {
  alertId: string;
  ruleId: string;
  ruleName: string;
  asin: string;
  marketplace: string;
  /** '' or null: the series of jobs without a postal code. */
  postalCode: string | null;
  condition: AlertCondition;
  value: AlertValue;
  previous: AlertValue;
  baseline: number | null;
  jobId: string;
  snapshot: ProductSnapshot;
}): ProductAlertData {
  return {
    alertId: input.alertId,
    ruleId: input.ruleId,
    ruleName: input.ruleName,
    asin: input.asin,
    marketplace: input.marketplace,
    postalCode: input.postalCode || null,
    condition: input.condition,
    value: input.value,
    previous: input.previous,
    baseline: input.baseline,
    jobId: input.jobId,
    snapshot: input.snapshot,
  };
}
