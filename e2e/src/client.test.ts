/**
 * The SDK (@crawl/client) against a real gateway on a real port, with real workers crawling the
 * marketplace simulator: nothing is mocked. A counting fetch wrapper shows which requests the
 * SDK actually sent (retries included).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  type DetailsResultItem,
  CrawlApiError,
  CrawlClient,
  type CrawlClientOptions,
  CrawlNetworkError,
  CrawlWaitTimeoutError,
  type FieldIssue,
  type Job,
  verify,
} from '@crawl/client';
import { sql } from '@crawl/db';
import { createApp } from '@crawl/gateway';
import { createMetricsRegistry } from '@crawl/observability';
import { parse } from 'csv-parse/sync';
import { Receiver } from './receivers';
import { type Stack, startStack } from './stack';

interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  status?: number;
}

/** A fetch that records every request it sends and the status it got. */
function countingFetch() {
  const calls: Call[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const call: Call = { method: init?.method ?? 'GET', url: String(input), headers: { ...(init?.headers as Record<string, string>) } };
    calls.push(call);
    const res = await fetch(input, init);
    call.status = res.status;
    return res;
  };
  return { calls, fetch: wrapped };
}

let stack: Stack;
let server: http.Server;
let baseUrl: string;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startStack();
  // stack.http already built an app on these deps: a second one needs its own metrics registry
  server = http.createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('gateway') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(async () => {
  stack.simulator.clearFaults();
  for (const r of receivers.splice(0)) await r.close();
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

async function setup(options: Partial<CrawlClientOptions> = {}, tenantOptions: Parameters<Stack['tenant']>[0] = {}) {
  const tenant = await stack.tenant(tenantOptions);
  const counting = countingFetch();
  const client = new CrawlClient({ apiKey: tenant.apiKey, baseUrl, fetch: counting.fetch, retry: { baseDelayMs: 20 }, ...options });
  return { tenant, client, calls: counting.calls, projectId: tenant.projectId };
}

async function text(stream: AsyncIterable<Buffer | string>): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

it('a details job: create, waitFor, the results iterator, a csv export stream and a file export', async () => {
  const { client, calls, projectId } = await setup({ autoIdempotency: true });
  const targets = ['B0CLIENT01', 'B0CLIENT02', 'https://www.amazon.com/dp/B0CLIENT03'];
  const created = await client.jobs.create(projectId, { type: 'details', targets, config: { marketplace: 'US', lang: 'en-US' } });
  expect(created).toMatchObject({ status: 'queued', type: 'details', projectId, progress: { total: 3 }, credits: { reserved: 6 } });
  // autoIdempotency: the POST carried a generated key
  expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);

  const seen: Job[] = [];
  const job = await client.jobs.waitFor(created.id, { intervalsMs: [50, 100], timeoutMs: 30_000, onProgress: (j) => seen.push(j) });
  expect(job).toMatchObject({
    id: created.id,
    status: 'completed',
    progress: { total: 3, succeeded: 3, failed: 0 },
    credits: { consumed: 6 },
    resultsCount: 3,
  });
  expect(seen.at(-1)).toEqual(job);

  calls.length = 0;
  const items: DetailsResultItem[] = [];
  for await (const item of client.jobs.iterateResults<DetailsResultItem>(created.id, { pageSize: 2 })) items.push(item);
  expect(items.map((i) => i.asin).sort()).toEqual(['B0CLIENT01', 'B0CLIENT02', 'B0CLIENT03']);
  expect(items.find((i) => i.asin === 'B0CLIENT03')!.target).toBe('https://www.amazon.com/dp/B0CLIENT03');
  expect(calls.map((c) => new URL(c.url).search)).toEqual(['?limit=2&offset=0', '?limit=2&offset=2']);

  const csv = await text(await client.jobs.export(created.id, 'csv'));
  const rows = parse(csv, { columns: true }) as Record<string, string>[];
  expect(rows).toHaveLength(3);
  expect(rows.map((r) => r.asin).sort()).toEqual(['B0CLIENT01', 'B0CLIENT02', 'B0CLIENT03']);
  expect(rows[0]!.price_currency).toBe('USD');
  expect(csv.endsWith('\r\n')).toBe(true);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-client-'));
  try {
    const file = path.join(dir, 'export.json');
    const written = await client.jobs.exportToFile(created.id, 'json', file);
    expect(written.bytes).toBe(fs.statSync(file).size);
    expect((JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]).length).toBe(3);
    expect(fs.readdirSync(dir)).toEqual(['export.json']); // no .part file left behind
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const listed = await client.jobs.list(projectId, { q: 'B0CLIENT02', status: 'completed' });
  expect(listed.data.map((j) => j.id)).toEqual([created.id]);
  expect(listed.pagination).toEqual({ total: 1, limit: 20, offset: 0, hasMore: false });

  // change tracking and analytics saw the crawl
  const tracked = [];
  for await (const t of client.trackedTargets.iterate(projectId, { marketplace: 'US', limit: 2 })) tracked.push(t.asin);
  expect(tracked.sort()).toEqual(['B0CLIENT01', 'B0CLIENT02', 'B0CLIENT03']);
  const timeline = await client.trackedTargets.timeline(projectId, 'B0CLIENT01', { marketplace: 'US', limit: 5 });
  expect(timeline.target).toMatchObject({ asin: 'B0CLIENT01', marketplace: 'US', changeCount: 0 });
  expect(timeline.data).toEqual([expect.objectContaining({ jobId: created.id, source: 'details', changes: [] })]);
  const comparison = await client.compare(projectId, created.id, created.id);
  expect(comparison.summary).toEqual({ onlyInFrom: 0, onlyInTo: 0, inBoth: 3, changed: 0, moved: 0 });
  const analytics = await client.analytics(projectId, { from: new Date(Date.now() - 3600_000) });
  expect(analytics.jobs).toMatchObject({ total: 1, byStatus: { completed: 1 }, byType: { details: 1 } });
  expect(analytics.targets).toMatchObject({ crawled: 3, succeeded: 3, successRate: 1 });
});

it('an explicit Idempotency-Key replays the first job; retry, cancel and their state errors', async () => {
  const { client, projectId } = await setup();
  const body = { type: 'details' as const, targets: ['B0CLIFAIL1'] };
  stack.simulator.setFaults([{ match: 'B0CLIFAIL1', fault: { kind: 'not_found' } }]);
  const first = await client.jobs.create(projectId, body, { idempotencyKey: 'client-test-key-1' });
  const again = await client.jobs.create(projectId, body, { idempotencyKey: 'client-test-key-1' });
  expect(again.id).toBe(first.id);

  const failed = await client.jobs.waitFor(first.id, { intervalsMs: [50] });
  expect(failed).toMatchObject({ status: 'failed', errors: [{ target: 'B0CLIFAIL1', code: 'NOT_FOUND' }] });
  const retried = await client.jobs.retry(first.id, { idempotencyKey: 'client-test-retry-1' });
  expect(retried).toMatchObject({ status: 'queued', retryOf: first.id, targets: ['B0CLIFAIL1'] });
  expect((await client.jobs.retry(first.id, { idempotencyKey: 'client-test-retry-1' })).id).toBe(retried.id);
  await client.jobs.waitFor(retried.id, { intervalsMs: [50] });

  const notCancellable = await client.jobs.cancel(first.id).catch((e: unknown) => e);
  expect(notCancellable).toBeInstanceOf(CrawlApiError);
  expect(notCancellable).toMatchObject({ status: 409, code: 'INVALID_STATE', attempts: 1 });
  const notExportable = await client.jobs.export(first.id, 'csv').catch((e: unknown) => e);
  expect(notExportable).toMatchObject({ status: 409, code: 'JOB_NOT_COMPLETE', details: { status: 'failed' } });
});

it('cancel refunds what was not crawled; waitFor gives up with CrawlWaitTimeoutError', async () => {
  const { client, projectId } = await setup();
  stack.simulator.setFaults([{ match: 'B0CLISLOW', fault: { kind: 'latency', ms: 1000 } }]);
  const job = await client.jobs.create(projectId, {
    type: 'details',
    targets: ['B0CLISLOW1', 'B0CLISLOW2', 'B0CLISLOW3', 'B0CLISLOW4', 'B0CLISLOW5', 'B0CLISLOW6'],
  });
  const timeout = await client.jobs.waitFor(job.id, { intervalsMs: [50], timeoutMs: 200 }).catch((e: unknown) => e);
  expect(timeout).toBeInstanceOf(CrawlWaitTimeoutError);
  expect(['queued', 'running']).toContain((timeout as CrawlWaitTimeoutError).job.status);

  const cancelled = await client.jobs.cancel(job.id);
  expect(cancelled.status).toBe('cancelled');
  const final = await client.jobs.waitFor(job.id, { intervalsMs: [50] });
  expect(final.status).toBe('cancelled');
  expect(final.credits.refunded).toBeGreaterThan(0);
});

it('400: VALIDATION_ERROR with every field problem in details, not retried', async () => {
  const { client, calls, projectId } = await setup({ autoIdempotency: true });
  const err = await client.jobs
    .create(projectId, { type: 'details', targets: ['not-an-asin'], config: { marketplace: 'US', colour: 'red' } } as never)
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CrawlApiError);
  const apiError = err as CrawlApiError;
  expect(apiError).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', attempts: 1, retryAfterSeconds: null });
  const paths = (apiError.details as FieldIssue[]).map((d) => d.path);
  expect(paths).toEqual(expect.arrayContaining(['body.config']));
  expect(apiError.requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(calls).toHaveLength(1);

  const badQuery = await client.jobs.list(projectId, { limit: 1000 }).catch((e: unknown) => e);
  expect(badQuery).toMatchObject({
    status: 400,
    code: 'VALIDATION_ERROR',
    details: [{ path: 'query.limit', message: expect.any(String) }],
  });
  const missing = await client.jobs.get('job_doesnotexist').catch((e: unknown) => e);
  expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND', attempts: 1 });
  expect(calls).toHaveLength(3);
});

it('402: INSUFFICIENT_CREDITS with balance and cost, never retried, even with an idempotency key', async () => {
  const { client, calls, projectId } = await setup({ autoIdempotency: true, retry: { retries: 4, baseDelayMs: 1 } }, { credits: 0 });
  const auto = await client.jobs.create(projectId, { type: 'details', targets: ['B0CLIENT01'] }).catch((e: unknown) => e);
  expect(auto).toBeInstanceOf(CrawlApiError);
  expect(auto).toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS', details: { balance: 0, cost: 2 }, attempts: 1 });
  const keyed = await client.jobs
    .create(projectId, { type: 'search', targets: ['usb c cable'] }, { idempotencyKey: 'k-402' })
    .catch((e: unknown) => e);
  expect(keyed).toMatchObject({ status: 402, code: 'INSUFFICIENT_CREDITS', details: { balance: 0, cost: 5 } });
  expect(calls.map((c) => c.status)).toEqual([402, 402]);
});

it('jobs.iterate pages through 45 jobs', async () => {
  const { client, calls, projectId } = await setup();
  const created = new Set<string>();
  for (let batch = 0; batch < 9; batch++) {
    const jobs = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        client.jobs.create(projectId, { type: 'details', targets: [`B0PAGE${String(batch * 5 + i).padStart(4, '0')}`] }),
      ),
    );
    for (const j of jobs) created.add(j.id);
  }
  expect(created.size).toBe(45);
  calls.length = 0;
  const seen: string[] = [];
  for await (const job of client.jobs.iterate(projectId, { limit: 10 })) seen.push(job.id);
  expect(seen).toHaveLength(45);
  expect(new Set(seen)).toEqual(created);
  expect(calls.map((c) => new URL(c.url).searchParams.get('offset'))).toEqual(['0', '10', '20', '30', '40']);

  // a filter and a starting offset are kept on every page; breaking out stops fetching
  calls.length = 0;
  const firstThree = [];
  for await (const job of client.jobs.iterate(projectId, { q: 'B0PAGE', limit: 2, offset: 40 })) {
    firstThree.push(job);
    if (firstThree.length === 3) break;
  }
  expect(calls.map((c) => new URL(c.url).search)).toEqual(['?q=B0PAGE&limit=2&offset=40', '?q=B0PAGE&limit=2&offset=42']);
});

