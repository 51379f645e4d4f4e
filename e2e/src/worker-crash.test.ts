import { sql } from '@crawl/db';
import { ServiceProcess } from '@crawl/testing';
import { type Stack, startStack } from './stack';

/**
 * SIGKILL of a worker process in the middle of a 200-target job crawled through proxy exits: its in-flight tasks are
 * taken over once their locks expire, the job completes, no target is stored twice and the
 * credits are exact.
 */
let stack: Stack;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  stack = await startStack({ workers: 0, simulator: { exits: 3 }, workerEnv: { CRAWL_LOCK_MS: '2000', CRAWL_CONCURRENCY: '6' } });
  // through proxy exits, as a scaled-out deployment crawls
  stack.workerEnv.PROXY_URLS = stack.simulator.exitUrls.join(',');
});
afterAll(async () => {
  for (const p of processes) await p.stop('SIGKILL');
  await stack.close();
});

it('a job survives a worker killed mid-crawl', async () => {
  const tenant = await stack.tenant({ credits: 1_000 });
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 40 } }]);
  const spawnWorker = () => {
    const p = ServiceProcess.start('worker', 'services/worker/dist/main.js', stack.workerEnv);
    processes.push(p);
    return p;
  };
  const victim = spawnWorker();
  spawnWorker();
  const targets = Array.from({ length: 200 }, (_, i) => `B0KILL${String(i).padStart(4, '0')}`);
  const id = await stack.createJob(tenant, { type: 'details', targets });
  await stack.waitForJob(id, 60_000, (job) => job.progress.succeeded >= 40);
  await victim.stop('SIGKILL');
  await new Promise((r) => setTimeout(r, 300));
  spawnWorker(); // the orchestrator restarts it

  const job = await stack.waitForJob(id, 90_000);
  expect(job).toMatchObject({ status: 'completed', progress: { total: 200, succeeded: 200, failed: 0 }, resultsCount: 200 });
  expect(job.credits).toEqual({ reserved: 400, consumed: 400, refunded: 0 });

  const rows = await sql<{ n: number; targets: number }>`
    select count(*)::int as n, count(distinct target_idx)::int as targets from result_item where job_id = ${id}`.execute(stack.db);
  expect(rows.rows[0]).toEqual({ n: 200, targets: 200 });
  const ledger = await stack.gateway.credits.ledgerTotals(tenant.organizationId);
  expect(ledger).toEqual({ grant: 1_000, reserve: 400, refund: 0, consume: 400 });
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(600);
}, 120_000);
