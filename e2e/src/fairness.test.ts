import { sql } from '@crawl/db';
import { auth, type Stack, startStack } from './stack';

/**
 * Crawl fairness (docs/crawling.md "Fairness between tenants"): per organization between organizations,
 * per job within one. One worker crawling 2 targets at a time against a simulator answering in
 * 20-40 ms keeps the order of crawls close to the queue's order, so shares are deterministic.
 * A window of 8 tasks per organization keeps the runs short; the mechanism is the same at the
 * default CRAWL_ORG_WINDOW.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workerEnv: { CRAWL_CONCURRENCY: '2', CRAWL_ORG_WINDOW: '8' } });
});
afterAll(() => stack.close());
afterEach(() => stack.simulator.clearFaults());

/** `n` distinct ASINs starting with `prefix`. */
const asins = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(10 - prefix.length, '0')}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function cancel(tenant: Awaited<ReturnType<Stack['tenant']>>, jobId: string): Promise<void> {
  const res = await stack.http.post(`/v1/key/jobs/${jobId}/cancel`).set(auth(tenant));
  expect([200, 409]).toContain(res.status); // 409: it finished meanwhile
}

it("a 1-target job of another project is not starved by a big job's backlog", async () => {
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 40 } }]);
  const big = await stack.tenant();
  const small = await stack.tenant();
  const bigJob = await stack.createJob(big, {
    type: 'details',
    targets: Array.from({ length: 100 }, (_, i) => `B0FAIR${String(i).padStart(4, '0')}`),
  });
  await stack.waitForJob(bigJob, 30_000, (job) => job.progress.succeeded >= 10);
  const smallJob = await stack.createJob(small, { type: 'details', targets: ['B0SMALL001'] });
  const done = await stack.waitForJob(smallJob, 30_000);
  expect(done.status).toBe('completed');
  const bigNow = await stack.waitForJob(bigJob, 1_000, () => true);
  // FIFO would have crawled all 100 first; a newcomer organization's first tasks run next.
  expect(bigNow.progress.succeeded).toBeLessThan(40);
  await cancel(big, bigJob);
}, 90_000);

it('organization B with 1 job gets at least 40% of the crawls while organization A with 20 jobs also has work', async () => {
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 20 } }]);
  const a = await stack.tenant();
  const b = await stack.tenant();
  const aJobs: string[] = [];
  for (let j = 0; j < 20; j++)
    aJobs.push(await stack.createJob(a, { type: 'details', targets: asins(`B0A${String(j).padStart(2, '0')}`, 100) }));
  const crawledOfA = async () =>
    (
      await sql<{
        n: number;
      }>`select count(*)::int as n from job_target where job_id = any(${aJobs}::text[]) and finished_at is not null`.execute(stack.db)
    ).rows[0]!.n;
  for (let i = 0; i < 300 && (await crawledOfA()) < 30; i++) await sleep(100); // A's backlog is established

  const bJob = await stack.createJob(b, { type: 'details', targets: asins('B0B', 100) });
  const bDone = await stack.waitForJob(bJob, 90_000);
  expect(bDone).toMatchObject({ status: 'completed', progress: { succeeded: 100 } });

  // Crawls finished between B's start and B's end, per organization.
  const { rows } = await sql<{ org: 'A' | 'B'; n: number }>`
    select case when j.organization_id = ${b.organizationId} then 'B' else 'A' end as org, count(*)::int as n
    from job_target t join job j on j.id = t.job_id
    where j.organization_id in (${a.organizationId}, ${b.organizationId}) and t.status in ('succeeded', 'failed')
      and t.finished_at >= (select started_at from job where id = ${bJob})
      and t.finished_at <= (select finished_at from job where id = ${bJob})
    group by 1`.execute(stack.db);
  const count = Object.fromEntries(rows.map((r) => [r.org, r.n])) as Record<'A' | 'B', number>;
  const share = count.B / (count.A + count.B);
  console.log(`fairness: while both had work, B crawled ${count.B} and A ${count.A} targets: B's share ${(share * 100).toFixed(1)}%`);
  const pendingOfA = (
    await sql<{ n: number }>`select count(*)::int as n from job_target where job_id = any(${aJobs}::text[]) and status = 'pending'`.execute(
      stack.db,
    )
  ).rows[0]!.n;
  expect(pendingOfA).toBeGreaterThan(0); // A had work all along
  expect(count.B).toBe(100);
  // Per job (the old rule) B would get 1/21 of the crawls, under 5%.
  expect(share).toBeGreaterThanOrEqual(0.4);

  for (const id of aJobs) await cancel(a, id);
  // The queue holds at most the window of each organization: cancelled tasks drain at once.
  await stack.waitForJob(aJobs[19]!, 5_000);
}, 180_000);

it('an organization submitting small jobs back to back gets no more than its share from a backlogged one', async () => {
  // Each of A's jobs is smaller than the window and A waits for it before the next: without
  // A's recent service counting, every job would be a newcomer's, run ahead of B's backlog
  // (A took 72% of the crawls in this scenario).
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 100 } }]);
  const a = await stack.tenant();
  const b = await stack.tenant();
  const bJob = await stack.createJob(b, { type: 'details', targets: asins('B0SQB', 400) });
  await stack.waitForJob(bJob, 30_000, (job) => job.progress.succeeded >= 20);
  const from = new Date();
  for (let r = 0; r < 10; r++) {
    const id = await stack.createJob(a, { type: 'details', targets: asins(`B0SQ${String(r).padStart(2, '0')}`, 7) });
    expect((await stack.waitForJob(id, 30_000)).status).toBe('completed');
  }
  const to = new Date();
  const { rows } = await sql<{ org: 'A' | 'B'; n: number }>`
    select case when j.organization_id = ${a.organizationId} then 'A' else 'B' end as org, count(*)::int as n
    from job_target t join job j on j.id = t.job_id
    where j.organization_id in (${a.organizationId}, ${b.organizationId}) and t.finished_at between ${from} and ${to}
    group by 1`.execute(stack.db);
  const count = Object.fromEntries(rows.map((r) => [r.org, r.n])) as Record<'A' | 'B', number>;
  console.log(
    `fairness: A's 10 jobs of 7 targets back to back: A crawled ${count.A} and B ${count.B} targets: A's share ${((count.A / (count.A + count.B)) * 100).toFixed(1)}%`,
  );
  expect(count.A).toBe(70);
  expect(count.A / (count.A + count.B)).toBeLessThanOrEqual(0.6);
  await cancel(b, bJob);
}, 120_000);

it('within an organization, a 1-target job created after a 200-target job finishes before the big one is 40% done', async () => {
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 20 } }]);
  const org = await stack.tenant();
  const sameOrg = await stack.tenant({ org: org.organizationId }); // another project of the same organization
  const bigJob = await stack.createJob(org, { type: 'details', targets: asins('B0BIG', 200) });
  await stack.waitForJob(bigJob, 30_000, (job) => job.progress.succeeded >= 10);
  const smallJob = await stack.createJob(sameOrg, { type: 'details', targets: ['B0ORGSMALL'] });
  const done = await stack.waitForJob(smallJob, 30_000);
  expect(done.status).toBe('completed');
  const bigNow = await stack.waitForJob(bigJob, 1_000, () => true);
  expect(bigNow.progress.succeeded + bigNow.progress.failed).toBeLessThan(80);
  await cancel(org, bigJob);
}, 90_000);
