import { webhookDeliveryBody } from '@crawl/core';
import type { WebhookAttemptRow } from '@crawl/db';
import { toJobResource } from '@crawl/jobs';
import { createContractChecker, detailsItem, jobRow, searchItem } from '@crawl/testing';
import { sampleEventData } from '../routes/webhooks/sample-events';
import { toLogResource } from '../routes/webhooks/webhooks.service';
import { openApiDocument } from './document';

/**
 * Drift examples the hand-kept contract once had, each checked the way CI now checks every response and
 * delivery (the contract recorder of the gateway harness and e2e stack): each would have failed.
 */
const contract = createContractChecker(openApiDocument());
const json = (body: unknown) => ({ headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) });
const getJob = (body: unknown) => contract.checkResponse({ method: 'GET', path: '/v1/key/jobs/job_x', status: 200, ...json(body) });

const row = jobRow({ id: 'job_0000000000000001', pages_crawled: 0 });

it('a response that gains an undeclared field fails, as does a wrong type', () => {
  expect(getJob({ data: toJobResource(row) })).toEqual([]);
  expect(getJob({ data: { ...toJobResource(row), internalCost: 3 } }).join('\n')).toMatch(/internalCost/);
  expect(getJob({ data: { ...toJobResource(row), progress: { total: 1, succeeded: 1, failed: 0, retried: 0 } } }).join('\n')).toMatch(
    /retried/,
  );
  expect(getJob({ data: { ...toJobResource(row), resultsCount: '1' } }).join('\n')).toMatch(/resultsCount must be integer/);
});

it('WebhookLogEntry: deliveryId may be null, durationMs may not', () => {
  const attempt = {
    id: 1,
    delivery_id: null,
    webhook_id: 'whk_0000000000000001',
    project_id: 'prj_0000000000000001',
    event_type: 'job.completed',
    attempt: 1,
    success: false,
    status_code: null,
    duration_ms: 12,
    error: 'connection refused',
    response_body: null,
    test: true,
    manual: false,
    created_at: new Date(),
  } satisfies WebhookAttemptRow;
  const logs = (entry: unknown) =>
    contract.checkResponse({
      method: 'GET',
      path: '/v1/key/projects/prj_x/webhooks',
      status: 200,
      ...json({ data: { configs: [], logs: [entry] } }),
    });
  expect(logs(toLogResource(attempt))).toEqual([]);
  expect(logs({ ...toLogResource(attempt), durationMs: null }).join('\n')).toMatch(/durationMs/);
});

it('a product.changed delivery in the shape test deliveries once had (money objects, 3-field snapshot) fails; the sample passes', () => {
  const headers = {
    'x-service-signature': `t=1,v1=${'0'.repeat(64)}`,
    'x-service-event': 'product.changed',
    'x-service-delivery': 'dlv_1',
    'x-service-webhook-id': 'whk_1',
  };
  const sample = webhookDeliveryBody({
    id: 'dlv_1',
    event: 'product.changed',
    createdAt: new Date(),
    projectId: 'prj_1',
    data: sampleEventData('product.changed', 'prj_1'),
    test: true,
  });
  expect(contract.checkWebhookDelivery({ headers, body: sample })).toEqual([]);
  const old = JSON.parse(sample);
  old.data.changes = [{ field: 'price', from: { amount: 19.99, currency: 'USD' }, to: { amount: 17.99, currency: 'USD' } }];
  old.data.snapshot = { price: { amount: 17.99, currency: 'USD' }, title: 'x', availability: 'in_stock' };
  expect(contract.checkWebhookDelivery({ headers, body: old }).length).toBeGreaterThan(0);
  const { 'x-service-delivery': _dropped, ...unsigned } = headers;
  expect(contract.checkWebhookDelivery({ headers: unsigned, body: sample }).join('\n')).toMatch(/X-Service-Delivery/i);
});

it('the llm export is an object: an array of llm items, or a result item with a field of the other kind, fails', () => {
  const exported = (body: unknown) =>
    contract.checkResponse({ method: 'GET', path: '/v1/key/jobs/job_x/export', status: 200, ...json(body) });
  expect(exported([detailsItem('B0DR8G428S')])).toEqual([]);
  expect(exported([searchItem('usb', 1)])).toEqual([]);
  expect(exported([{ ...detailsItem('B0DR8G428S'), keyword: 'usb' }]).length).toBeGreaterThan(0);
  expect(exported([{ source: 'details', asin: 'B0DR8G428S' }]).length).toBeGreaterThan(0);
  const results = (item: unknown) =>
    contract.checkResponse({
      method: 'GET',
      path: '/v1/key/jobs/job_x/results',
      status: 200,
      ...json({ data: [item], pagination: { total: 1, limit: 50, offset: 0, hasMore: false } }),
    });
  expect(results(detailsItem('B0DR8G428S', { price: null }))).toEqual([]);
  expect(results({ ...searchItem('usb', 1), price: { amount: 5 } }).length).toBeGreaterThan(0);
});
