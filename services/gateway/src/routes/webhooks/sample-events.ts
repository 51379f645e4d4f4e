import type { EventType } from '@crawl/core';

/** Sample `data` of each event, for test deliveries: the shapes of DESIGN section 6. */
export function sampleEventData(event: EventType, projectId: string): Record<string, unknown> {
  const now = new Date().toISOString();
  const job = {
    id: 'job_sample0000000000',
    projectId,
    type: 'details',
    status: event === 'job.failed' ? 'failed' : 'completed',
    marketplace: 'US',
    lang: 'en-US',
    targets: ['B0DR8G428S'],
    createdAt: now,
    startedAt: now,
    finishedAt: now,
    progress: { total: 1, succeeded: event === 'job.failed' ? 0 : 1, failed: event === 'job.failed' ? 1 : 0 },
    credits: { reserved: 2, consumed: event === 'job.failed' ? 0 : 2, refunded: event === 'job.failed' ? 2 : 0 },
    resultsCount: event === 'job.failed' ? 0 : 1,
    retryOf: null,
    scheduleId: null,
    errors: event === 'job.failed' ? [{ target: 'B0DR8G428S', code: 'BLOCKED', message: 'robot check page' }] : [],
  };
  switch (event) {
    case 'job.completed':
    case 'job.failed':
      return job;
    case 'schedule.triggered':
      return { scheduleId: 'sch_sample0000000000', jobId: job.id, firedAt: now };
    case 'product.changed':
      return {
        asin: 'B0DR8G428S',
        marketplace: 'US',
        jobId: job.id,
        changes: [{ field: 'price', from: { amount: 29.99, currency: 'USD' }, to: { amount: 24.99, currency: 'USD' } }],
        snapshot: { title: 'Sample product', price: { amount: 24.99, currency: 'USD' }, availability: 'in_stock' },
      };
  }
}
