import { ServiceProcess, freePort, waitForHttp } from '@crawl/testing';
import { type Stack, startStack } from './stack';

/**
 * Crawling through proxy exits (docs/crawling.md): the simulator's exits are forward proxies, each its
 * own client identity, and its anti-bot rules are the judge of politeness (an exit over the rate,
 * or without the cookies a first visit set, gets robot checks).
 */
let stack: Stack;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  stack = await startStack({ workers: 0, simulator: { exits: 4 } });
  stack.workerEnv.PROXY_URLS = stack.simulator.exitUrls.join(',');
});
afterEach(async () => {
  for (const p of processes.splice(0)) await p.stop();
  for (const w of stack.workers.splice(0)) await w.close();
  stack.simulator.setAntiBot(null);
  stack.simulator.resetExits();
  stack.simulator.resetLog();
});
afterAll(() => stack.close());

const asins = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `B0${prefix}${String(i).padStart(8 - prefix.length, '0')}`);

it('uses every configured proxy', async () => {
  await stack.startWorker({ CRAWL_CONCURRENCY: '16' });
  const tenant = await stack.tenant({ credits: 1_000 });
  const job = await stack.waitForJob(await stack.createJob(tenant, { type: 'details', targets: asins('ALL', 40) }), 60_000);
  expect(job).toMatchObject({ status: 'completed', progress: { succeeded: 40, failed: 0 } });
  const used = stack.simulator.exits().map((e) => e.requests);
  expect(used).toHaveLength(4);
  for (const requests of used) expect(requests).toBeGreaterThan(0);
  // One request per target, except a fetch the worker gave up on (its timeout, on a loaded
  // machine) and sent again: every extra request is a second one for a target, never another page.
  const pages = stack.simulator.requests().map((r) => r.path);
  expect(new Set(pages)).toEqual(new Set(asins('ALL', 40).map((asin) => `/dp/${asin}`)));
  expect(used.reduce((a, b) => a + b, 0)).toBe(pages.length);
}, 90_000);

it('holds the per-exit limit across two worker processes: the anti-bot rule never fires', async () => {
  // Exits block above 1 request/s. Each process alone would send 0.5 request/s through every
  // exit, so without the shared spacing the two would send 1/s and collide within a second.
  // Not the default 0.8/s: the simulator judges arrival times, which lag the gate's bookings by
  // both processes' and its own event-loop delays, and under the whole suite on 2 cores those
  // passed the default's 250 ms of slack once (an exit got 6 robot checks).
  stack.simulator.setAntiBot({ maxRps: 1, maxCookielessVisits: 6, blockSeconds: 60 });
  const { CRAWL_EXIT_RPS: _fast, ...env } = stack.workerEnv;
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    processes.push(
      ServiceProcess.start('worker', 'services/worker/dist/main.js', {
        ...env,
        CRAWL_EXIT_RPS: '0.5',
        CRAWL_CONCURRENCY: '16',
        METRICS_PORT: String(port),
      }),
    );
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  }
  const tenant = await stack.tenant({ credits: 1_000 });
  const job = await stack.waitForJob(await stack.createJob(tenant, { type: 'details', targets: asins('TWO', 24) }), 90_000);
  // the job's errors are in the comparison so that a failed target shows its code and message
  // (it failed once with 23 of 24 during a long stall of the machine; the cause was not shown)
  expect({ status: job.status, progress: job.progress, errors: job.errors }).toMatchObject({
    status: 'completed',
    progress: { succeeded: 24, failed: 0 },
    errors: [],
  });
  const exits = stack.simulator.exits();
  expect(exits.map((e) => e.blocked)).toEqual([0, 0, 0, 0]);
  expect(exits.reduce((n, e) => n + e.requests, 0)).toBe(24);
  // the simulator's log: no exit ever had two requests within one second
  const byExit = new Map<unknown, number[]>();
  for (const r of stack.simulator.requests()) if (r.exit !== 'direct') byExit.set(r.exit, [...(byExit.get(r.exit) ?? []), r.at]);
  for (const times of byExit.values()) {
    const sorted = times.sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThan(1_000);
  }
}, 120_000);

it('a blocked exit is rested and its targets succeed through the others', async () => {
  stack.simulator.setAntiBot({ maxCookielessVisits: 2, cookieWindowSeconds: 300, blockSeconds: 300 });
  // someone else's cookie-less visits get exit 0 blocked before the job starts
  for (let i = 0; i < 3; i++) await (await fetch(`${stack.simulator.exitUrls[0]}/dp/B0ELSEWHR${i}`)).text();
  expect(stack.simulator.exits()[0]!.blockedUntil).toBeGreaterThan(Date.now());
  stack.simulator.resetLog();
  // 1 request/s per exit: the robot check is back (through the parser thread, which tells it
  // apart from a product page) long before exit 0's next turn, even on a loaded machine
  const worker = await stack.startWorker({ CRAWL_CONCURRENCY: '8', CRAWL_EXIT_RPS: '1', CRAWL_EXIT_COOLDOWN_MS: '60000' });
  const tenant = await stack.tenant({ credits: 1_000 });
  const job = await stack.waitForJob(await stack.createJob(tenant, { type: 'details', targets: asins('REST', 30) }), 60_000);
  expect(job).toMatchObject({ status: 'completed', progress: { succeeded: 30, failed: 0 } });
  const requests = stack.simulator.requests();
  const throughZero = requests.filter((r) => r.exit === 0);
  // one robot check, then it rests
  expect(throughZero).toHaveLength(1);
  expect(throughZero.every((r) => r.blocked)).toBe(true);
  expect(requests.filter((r) => r.exit !== 0 && !r.blocked)).toHaveLength(30);
  const metrics = await worker.metrics();
  expect(metrics).toMatch(/crawl_exit_requests_total\{exit="proxy-1@127\.0\.0\.1:\d+",outcome="blocked"[^}]*\} 1\b/);
  expect(metrics).toMatch(/crawl_exit_cooling_until_seconds\{exit="proxy-1@127\.0\.0\.1:\d+"/);
}, 90_000);
