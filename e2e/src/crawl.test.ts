import fs from 'node:fs';
import path from 'node:path';
import { EventRepository } from '@crawl/db';
import { parseSearchPage } from '@crawl/marketplace';
import { REAL_PAGES_DIR } from '@crawl/testing';
import { auth, type Stack, startStack } from './stack';

const FIXTURES = REAL_PAGES_DIR ?? '';
const haveFixtures = REAL_PAGES_DIR !== null;
const withFixtures = haveFixtures ? it : it.skip;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
afterEach(() => stack.simulator.clearFaults());

withFixtures('a search job completes with one row per result card, in page order', async () => {
  const tenant = await stack.tenant();
  const id = await stack.createJob(tenant, { type: 'search', targets: ['portable charger'] });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({
    status: 'completed',
    progress: { total: 1, succeeded: 1, failed: 0 },
    credits: { reserved: 5, consumed: 5, refunded: 0 },
  });
  const expected = parseSearchPage(fs.readFileSync(path.join(FIXTURES, 'search-US-portable-charger.html'), 'utf8'), {
    marketplace: 'US',
    origin: stack.simulator.url,
  });
  const res = await stack.http.get(`/v1/key/jobs/${id}/results?limit=1000`).set(auth(tenant));
  expect(res.body.pagination.total).toBe(expected.length);
  expect(res.body.data.map((r: { asin: string }) => r.asin)).toEqual(expected.map((c) => c.asin));
  expect(res.body.data[0]).toMatchObject({
    keyword: 'portable charger',
    position: 1,
    parserVersion: expect.any(String),
    missingFields: expect.any(Array),
  });
  expect(job.resultsCount).toBe(expected.length);
  const sponsored = res.body.data.filter((r: { isSponsored: boolean }) => r.isSponsored);
  expect(sponsored.every((r: { organicPosition: number | null }) => r.organicPosition === null)).toBe(true);
});

withFixtures('a details job completes with the parsed product for each target, and sends browser headers', async () => {
  const tenant = await stack.tenant();
  stack.simulator.resetLog();
  const id = await stack.createJob(tenant, {
    type: 'details',
    targets: ['B0DR8G428S', 'https://www.amazon.com/dp/B073WRF565'],
    config: { lang: 'en-GB' },
  });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({ status: 'completed', progress: { succeeded: 2, failed: 0 }, credits: { consumed: 4, refunded: 0 } });
  const res = await stack.http.get(`/v1/key/jobs/${id}/results`).set(auth(tenant));
  const byAsin = Object.fromEntries(res.body.data.map((r: { asin: string }) => [r.asin, r]));
  expect(byAsin.B0DR8G428S.title).toMatch(/charmast/i);
  expect(byAsin.B0DR8G428S.price).toMatchObject({ currency: 'USD' });
  expect(byAsin.B073WRF565.target).toBe('https://www.amazon.com/dp/B073WRF565');
  const requests = stack.simulator.requests().filter((r) => r.path.includes('/dp/'));
  expect(requests.map((r) => r.path).sort()).toEqual(['/dp/B073WRF565?language=en_GB', '/dp/B0DR8G428S?language=en_GB']);
  for (const r of requests) {
    expect(r.headers['accept-language']).toBe('en-GB,en;q=0.9');
    expect(String(r.headers['user-agent'])).toMatch(/Mozilla\/5\.0/);
  }
  const events = await new EventRepository(stack.db).listForProject(tenant.projectId);
  expect(events.map((e) => e.type)).toEqual(['job.completed']);
  expect(events[0]!.data).toMatchObject({ id, status: 'completed', resultsCount: 2 });
});

it('a synthetic product for any ASIN is crawled (template pages)', async () => {
  const tenant = await stack.tenant();
  const id = await stack.createJob(tenant, { type: 'details', targets: ['B0TEST0001'] });
  const job = await stack.waitForJob(id);
  expect(job.status).toBe('completed');
  const res = await stack.http.get(`/v1/key/jobs/${id}/results`).set(auth(tenant));
  expect(res.body.data[0].asin).toBe('B0TEST0001');
});

it('a captcha then success: the target succeeds on a retry with another session', async () => {
  const tenant = await stack.tenant();
  stack.simulator.setFaults([{ match: 'B0CAPTCHA1', fault: { kind: 'captcha' }, times: 1 }]);
  const id = await stack.createJob(tenant, { type: 'details', targets: ['B0CAPTCHA1'] });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({ status: 'completed', errors: [] });
  const hits = stack.simulator.requests().filter((r) => r.path.includes('B0CAPTCHA1'));
  expect(hits).toHaveLength(2);
  expect(hits[0]!.headers['user-agent']).not.toBe(hits[1]!.headers['user-agent']);
});

