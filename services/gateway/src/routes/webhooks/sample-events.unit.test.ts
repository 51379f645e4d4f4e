import { EVENT_TYPES, productChangedDataSchema, WEBHOOK_EVENT_DATA, webhookDeliveryBody, webhookDeliverySchema } from '@crawl/core';
import { sampleEventData } from './sample-events';

/**
 * Test deliveries have the shape of live events: every sample parses with the schema of its
 * event (@crawl/core webhook-events.ts), which event-data.int.test.ts in packages/jobs also checks
 * the live producers against. Pure: no database, no receiver.
 */
const PROJECT = 'prj_sample0000000000';

it.each(EVENT_TYPES)('the sample %s parses with its schema, alone and as a test delivery body', (event) => {
  const data = sampleEventData(event, PROJECT);
  expect(WEBHOOK_EVENT_DATA[event].safeParse(data).error?.issues ?? []).toEqual([]);
  const body = JSON.parse(webhookDeliveryBody({ id: 'dlv_sample', event, createdAt: new Date(), projectId: PROJECT, data, test: true }));
  expect(webhookDeliverySchema.safeParse(body).error?.issues ?? []).toEqual([]);
  expect(body).toMatchObject({ event, projectId: PROJECT, test: true });
});

it('the sample product.changed has numeric price changes and the full 12-field snapshot, as live events do', () => {
  const data = sampleEventData('product.changed', PROJECT);
  expect(data.changes).toContainEqual({ field: 'price', from: 29.99, to: 24.99 });
  expect(Object.keys(data.snapshot)).toHaveLength(12);
  expect(data.snapshot).toMatchObject({ price: 24.99, currency: 'USD', availability: 'in_stock', seller: 'Sample Store' });
});

it('the sample job events carry the job id as data.id and the status of their event', () => {
  expect(sampleEventData('job.completed', PROJECT)).toMatchObject({
    id: expect.stringMatching(/^job_/),
    status: 'completed',
    projectId: PROJECT,
  });
  expect(sampleEventData('job.failed', PROJECT)).toMatchObject({ status: 'failed', resultsCount: 0, errors: [{ code: 'BLOCKED' }] });
});

/** The test delivery this file used to send. A receiver written against it broke on live events. */
it('reproduces the drift: the old sample product.changed fails the schema', () => {
  const oldSample = {
    asin: 'B0DR8G428S',
    marketplace: 'US',
    jobId: 'job_sample0000000000',
    changes: [{ field: 'price', from: { amount: 29.99, currency: 'USD' }, to: { amount: 24.99, currency: 'USD' } }],
    snapshot: { title: 'Sample product', price: { amount: 24.99, currency: 'USD' }, availability: 'in_stock' },
  };
  const issues = productChangedDataSchema.safeParse(oldSample).error?.issues ?? [];
  const paths = issues.map((i) => i.path.join('.'));
  expect(paths).toEqual(
    expect.arrayContaining(['changes.0.from', 'changes.0.to', 'snapshot.price', 'snapshot.listPrice', 'snapshot.mainImage']),
  );
});
