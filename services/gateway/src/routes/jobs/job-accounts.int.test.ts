import {
  CreditRepository,
  EventRepository,
  JobRepository,
  JobTargetRepository,
  ResultRepository,
  RetentionRepository,
  sql,
  TrackingRepository,
  AlertStateRepository,
} from '@crawl/db';
import { DEFAULT_RETENTION_DAYS, recordTargetOutcome, runRetentionSweep, type TargetOutcome } from '@crawl/jobs';
import { createTenant, detailsItem, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

/**
 * The account features on the job endpoints: X-Credits-Remaining, credits consumed so far, cost estimates,
 * retry of failed targets only, and DELETE of a job's results (410 afterwards).
 */
let h: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db, { credits: 1_000 });
});
afterAll(() => h.close());

const progressDeps = () => ({
  db: h.deps.db,
  jobs: new JobRepository(h.deps.db),
  targets: new JobTargetRepository(h.deps.db),
  results: new ResultRepository(h.deps.db),
  credits: new CreditRepository(h.deps.db),
  events: new EventRepository(h.deps.db),
  tracking: new TrackingRepository(h.deps.db),
  alerts: new AlertStateRepository(),
});

const ok = (asin: string): TargetOutcome => ({ kind: 'succeeded', items: [detailsItem(asin)], attempts: 1 });
const blocked: TargetOutcome = { kind: 'failed', code: 'BLOCKED', message: 'robot check page', attempts: 3 };

async function createDetailsJob(owner: TestTenant, asins: string[], headers: Record<string, string> = {}) {
  return h.http
    .post(`/v1/key/projects/${owner.projectId}/jobs`)
    .set(bearer(owner.apiKey))
    .set(headers)
    .send({ type: 'details', targets: asins });
}

/** Starts a job and records the given outcomes for its first targets (the worker's own path). */
async function crawl(jobId: string, targets: string[], outcomes: TargetOutcome[]): Promise<void> {
  await h.deps.jobs.markRunning(jobId);
  for (const [idx, outcome] of outcomes.entries()) await recordTargetOutcome(progressDeps(), jobId, idx, targets[idx]!, outcome);
}

describe('X-Credits-Remaining and credits consumed so far', () => {
  it('carries the balance after the reservation on create, retry and replays', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    const first = await createDetailsJob(owner, ['B0DR8G428S'], { 'Idempotency-Key': 'credits-1' });
    expect(first.status).toBe(202);
    expect(first.headers['x-credits-remaining']).toBe('98');
    await createDetailsJob(owner, ['B073WRF565']);
    // A replay answers the same job, and the balance now (not the one of the first answer).
    const replay = await createDetailsJob(owner, ['B0DR8G428S'], { 'Idempotency-Key': 'credits-1' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(first.body.data.id);
    expect(replay.headers['x-credits-remaining']).toBe('96');
    await h.http.post(`/v1/key/jobs/${first.body.data.id}/cancel`).set(bearer(owner.apiKey)).expect(200);
    const retry = await h.http.post(`/v1/key/jobs/${first.body.data.id}/retry`).set(bearer(owner.apiKey));
    expect(retry.status).toBe(202);
    expect(retry.headers['x-credits-remaining']).toBe('96');
  });

  it('shows what a running job consumed so far, from the targets that produced results', async () => {
    const asins = ['B0AAAAAAA1', 'B0AAAAAAA2', 'B0AAAAAAA3'];
    const job = await createDetailsJob(tenant, asins);
    await crawl(job.body.data.id, asins, [ok(asins[0]!), blocked]);
    const running = await h.http.get(`/v1/key/jobs/${job.body.data.id}`).set(bearer(tenant.apiKey));
    expect(running.body.data).toMatchObject({ status: 'running', credits: { reserved: 6, consumed: 2, refunded: 0 } });
    await recordTargetOutcome(progressDeps(), job.body.data.id, 2, asins[2]!, ok(asins[2]!));
    const done = await h.http.get(`/v1/key/jobs/${job.body.data.id}`).set(bearer(tenant.apiKey));
    expect(done.body.data).toMatchObject({ status: 'completed', credits: { reserved: 6, consumed: 4, refunded: 2 } });
  });
});

describe('POST /projects/{id}/jobs/estimate', () => {
  const estimate = (body: unknown, owner = tenant) =>
    h.http
      .post(`/v1/key/projects/${owner.projectId}/jobs/estimate`)
      .set(bearer(owner.apiKey))
      .send(body as object);

  it('answers cost, balance and acceptance after de-duplication, and creates nothing', async () => {
    const owner = await createTenant(h.deps.db, { credits: 12 });
    const res = await estimate({ type: 'search', targets: ['lamp', ' Lamp ', 'desk'] }, owner);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ targets: 2, pages: 1, creditsPerTarget: 5, cost: 10, balance: 12, accepted: true, refusal: null });
    const tooMuch = await estimate({ type: 'search', targets: ['a', 'b', 'c'] }, owner);
    expect(tooMuch.body.data).toMatchObject({ cost: 15, balance: 12, accepted: false, refusal: { code: 'INSUFFICIENT_CREDITS' } });
    const jobs = await h.http.get(`/v1/key/projects/${owner.projectId}/jobs`).set(bearer(owner.apiKey));
    expect(jobs.body.pagination.total).toBe(0);
    expect(await h.deps.credits.balance(owner.organizationId)).toBe(12);
  });

  it.each([
    ['a bad ASIN', { type: 'details', targets: ['not-an-asin'] }, 'body.targets.0'],
    ['no targets', { type: 'search', targets: [] }, 'body.targets'],
    ['an unknown field', { type: 'search', targets: ['x'], extra: true }, 'body'],
    ['1,001 targets', { type: 'search', targets: Array.from({ length: 1001 }, (_, i) => `k${i}`) }, 'body.targets'],
  ])('rejects %s with the same 400 as a create', async (_name, body, path) => {
    const [est, create] = [
      await estimate(body),
      await h.http.post(`/v1/key/projects/${tenant.projectId}/jobs`).set(bearer(tenant.apiKey)).send(body),
    ];
    expect(est.status).toBe(400);
    expect(est.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    expect(est.body.error.details).toEqual(create.body.error.details);
  });

  it('counts as one request of the rate limit, like a GET', async () => {
    const limited = await startHarness({ rateLimit: true });
    try {
      // A one-minute window (enterprise): the three requests fall in the same window.
      const owner = await createTenant(limited.deps.db, { plan: 'enterprise', perMinute: 1_000 });
      const remaining = async (req: Promise<{ headers: Record<string, string> }>) => Number((await req).headers['x-ratelimit-remaining']);
      const get = () => limited.http.get(`/v1/key/projects/${owner.projectId}/jobs`).set(bearer(owner.apiKey));
      const est = () =>
        limited.http
          .post(`/v1/key/projects/${owner.projectId}/jobs/estimate`)
          .set(bearer(owner.apiKey))
          .send({ type: 'search', targets: ['x'] });
      // The windows are fixed minutes of the clock: three requests that straddle a minute's end
      // prove nothing, and are sent again.
      for (let attempt = 0; ; attempt++) {
        const minute = Math.floor(Date.now() / 60_000);
        const [a, b, c] = [await remaining(get()), await remaining(est()), await remaining(get())];
        if (Math.floor(Date.now() / 60_000) !== minute && attempt < 2) continue;
        expect([a - b, b - c]).toEqual([1, 1]);
        break;
      }
    } finally {
      await limited.close();
    }
  });
});

