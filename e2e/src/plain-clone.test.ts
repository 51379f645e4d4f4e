/**
 * A plain clone (no saved real pages next to the checkout, docs/testing.md "Real marketplace
 * pages") under `pnpm start:sim`: services/all with --simulator in its own process, as a
 * newcomer starts it, with `CRAWL_REAL_PAGES_DIR=none`. One job of each of the five types
 * completes with rows from the simulator's built-in pages, and the CLI example of
 * docs/http-api.md (`crawl jobs create --type reviews --pages 3 ...`) works against it.
 *
 * Why the variable and not a copy of the checkout in a temporary folder: the variable is read by
 * the very function that otherwise finds `../shared/fixtures/amazon` (the simulator's default
 * fixtures dir), and the stack's health says which folder it uses, which the test checks; a copy
 * is 500+ MB of node_modules per run, and in a working tree other builds write to, it could
 * catch a half-written dist file.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, freePort, type TestDatabase, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'packages/client/dist/cli.js');
const run = promisify(execFile);

let database: TestDatabase;
let stack: ChildProcess;
let output = '';
let api = '';
let simulator = '';
let key = '';
let project = '';

beforeAll(async () => {
  database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CRAWL_REAL_PAGES_DIR: 'none',
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: uniquePrefix('plain'),
      PORT: String(port),
      METRICS_PORT: '',
      LOG_LEVEL: 'silent',
    };
    delete env.CRAWL_EXIT_RPS;
    output = '';
    stack = spawn(process.execPath, [path.join(ROOT, 'services/all/dist/main.js'), '--simulator'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stack.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    stack.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 30_000;
    while (!output.includes('  webhooks ') && stack.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    api = `http://127.0.0.1:${port}`;
    // a port taken between freePort() and listen: the stack says so and exits; try another
    if (!output.includes(`port ${port} is already in use`)) break;
    if (stack.exitCode === null) await new Promise((resolve) => stack.once('exit', resolve));
  }
  simulator = /crawling (http:\/\/\S+) \(the simulator\)/.exec(output)?.[1] ?? '';
  expect({ simulator: Boolean(simulator), output }).toMatchObject({ simulator: true });
  const admin = await run(
    process.execPath,
    [
      path.join(ROOT, 'packages/cli/dist/main.js'),
      'create-project',
      '--name',
      'Plain clone',
      '--plan',
      'starter',
      '--credits',
      '1000',
      '--json',
    ],
    { env: { ...process.env, DATABASE_URL: database.url }, cwd: ROOT },
  );
  ({ apiKey: key, projectId: project } = JSON.parse(admin.stdout) as { apiKey: string; projectId: string });
}, 90_000);

afterAll(async () => {
  if (stack && stack.exitCode === null) {
    const exited = new Promise((resolve) => stack.once('exit', resolve));
    stack.kill('SIGTERM');
    await exited;
  }
  await database?.drop();
}, 30_000);

const call = async (method: string, url: string, body?: unknown) => {
  const res = await fetch(`${api}${url}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

async function finished(id: string): Promise<any> {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const job = (await call('GET', `/v1/key/jobs/${id}`)).body.data;
    if (!['queued', 'running'].includes(job.status) || Date.now() > deadline) return job;
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function rows(id: string): Promise<any[]> {
  return (await call('GET', `/v1/key/jobs/${id}/results?limit=100&offset=0`)).body.data;
}

it('the simulator of `pnpm start:sim` runs without saved pages', async () => {
  const health = (await (await fetch(`${simulator}/__sim/health`)).json()) as { fixturesDir: string | null; builtInValues: string };
  expect(health).toMatchObject({ fixturesDir: null, builtInValues: 'varied' });
});

it('one job of each type completes with rows from the built-in pages', async () => {
  // an offer listing of 2 panel pages: the second comes from the panel's "See more" request
  expect((await fetch(`${simulator}/__sim/pages`, { method: 'PUT', body: JSON.stringify({ B0PLAIN0F1: 2 }) })).status).toBe(200);
  const bodies = {
    details: { type: 'details', targets: ['B0PLAIN0D1', 'B0PLAIN0D2'], config: { marketplace: 'DE' } },
    search: { type: 'search', targets: ['garden hose'], config: { marketplace: 'US', pages: 2 } },
    offers: { type: 'offers', targets: ['B0PLAIN0F1'], config: { marketplace: 'US', pages: 2 } },
    reviews: { type: 'reviews', targets: ['B0PLAIN0R1'], config: { marketplace: 'UK', pages: 2 } },
    bestsellers: {
      type: 'bestsellers',
      targets: ['https://www.amazon.com/gp/bestsellers/electronics', 'https://www.amazon.com/gp/bestsellers/electronics?pg=2'],
      config: { marketplace: 'US' },
    },
  };
  const ids: Record<string, string> = {};
  for (const [type, body] of Object.entries(bodies)) {
    const created = await call('POST', `/v1/key/projects/${project}/jobs`, body);
    expect([type, created.status]).toEqual([type, 202]);
    ids[type] = created.body.data.id;
  }
  for (const [type, id] of Object.entries(ids)) {
    const job = await finished(id);
    expect({ type, status: job.status, failed: job.progress?.failed }).toEqual({ type, status: 'completed', failed: 0 });
  }

  const details = await rows(ids.details!);
  expect(details).toHaveLength(2);
  for (const item of details) {
    expect(item).toMatchObject({ title: expect.any(String), rating: expect.any(Number), reviewsCount: expect.any(Number) });
    // DE: euros, read from "1.234,56 €"-style prices (an unavailable product has none)
    if (item.price !== null) expect(item.price.currency).toBe('EUR');
  }
  const search = await rows(ids.search!);
  expect(search.length).toBeGreaterThanOrEqual(20);
  expect(new Set(search.map((r) => r.page))).toEqual(new Set([1, 2]));
  const offers = await rows(ids.offers!);
  expect(offers.length).toBeGreaterThan(10);
  expect(offers.filter((o) => o.isBuyBox)).toHaveLength(1);
  expect(new Set(offers.map((o) => o.seller?.name)).size).toBeGreaterThanOrEqual(5);
  const reviews = await rows(ids.reviews!);
  expect(reviews).toHaveLength(20);
  expect(reviews.every((r) => r.country === 'United Kingdom' && /^\d{4}-\d\d-\d\d$/.test(r.date))).toBe(true);
  const lists = await rows(ids.bestsellers!);
  expect(lists.map((r) => r.rank).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  expect(lists.filter((r) => r.title !== null).length).toBe(60);
}, 60_000);

it('the CLI example: crawl jobs create --type reviews --pages 3, then crawl jobs wait', async () => {
  const env = { PATH: process.env.PATH, CRAWL_API_KEY: key, CRAWL_PROJECT_ID: project, CRAWL_BASE_URL: api };
  const created = await run(
    process.execPath,
    [CLI, 'jobs', 'create', '--type', 'reviews', '--pages', '3', '--sort', 'recent', '--quiet', 'B0DR8G428S'],
    {
      env,
    },
  );
  const id = created.stdout.trim();
  expect(id).toMatch(/^job_/);
  await run(process.execPath, [CLI, 'jobs', 'wait', id], { env, timeout: 40_000 });
  expect((await finished(id)).status).toBe('completed');
  const reviews = await rows(id);
  expect(reviews).toHaveLength(30);
  expect(new Set(reviews.map((r) => r.page))).toEqual(new Set([1, 2, 3]));
  expect(reviews.every((r) => r.asin === 'B0DR8G428S' && r.rating >= 1 && r.body)).toBe(true);
}, 60_000);

it('a drift epoch set on the simulator shows up as changes of the tracked products on a recrawl', async () => {
  const targets = ['B0PLAIN0T1', 'B0PLAIN0T2', 'B0PLAIN0T3'];
  const crawl = async () => {
    const created = await call('POST', `/v1/key/projects/${project}/jobs`, { type: 'details', targets, config: { marketplace: 'US' } });
    expect((await finished(created.body.data.id)).status).toBe('completed');
  };
  await crawl();
  const put = await fetch(`${simulator}/__sim/drift`, { method: 'PUT', body: JSON.stringify({ '*': 1 }) });
  expect(put.status).toBe(200);
  await crawl();
  const tracked = (await call('GET', `/v1/key/projects/${project}/tracked-targets?marketplace=US`)).body.data as any[];
  const changed = tracked.filter((t) => targets.includes(t.asin) && t.changeCount > 0);
  expect(changed.length).toBeGreaterThanOrEqual(2);
}, 60_000);
