import type { EventType, WebhookEventData } from '@crawl/core';
import type { JobRow } from '@crawl/db';
import { diffSnapshot, jobFinishedEvent, productAlertData, productChangedData, snapshotOf } from '@crawl/jobs';

/**
 * Sample `data` of each event, for test deliveries (`POST …/webhooks/test`). Built by the live
 * producers (packages/jobs event-data.ts) from sample rows and products, so a receiver written
 * against a test delivery also reads live events; sample-events.unit.test.ts parses each one with
 * its schema (webhook-events.ts in @crawl/core). `schedule.triggered` is never emitted live: its
 * sample follows the schema's documented shape.
 */
export function sampleEventData<E extends EventType>(event: E, projectId: string, now?: Date): WebhookEventData<E>;
export function sampleEventData(event: EventType, projectId: string, now: Date = new Date()): WebhookEventData<EventType> {
  switch (event) {
    case 'job.completed':
    case 'job.failed':
      return jobFinishedEvent(sampleJobRow(event, projectId, now)).data as WebhookEventData<'job.completed' | 'job.failed'>;
    case 'schedule.triggered':
      return { scheduleId: 'sch_sample0000000000', jobId: SAMPLE_JOB_ID, firedAt: now.toISOString() };
    case 'product.changed':
      return sampleProductChanged() as WebhookEventData<'product.changed'>;
    case 'product.alert':
      return sampleProductAlert();
  }
}

const SAMPLE_JOB_ID = 'job_sample0000000000';
const SAMPLE_ASIN = 'B0DR8G428S';

/** A finished one-target details job, as the job table holds it when finalizeJob has run. */
function sampleJobRow(event: 'job.completed' | 'job.failed', projectId: string, now: Date): JobRow {
  const ok = event === 'job.completed';
  return {
    id: SAMPLE_JOB_ID,
    organization_id: 'org_sample0000000000',
    project_id: projectId,
    type: 'details',
    status: ok ? 'completed' : 'failed',
    marketplace: 'US',
    lang: 'en-US',
    targets: [SAMPLE_ASIN],
    target_count: 1,
    created_at: new Date(now.getTime() - 60_000),
    started_at: new Date(now.getTime() - 55_000),
    finished_at: now,
    succeeded: ok ? 1 : 0,
    failed: ok ? 0 : 1,
    results_count: ok ? 1 : 0,
    credits_reserved: 2,
    credits_consumed: ok ? 2 : 0,
    credits_refunded: ok ? 0 : 2,
    retry_of: null,
    schedule_id: null,
    errors: ok ? [] : [{ target: SAMPLE_ASIN, code: 'BLOCKED', message: 'robot check page' }],
    pages: null,
    postal_code: null,
    sort: null,
    pages_crawled: ok ? 1 : 0,
    notes: [],
    results_purged_at: null,
    results_purge_pending: false,
  };
}

/** A details product seen twice (its price dropped), run through the live change tracking. */
function sampleProductChanged() {
  const before = {
    asin: SAMPLE_ASIN,
    title: 'Sample wireless headphones',
    price: { amount: 29.99, currency: 'USD' },
    listPrice: { amount: 39.99, currency: 'USD' },
    availability: { status: 'in_stock', text: 'In Stock' },
    rating: 4.5,
    reviewsCount: 1280,
    seller: { name: 'Sample Store' },
    bestSellersRank: [{ category: 'Electronics', rank: 1520 }],
    isPrime: true,
    mainImage: 'https://m.media-amazon.com/images/I/sample._AC_SX679_.jpg',
  };
  const after = { ...before, price: { amount: 24.99, currency: 'USD' }, reviewsCount: 1291 };
  const { changes, merged } = diffSnapshot(snapshotOf('product', before), snapshotOf('product', after));
  return productChangedData({ asin: SAMPLE_ASIN, marketplace: 'US', postalCode: null, jobId: SAMPLE_JOB_ID, changes, merged });
}

/** The sample product's price drop as a `price_below` rule announces it, through the live producer. */
function sampleProductAlert() {
  const changed = sampleProductChanged();
  return productAlertData({
    alertId: 'alt_sample0000000000',
    ruleId: 'alr_sample0000000000',
    ruleName: 'Headphones under $25',
    asin: SAMPLE_ASIN,
    marketplace: 'US',
    postalCode: null,
    condition: { type: 'price_below', value: 25 },
    value: changed.snapshot.price,
    previous: 29.99,
    baseline: null,
    jobId: SAMPLE_JOB_ID,
    snapshot: changed.snapshot,
  });
}
