import { auth, type Stack, startStack } from './stack';

/**
 * The autoscalers' signal (infra/README.md "Capacity"): `crawl_backlog_targets` counts the work
 * really waiting, from Postgres, while the queue shows only each organization's release window
 * of it. One organization with 10,000 targets (10 jobs of the 1,000-target maximum) and a
 * marketplace slow enough that almost nothing finishes during the test.
 */
const WINDOW = 128;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workerEnv: { CRAWL_CONCURRENCY: '2', CRAWL_ORG_WINDOW: String(WINDOW) } });
});
afterAll(() => stack.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function gauge(name: string): Promise<number> {
  const text = await stack.gateway.metrics.getSingleMetricAsString(name);
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  if (!line) throw new Error(`no ${name} sample in:\n${text}`);
  return Number(line.split(' ').at(-1));
}

it('a lone organization with 10,000 targets shows a backlog near 10,000 while its queue holds at most the window', async () => {
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 5_000 } }]);
  const tenant = await stack.tenant({ plan: 'enterprise', credits: 100_000 });
  const jobs: string[] = [];
  for (let j = 0; j < 10; j++) {
    const targets = Array.from({ length: 1000 }, (_, i) => `B0G${String(j)}${String(i).padStart(6, '0')}`);
    jobs.push(await stack.createJob(tenant, { type: 'details', targets }));
  }
  // The worker starts every job and releases the organization's window of targets.
  let queued = 0;
  for (let i = 0; i < 200 && queued < WINDOW; i++) {
    const depths = (await stack.gateway.producer.depths()).crawl;
    queued = (depths.prioritized ?? 0) + (depths.waiting ?? 0) + (depths.active ?? 0);
    if (queued < WINDOW) await sleep(100);
  }
  const depths = (await stack.gateway.producer.depths()).crawl;
  const inQueue = (depths.prioritized ?? 0) + (depths.waiting ?? 0) + (depths.active ?? 0) + (depths.delayed ?? 0);
  const backlog = await gauge('crawl_backlog_targets');
  console.log(`backlog gauge ${backlog}, crawl queue ${inQueue} (${JSON.stringify(depths)})`);
  expect(inQueue).toBeGreaterThan(0);
  // The window of target tasks, plus the start task of each job not started yet.
  expect(inQueue).toBeLessThanOrEqual(WINDOW + jobs.length);
  expect(backlog).toBeGreaterThanOrEqual(10_000 - WINDOW);
  expect(backlog).toBeLessThanOrEqual(10_000);

  // Outcomes leave the backlog: cancelled jobs are no longer waiting work.
  for (const id of jobs) expect([200, 409]).toContain((await stack.http.post(`/v1/key/jobs/${id}/cancel`).set(auth(tenant))).status);
  expect(await gauge('crawl_backlog_targets')).toBe(0);
}, 120_000);