describe('POST /jobs/{id}/retry with {"targets": "failed"}', () => {
  it('retries only the failed targets of a completed job, and reserves for those only', async () => {
    const asins = ['B0BBBBBBB1', 'B0BBBBBBB2', 'B0BBBBBBB3'];
    const job = await createDetailsJob(tenant, asins);
    await crawl(job.body.data.id, asins, [ok(asins[0]!), blocked, ok(asins[2]!)]);
    const before = await h.deps.credits.balance(tenant.organizationId);
    const retry = await h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(tenant.apiKey)).send({ targets: 'failed' });
    expect(retry.status).toBe(202);
    expect(retry.body.data).toMatchObject({ status: 'queued', retryOf: job.body.data.id, targets: [asins[1]], credits: { reserved: 2 } });
    expect(await h.deps.credits.balance(tenant.organizationId)).toBe(before! - 2);
    expect(retry.headers['x-credits-remaining']).toBe(String(before! - 2));
  });

  it('takes the cancelled targets of a cancelled job', async () => {
    const asins = ['B0CCCCCCC1', 'B0CCCCCCC2', 'B0CCCCCCC3'];
    const job = await createDetailsJob(tenant, asins);
    await crawl(job.body.data.id, asins, [ok(asins[0]!)]);
    await h.http.post(`/v1/key/jobs/${job.body.data.id}/cancel`).set(bearer(tenant.apiKey)).expect(200);
    const retry = await h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(tenant.apiKey)).send({ targets: 'failed' });
    expect(retry.status).toBe(202);
    expect(retry.body.data.targets).toEqual([asins[1], asins[2]]);
  });

  it('refuses a job with no failed targets, an unfinished job, and an unknown value', async () => {
    const asins = ['B0DDDDDDD1'];
    const job = await createDetailsJob(tenant, asins);
    const running = await h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(tenant.apiKey)).send({ targets: 'failed' });
    expect(running.status).toBe(409);
    expect(running.body.error).toMatchObject({ code: 'INVALID_STATE', details: { status: 'queued' } });
    await crawl(job.body.data.id, asins, [ok(asins[0]!)]);
    const none = await h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(tenant.apiKey)).send({ targets: 'failed' });
    expect(none.status).toBe(409);
    expect(none.body.error).toMatchObject({ code: 'INVALID_STATE', details: { status: 'completed' } });
    expect(none.body.error.message).toMatch(/no failed or cancelled targets/);
    // `all` keeps the spec's rule: a completed job is not retried.
    const all = await h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(tenant.apiKey)).send({ targets: 'all' });
    expect(all.status).toBe(409);
    for (const body of [{ targets: 'some' }, { targets: 'failed', extra: 1 }, { targets: ['B0DDDDDDD1'] }]) {
      const bad = await h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(tenant.apiKey)).send(body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('binds an Idempotency-Key to the body: a replay with the same body, 422 with another', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    const asins = ['B0EEEEEEE1', 'B0EEEEEEE2'];
    const job = await createDetailsJob(owner, asins);
    await crawl(job.body.data.id, asins, [ok(asins[0]!), blocked]);
    const retry = (body?: object) => {
      const req = h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(owner.apiKey)).set('Idempotency-Key', 'retry-failed-1');
      return body ? req.send(body) : req;
    };
    const first = await retry({ targets: 'failed' });
    const again = await retry({ targets: 'failed' });
    expect(first.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    // 100 - 4 reserved + 2 refunded (the blocked target) - 2 for the one retried target
    expect(again.headers['x-credits-remaining']).toBe('96');
    expect(await h.deps.credits.balance(owner.organizationId)).toBe(96);
    const otherBody = await retry();
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.error.code).toBe('IDEMPOTENCY_MISMATCH');
  });
});

