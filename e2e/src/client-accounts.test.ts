/**
 * The account features through the SDK and the `crawl` CLI against a real gateway and real workers: cost
 * estimate, usage and ledger, retry of the failed targets only, and deleting a job's results.
 */
import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { CrawlApiError, CrawlClient } from '@crawl/client';
import { createApp } from '@crawl/gateway';
import { createMetricsRegistry } from '@crawl/observability';
import { type Stack, startStack } from './stack';

let stack: Stack;
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  stack = await startStack();
  server = http.createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('gateway') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterEach(() => stack.simulator.clearFaults());
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await stack.close();
});

const CRAWL_BIN = path.resolve(__dirname, '../../packages/client/bin/crawl.js');

/** The built `crawl` bin as a user runs it; asynchronous, since the gateway answers from this process. */
function crawl(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CRAWL_BIN, ...argv],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

it('estimate, usage, retry of the failed targets and delete, through the SDK', async () => {
  const tenant = await stack.tenant({ credits: 20 });
  const client = new CrawlClient({ apiKey: tenant.apiKey, baseUrl, retry: { baseDelayMs: 20 } });
  const projectId = tenant.projectId;
  const targets = ['B0ACCOUNT1', 'B0ACCFAIL2', 'B0ACCOUNT3'];

  expect(await client.jobs.estimate(projectId, { type: 'details', targets })).toEqual({
    targets: 3,
    pages: null,
    creditsPerTarget: 2,
    cost: 6,
    balance: 20,
    accepted: true,
    refusal: null,
  });
  const tooBig = await client.jobs.estimate(projectId, { type: 'search', targets: ['a', 'b', 'c', 'd', 'e'] });
  expect(tooBig).toMatchObject({ cost: 25, accepted: false, refusal: { code: 'INSUFFICIENT_CREDITS' } });

  stack.simulator.setFaults([{ match: 'B0ACCFAIL2', fault: { kind: 'not_found' } }]);
  const created = await client.jobs.create(projectId, { type: 'details', targets });
  const done = await client.jobs.waitFor(created.id, { intervalsMs: [50], timeoutMs: 30_000 });
  expect(done).toMatchObject({
    status: 'completed',
    progress: { succeeded: 2, failed: 1 },
    credits: { reserved: 6, consumed: 4, refunded: 2 },
  });

  stack.simulator.clearFaults();
  const retried = await client.jobs.retry(created.id, { targets: 'failed' });
  expect(retried).toMatchObject({ retryOf: created.id, targets: ['B0ACCFAIL2'], credits: { reserved: 2 } });
  await client.jobs.waitFor(retried.id, { intervalsMs: [50], timeoutMs: 30_000 });

  const usage = await client.usage(projectId, { from: new Date(Date.now() - 3600_000), limit: 3 });
  expect(usage.data).toMatchObject({ plan: 'growth', balance: 14, credits: { granted: 20, reserved: 8, consumed: 6, refunded: 2 } });
  expect(usage.data.ledger).toHaveLength(3);
  expect(usage.pagination).toMatchObject({ total: 6, limit: 3, hasMore: true });

  const deleted = await client.jobs.delete(created.id);
  expect(deleted.resultsPurgedAt).toEqual(expect.any(String));
  const gone = await client.jobs.results(created.id).catch((e: unknown) => e);
  expect(gone).toBeInstanceOf(CrawlApiError);
  expect(gone).toMatchObject({ status: 410, code: 'GONE' });
});

it('the crawl CLI: jobs estimate, usage, jobs retry --failed, jobs delete', async () => {
  const tenant = await stack.tenant({ credits: 10 });
  const env = { CRAWL_API_KEY: tenant.apiKey, CRAWL_PROJECT_ID: tenant.projectId, CRAWL_BASE_URL: baseUrl };

  const accepted = await crawl(['jobs', 'estimate', '--type', 'details', 'B0CLIACCT1'], env);
  expect(accepted.code).toBe(0);
  expect(JSON.parse(accepted.stdout)).toMatchObject({ cost: 2, accepted: true });
  const refused = await crawl(['jobs', 'estimate', '--type', 'search', 'a', 'b', 'c'], env);
  expect(refused.code).toBe(1);
  expect(JSON.parse(refused.stdout)).toMatchObject({ cost: 15, accepted: false });
  const deep = await crawl(['jobs', 'estimate', '--type', 'search', '--pages', '2', 'a'], env);
  expect(JSON.parse(deep.stdout)).toMatchObject({ pages: 2, creditsPerTarget: 10, cost: 10, accepted: true });

  stack.simulator.setFaults([{ match: 'B0CLIFAILD', fault: { kind: 'not_found' } }]);
  const jobId = (await crawl(['jobs', 'create', '--type', 'details', '--quiet', 'B0CLIACCT1', 'B0CLIFAILD'], env)).stdout.trim();
  await stack.waitForJob(jobId);
  stack.simulator.clearFaults();
  const retry = await crawl(['jobs', 'retry', jobId, '--failed'], env);
  expect(retry.code).toBe(0);
  expect(JSON.parse(retry.stdout)).toMatchObject({ retryOf: jobId, targets: ['B0CLIFAILD'] });

  const usage = await crawl(['usage', '--limit', '2'], env);
  expect(usage.code).toBe(0);
  // the bare usage object, like every other command; the ledger's paging is a line on stderr
  const printed = JSON.parse(usage.stdout);
  expect(printed).toMatchObject({ balance: expect.any(Number), plan: 'growth', ledger: [expect.any(Object), expect.any(Object)] });
  expect(printed).not.toHaveProperty('data');
  expect(printed).not.toHaveProperty('pagination');
  expect(usage.stderr).toMatch(/^ledger: entries 1-2 of \d+; --offset 2 for the next page\n$/);
  const next = await crawl(['usage', '--limit', '2', '--offset', '2'], env);
  expect(JSON.parse(next.stdout).ledger).toHaveLength(2);
  expect(next.stderr).toMatch(/^(ledger: entries 3-4 of \d+; --offset 4 for the next page\n)?$/);

  const del = await crawl(['jobs', 'delete', jobId], env);
  expect(del.code).toBe(0);
  expect(JSON.parse(del.stdout).resultsPurgedAt).toEqual(expect.any(String));
  const results = await crawl(['results', jobId], env);
  expect(results.code).toBe(2);
  expect(results.stderr).toMatch(/GONE/);
});