it('webhooks: replace, get, a test delivery verified with the re-exported verify', async () => {
  const { client, projectId } = await setup();
  const receiver = await Receiver.start(() => 204);
  receivers.push(receiver);
  const [config] = await client.webhooks.replace(projectId, [{ name: 'orders', url: receiver.url, triggerAction: 'job.completed' }]);
  expect(config).toMatchObject({
    id: expect.any(String),
    name: 'orders',
    url: receiver.url,
    triggerAction: 'job.completed',
    enabled: true,
    secret: expect.any(String),
  });
  expect((await client.webhooks.get(projectId)).configs).toEqual([config]);

  const result = await client.webhooks.test(projectId, config!.id);
  expect(result).toMatchObject({ success: true, statusCode: 204, event: 'job.completed' });
  const [delivery] = await receiver.waitFor(1);
  expect(verify(config!.secret, delivery!.body, delivery!.headers['x-service-signature'])).toEqual({
    ok: true,
    timestamp: expect.any(Number),
  });
  expect(verify('another secret', delivery!.body, delivery!.headers['x-service-signature'])).toEqual({
    ok: false,
    reason: 'signature_mismatch',
  });
  expect(JSON.parse(delivery!.body)).toMatchObject({
    id: result.deliveryId,
    event: 'job.completed',
    projectId,
    test: true,
    data: { status: 'completed' },
  });

  const { logs } = await client.webhooks.get(projectId, { logLimit: 5 });
  expect(logs).toEqual([
    expect.objectContaining({ deliveryId: result.deliveryId, webhookId: config!.id, success: true, test: true, attempt: 1 }),
  ]);

  // keeping the id and sending the secret back keeps both
  const [kept] = await client.webhooks.replace(projectId, [{ ...config!, enabled: false }]);
  expect(kept).toMatchObject({ id: config!.id, secret: config!.secret, enabled: false });
  expect(await client.webhooks.replace(projectId, [])).toEqual([]);

  const bad = await client.webhooks
    .replace(projectId, [{ url: 'ftp://example.com', triggerAction: 'job.completed' }])
    .catch((e: unknown) => e);
  expect(bad).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
});