it('404, 503 storms, blocks and timeouts end in their documented per-target outcomes', async () => {
  const tenant = await stack.tenant();
  stack.simulator.setFaults([
    { match: 'B0NOTFOUND', fault: { kind: 'not_found' } },
    { match: 'B0STORM503', fault: { kind: 'status', status: 503 } },
    { match: 'B0BLOCKED1', fault: { kind: 'captcha' } },
    { match: 'B0TIMEOUT1', fault: { kind: 'hang' } },
    { match: 'B0RESET001', fault: { kind: 'reset' } },
  ]);
  const targets = ['B0NOTFOUND', 'B0STORM503', 'B0BLOCKED1', 'B0TIMEOUT1', 'B0RESET001', 'B0HEALTHY1'];
  const id = await stack.createJob(tenant, { type: 'details', targets });
  const job = await stack.waitForJob(id, 60_000);
  expect(job.status).toBe('completed'); // one target succeeded
  const codes = Object.fromEntries(job.errors.map((e: { target: string; code: string }) => [e.target, e.code]));
  expect(codes).toEqual({
    B0NOTFOUND: 'NOT_FOUND',
    B0STORM503: 'UPSTREAM_ERROR',
    B0BLOCKED1: 'BLOCKED',
    B0TIMEOUT1: 'UPSTREAM_ERROR',
    B0RESET001: 'UPSTREAM_ERROR',
  });
  const hits = (asin: string) => stack.simulator.requests().filter((r) => r.path.includes(asin)).length;
  expect(hits('B0NOTFOUND')).toBe(1); // 404 is final
  expect(hits('B0STORM503')).toBe(4); // every attempt
  expect(job.progress).toEqual({ total: 6, succeeded: 1, failed: 5 });
  expect(job.credits).toEqual({ reserved: 12, consumed: 2, refunded: 10 });
}, 90_000);

it('a job whose every target fails ends failed, fully refunded, with a job.failed event; retry makes it succeed', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'not_found' } }]);
  const id = await stack.createJob(tenant, { type: 'details', targets: ['B0FAILALL1', 'B0FAILALL2'] });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({ status: 'failed', credits: { reserved: 4, consumed: 0, refunded: 4 } });
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(100);
  const events = await new EventRepository(stack.db).listForProject(tenant.projectId);
  expect(events.map((e) => e.type)).toEqual(['job.failed']);
  const exp = await stack.http.get(`/v1/key/jobs/${id}/export`).set(auth(tenant));
  expect(exp.status).toBe(409);

  stack.simulator.clearFaults();
  const retry = await stack.http.post(`/v1/key/jobs/${id}/retry`).set(auth(tenant));
  expect(retry.status).toBe(202);
  const second = await stack.waitForJob(retry.body.data.id);
  expect(second).toMatchObject({ status: 'completed', retryOf: id, progress: { succeeded: 2 } });
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(96);
  const ledger = await stack.gateway.credits.ledgerTotals(tenant.organizationId);
  expect(ledger.grant - ledger.reserve + ledger.refund).toBe(96);
  expect(ledger.consume).toBe(4);
});

it('cancel mid-job stops the remaining targets; crawled ones keep their results and are paid', async () => {
  const tenant = await stack.tenant({ credits: 10_000 });
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 150 } }]);
  const targets = Array.from({ length: 60 }, (_, i) => `B0CANCEL${String(i).padStart(2, '0')}`);
  const id = await stack.createJob(tenant, { type: 'details', targets });
  await stack.waitForJob(id, 30_000, (job) => job.progress.succeeded >= 5);
  const cancel = await stack.http.post(`/v1/key/jobs/${id}/cancel`).set(auth(tenant));
  expect(cancel.status).toBe(200);
  expect(cancel.body.data.status).toBe('cancelled');
  const requestsAtCancel = stack.simulator.requests().length;
  await new Promise((r) => setTimeout(r, 1500));
  // Only the fetches already in flight at the cancel may still reach the marketplace.
  expect(stack.simulator.requests().length - requestsAtCancel).toBeLessThanOrEqual(8);
  const job = await stack.waitForJob(id);
  const results = await stack.http.get(`/v1/key/jobs/${id}/results`).set(auth(tenant));
  expect(results.body.pagination.total).toBe(job.progress.succeeded);
  expect(job.progress.succeeded).toBeLessThan(60);
  expect(job.credits).toEqual({ reserved: 120, consumed: job.progress.succeeded * 2, refunded: 120 - job.progress.succeeded * 2 });
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(10_000 - job.progress.succeeded * 2);
});
