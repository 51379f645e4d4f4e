import { sql } from '@crawl/db';
import { freePort, ServiceProcess, waitForHttp } from '@crawl/testing';
import { type Stack, startStack } from './stack';

/**
 * SIGTERM to a worker process with 100 targets in flight through proxy exits at the default
 * politeness (0.8 requests/s per exit, so nearly all of them wait for an exit's turn): the
 * worker hands the waiting tasks back at once and exits 0 within its grace (SHUTDOWN_GRACE_MS,
 * default 10 s); a second worker takes them at once (no lock has to expire) and finishes the job
 * with every target crawled exactly once and exact credits.
 */
let stack: Stack;
const processes: ServiceProcess[] = [];
const GRACE_MS = 10_000; // the worker's default SHUTDOWN_GRACE_MS

beforeAll(async () => {
  stack = await startStack({ workers: 0, simulator: { exits: 4 } });
  // the default politeness and cooldowns, through proxy exits, as a deployment crawls
  for (const name of ['CRAWL_EXIT_RPS', 'CRAWL_EXIT_COOLDOWN_MS', 'CRAWL_RETRY_BASE_MS', 'FETCH_TIMEOUT_MS']) delete stack.workerEnv[name];
  stack.workerEnv.PROXY_URLS = stack.simulator.exitUrls.join(',');
  // every target of the job in flight in one process at once
  stack.workerEnv.CRAWL_CONCURRENCY = '128';
  stack.workerEnv.CRAWL_CONCURRENCY_MIN = '128';
});
afterAll(async () => {
  for (const p of processes) await p.stop('SIGKILL');
  await stack.close();
});

async function spawnWorker(): Promise<ServiceProcess> {
  const port = await freePort();
  const p = ServiceProcess.start('worker', 'services/worker/dist/main.js', { ...stack.workerEnv, METRICS_PORT: String(port) });
  processes.push(p);
  await waitForHttp(`http://127.0.0.1:${port}/healthz`);
  return p;
}

it('SIGTERM hands waiting tasks back at once, exits 0 within the grace, and another worker finishes the job exactly', async () => {
  const tenant = await stack.tenant({ credits: 1_000 });
  // fetches take a moment, so some are in flight when the signal comes
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 300 } }]);
  const first = await spawnWorker();
  const targets = Array.from({ length: 100 }, (_, i) => `B0STOP${String(i).padStart(4, '0')}`);
  const id = await stack.createJob(tenant, { type: 'details', targets });
  // a few crawled: the other ~95 tasks are active in the first worker, waiting for an exit's turn
  await stack.waitForJob(id, 60_000, (job) => job.progress.succeeded >= 5);
  await spawnWorker(); // idle: the queue holds no waiting task
  await new Promise((r) => setTimeout(r, 500));

  const requested = new Set(stack.simulator.requests().map((r) => r.path));
  const signalled = Date.now();
  const stopped = first.stop('SIGTERM').then(() => Date.now());
  const job = await stack.waitForJob(id, 120_000);
  const exitedAt = await stopped;

  expect(first.exitCode).toBe(0);
  // a real bound (the issue's): within the grace; margin for a loaded machine's process teardown
  expect(exitedAt - signalled).toBeLessThan(GRACE_MS + 2_000);

  // The first page not requested before the signal (a task that had not started fetching) is
  // requested by the other worker within 2 s: it was handed back, not left locked. Its fetch
  // also waits for its exit's next turn (at most 1.25 s at 0.8 requests/s).
  const later = stack.simulator.requests().filter((r) => r.path.startsWith('/dp/') && !requested.has(r.path) && r.at >= signalled);
  expect(later.length).toBeGreaterThan(0);
  expect(Math.min(...later.map((r) => r.at)) - signalled).toBeLessThan(2_000);

  expect(job).toMatchObject({ status: 'completed', progress: { total: 100, succeeded: 100, failed: 0 }, resultsCount: 100 });
  expect(job.credits).toEqual({ reserved: 200, consumed: 200, refunded: 0 });
  const rows = await sql<{ n: number; targets: number }>`
    select count(*)::int as n, count(distinct target_idx)::int as targets from result_item where job_id = ${id}`.execute(stack.db);
  expect(rows.rows[0]).toEqual({ n: 100, targets: 100 });
  // each page fetched once: no task was run twice, none was refetched after the hand-back
  const perTarget = new Map<string, number>();
  for (const r of stack.simulator.requests()) if (r.path.startsWith('/dp/')) perTarget.set(r.path, (perTarget.get(r.path) ?? 0) + 1);
  expect(perTarget.size).toBe(100);
  expect([...perTarget.values()].every((n) => n === 1)).toBe(true);
  const ledger = await stack.gateway.credits.ledgerTotals(tenant.organizationId);
  expect(ledger).toEqual({ grant: 1_000, reserve: 200, refund: 0, consume: 200 });
}, 180_000);