it('schedules: create, get, list, iterate, update, delete', async () => {
  const { client, projectId } = await setup();
  const crawlConfig = { type: 'details' as const, targets: ['B0SCHED001'], config: { marketplace: 'US' } };
  const created = await client.schedules.create(projectId, { cron: '0 9 * * 1', crawlConfig });
  expect(created).toMatchObject({
    projectId,
    cron: '0 9 * * 1',
    enabled: true,
    nextRunAt: expect.any(String),
    lastRunAt: null,
    crawlConfig: { type: 'details', targets: ['B0SCHED001'], config: { marketplace: 'US', lang: null } },
  });
  expect(new Date(created.nextRunAt!).getUTCDay()).toBe(1);
  const second = await client.schedules.create(projectId, { cron: '0 */30 * * * *', crawlConfig, enabled: false });
  expect(second.nextRunAt).toBeNull();

  expect(await client.schedules.get(created.id)).toEqual(created);
  const page = await client.schedules.list(projectId, { limit: 1 });
  expect(page.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
  const all = [];
  for await (const s of client.schedules.iterate(projectId, { pageSize: 1 })) all.push(s.id);
  expect(all.sort()).toEqual([created.id, second.id].sort());

  const disabled = await client.schedules.update(created.id, { enabled: false });
  expect(disabled).toMatchObject({ enabled: false, nextRunAt: null });
  const changed = await client.schedules.update(created.id, { enabled: true, cron: '15 6 * * *' });
  expect(changed).toMatchObject({ enabled: true, cron: '15 6 * * *', nextRunAt: expect.any(String) });
  const badCron = await client.schedules.update(created.id, { cron: 'every day' }).catch((e: unknown) => e);
  expect(badCron).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });

  await client.schedules.delete(created.id);
  const gone = await client.schedules.get(created.id).catch((e: unknown) => e);
  expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  // a second delete was not retried, so its 404 is an error
  await expect(client.schedules.delete(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND', attempts: 1 });
});

it('another project in the path is FORBIDDEN; a bad key is UNAUTHORIZED', async () => {
  const { client } = await setup();
  const other = await stack.tenant();
  await expect(client.jobs.list(other.projectId)).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
  const anonymous = new CrawlClient({ apiKey: 'cds_nope', baseUrl });
  await expect(anonymous.jobs.get('job_x')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  expect(() => new CrawlClient({ apiKey: '' })).toThrow(TypeError);
});

it('an export cut off mid-stream is a CrawlNetworkError, and exportToFile leaves no file behind', async () => {
  const { tenant, projectId } = await setup();
  const client = new CrawlClient({ apiKey: tenant.apiKey, baseUrl });
  const job = await client.jobs.create(projectId, { type: 'details', targets: ['B0CUTOFF01'] });
  await client.jobs.waitFor(job.id, { intervalsMs: [50] });
  // 20,000 more rows: far more than socket buffers hold, so the download is in flight when cut
  await sql`
    insert into result_item (job_id, target_idx, position, data)
    select ${job.id}, 1 + g / 10, g % 10 + 1, jsonb_build_object('target', 'B0CUTOFF01', 'asin', 'B0' || lpad(g::text, 8, '0'),
      'title', repeat('long title ', 40), 'missingFields', '[]'::jsonb, 'parserVersion', 'test')
    from generate_series(0, 19999) g`.execute(stack.db);

  // its own server, so that cutting its connections disturbs nothing else
  const own = http.createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('gateway') }));
  await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
  const ownUrl = `http://127.0.0.1:${(own.address() as { port: number }).port}`;
  const cutting = new CrawlClient({
    apiKey: tenant.apiKey,
    baseUrl: ownUrl,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      setImmediate(() => own.closeAllConnections());
      return res;
    },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-client-'));
  try {
    const stream = await cutting.jobs.export(job.id, 'json');
    const err = await text(stream).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrawlNetworkError);
    expect((err as Error).message).toMatch(new RegExp(`export of job ${job.id} broke off after \\d+ bytes`));

    const file = path.join(dir, 'cut.csv');
    await expect(cutting.jobs.exportToFile(job.id, 'csv', file)).rejects.toBeInstanceOf(CrawlNetworkError);
    expect(fs.readdirSync(dir)).toEqual([]);

    // uncut, the whole export arrives
    const whole = await client.jobs.exportToFile(job.id, 'csv', file);
    expect(parse(fs.readFileSync(file, 'utf8'), { columns: true })).toHaveLength(20_001);
    expect(whole.bytes).toBeGreaterThan(1_000_000);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    own.closeAllConnections();
    await new Promise((resolve) => own.close(resolve));
  }
});
