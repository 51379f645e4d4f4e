import { reconcileQueuedJobs } from '@crawl/jobs';
import { createTenant, PrivateRedis } from '@crawl/testing';
import { createJobService } from '../routes/jobs/jobs.service';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/**
 * Redis dies while clients create jobs (a private redis-server, never the shared one): each
 * creation is either accepted (202) or refused with 503, and every accepted job reaches the
 * queue once Redis is back.
 */
let redis: PrivateRedis;
let h: Harness;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  h = await startHarness({ redisUrl: redis.url, rateLimit: true });
});
afterAll(async () => {
  await h.close();
  await redis.kill();
});

/** ioredis backs off up to 2 s between reconnects after a long outage. */
async function waitForReconnect(): Promise<void> {
  for (let i = 0; i < 100 && h.deps.redis.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 100));
  expect(h.deps.redis.status).toBe('ready');
}

it('no accepted job is lost when Redis is killed during creation', async () => {
  const tenant = await createTenant(h.deps.db, { credits: 100_000 });
  const accepted: string[] = [];
  const statuses: number[] = [];
  const create = async (i: number) => {
    const res = await h.http
      .post(`/v1/key/projects/${tenant.projectId}/jobs`)
      .set(bearer(tenant.apiKey))
      .send({ type: 'search', targets: [`outage keyword ${i}`] });
    statuses.push(res.status);
    if (res.status === 202) accepted.push(res.body.data.id);
    else expect(res.body.error.code).toBe('UNAVAILABLE');
  };

  let i = 0;
  const burst = async (n: number) => {
    await Promise.all(Array.from({ length: n }, () => create(i++)));
  };
  await burst(10);
  const killing = redis.kill();
  await burst(20);
  await killing;
  await burst(20); // Redis fully down
  await redis.start();
  await waitForReconnect();
  await burst(10);

  expect(statuses.every((s) => s === 202 || s === 503)).toBe(true);
  expect(accepted.length).toBeGreaterThan(0);

  const deps = { jobs: h.deps.jobs, jobService: createJobService(h.deps), log: h.deps.log };
  expect(await reconcileQueuedJobs(deps, { graceMs: 0, batch: 1_000 })).toBe(accepted.length);
  const queue = h.deps.producer['queue']('crawl');
  for (const id of accepted) {
    const job = await queue.getJob(id);
    expect(job?.data).toEqual({ jobId: id });
  }
  // Every accepted job is in Postgres, queued, with its credits reserved.
  const { total } = await h.deps.jobs.list({ projectId: tenant.projectId, status: 'queued', limit: 1, offset: 0 });
  expect(total).toBe(accepted.length);
  const ledger = await h.deps.credits.ledgerTotals(tenant.organizationId);
  expect(ledger.reserve).toBe(accepted.length * 5);
});

it('readiness reports Redis down and GETs still answer (rate limiter fails open)', async () => {
  const tenant = await createTenant(h.deps.db);
  await redis.kill();
  try {
    const ready = await h.http.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.data).toMatchObject({ postgres: true, redis: false });
    const list = await h.http.get(`/v1/key/projects/${tenant.projectId}/jobs`).set(bearer(tenant.apiKey));
    expect(list.status).toBe(200);
    expect(list.headers['x-ratelimit-limit']).toBeUndefined();
  } finally {
    await redis.start();
    await waitForReconnect();
  }
});