describe('DELETE /jobs/{id}', () => {
  it("removes a finished job's results; the job stays, results and export answer 410", async () => {
    const asins = ['B0FFFFFFF1', 'B0FFFFFFF2'];
    const job = await createDetailsJob(tenant, asins);
    const id = job.body.data.id;
    await crawl(id, asins, [ok(asins[0]!), ok(asins[1]!)]);
    expect((await h.http.get(`/v1/key/jobs/${id}/results`).set(bearer(tenant.apiKey))).body.pagination.total).toBe(2);
    const del = await h.http.delete(`/v1/key/jobs/${id}`).set(bearer(tenant.apiKey));
    expect(del.status).toBe(200);
    expect(del.body.data).toMatchObject({ id, status: 'completed', resultsCount: 2, credits: { consumed: 4 } });
    expect(Date.parse(del.body.data.resultsPurgedAt)).not.toBeNaN();
    const rows = await sql<{ n: number }>`select count(*)::int as n from result_item where job_id = ${id}`.execute(h.deps.db);
    expect(rows.rows[0]!.n).toBe(0);
    const got = await h.http.get(`/v1/key/jobs/${id}`).set(bearer(tenant.apiKey));
    expect(got.body.data.resultsPurgedAt).toBe(del.body.data.resultsPurgedAt);
    for (const path of [`/v1/key/jobs/${id}/results`, `/v1/key/jobs/${id}/export`, `/v1/key/jobs/${id}/export?format=csv`]) {
      const gone = await h.http.get(path).set(bearer(tenant.apiKey));
      expect(gone.status).toBe(410);
      expect(gone.body.error).toMatchObject({ code: 'GONE', requestId: gone.headers['x-request-id'] });
    }
    // Idempotent: deleting again answers the same tombstone.
    const again = await h.http.delete(`/v1/key/jobs/${id}`).set(bearer(tenant.apiKey));
    expect(again.status).toBe(200);
    expect(again.body.data.resultsPurgedAt).toBe(del.body.data.resultsPurgedAt);
  });

  it('refuses a job still queued or running with 409 INVALID_STATE; unknown ids are 404', async () => {
    const job = await createDetailsJob(tenant, ['B0GGGGGGG1']);
    const res = await h.http.delete(`/v1/key/jobs/${job.body.data.id}`).set(bearer(tenant.apiKey));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'INVALID_STATE', details: { status: 'queued' } });
    expect((await h.http.delete('/v1/key/jobs/job_0000000000000000').set(bearer(tenant.apiKey))).status).toBe(404);
  });

  it('answers 410 for a job purged by the retention of its plan', async () => {
    const owner = await createTenant(h.deps.db, { plan: 'starter', credits: 100 });
    const asins = ['B0HHHHHHH1'];
    const job = await createDetailsJob(owner, asins);
    const id = job.body.data.id;
    await crawl(id, asins, [ok(asins[0]!)]);
    await sql`update job set finished_at = now() - interval '31 days' where id = ${id}`.execute(h.deps.db);
    const report = await runRetentionSweep(new RetentionRepository(h.deps.db), { days: DEFAULT_RETENTION_DAYS, batchSize: 1_000 });
    expect(report).toMatchObject({ jobsMarked: 1, resultsDeleted: 1 });
    const results = await h.http.get(`/v1/key/jobs/${id}/results`).set(bearer(owner.apiKey));
    expect(results.status).toBe(410);
    expect(results.body.error.code).toBe('GONE');
    expect((await h.http.get(`/v1/key/jobs/${id}/export`).set(bearer(owner.apiKey))).status).toBe(410);
    const got = await h.http.get(`/v1/key/jobs/${id}`).set(bearer(owner.apiKey));
    expect(got.body.data).toMatchObject({ status: 'completed', resultsCount: 1, resultsPurgedAt: expect.any(String) });
  });
});
