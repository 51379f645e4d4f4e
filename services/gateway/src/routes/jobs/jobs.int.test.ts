import { createKey, createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';
import { createJobService, createJobsService } from './jobs.service';

let h: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db, { credits: 1_000 });
});
afterAll(() => h.close());

const createJob = (body: unknown, key = tenant.apiKey, projectId = tenant.projectId) =>
  h.http
    .post(`/v1/key/projects/${projectId}/jobs`)
    .set(bearer(key))
    .send(body as object);

describe('POST /projects/{id}/jobs', () => {
  it('accepts a job: 202, Location, queued, credits reserved, targets de-duplicated', async () => {
    const before = await h.deps.credits.balance(tenant.organizationId);
    const res = await createJob({
      type: 'details',
      targets: ['B0DR8G428S', 'https://www.amazon.com/dp/B0DR8G428S?th=1', 'b073wrf565'],
      config: { lang: 'en_us' },
    });
    expect(res.status).toBe(202);
    expect(res.headers.location).toBe(`/v1/key/jobs/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({
      status: 'queued',
      type: 'details',
      marketplace: 'US',
      lang: 'en-US',
      targets: ['B0DR8G428S', 'B073WRF565'],
      progress: { total: 2, succeeded: 0, failed: 0 },
      credits: { reserved: 4, consumed: 0, refunded: 0 },
      projectId: tenant.projectId,
    });
    expect(await h.deps.credits.balance(tenant.organizationId)).toBe(before! - 4);
    const queued = await h.deps.producer['queue']('crawl').getJob(res.body.data.id);
    expect(queued?.data).toEqual({ jobId: res.body.data.id });
  });

  it('charges 5 per keyword and infers the marketplace of product URLs', async () => {
    const search = await createJob({ type: 'search', targets: ['portable charger', '  Portable   Charger ', 'usb c'] });
    expect(search.status).toBe(202);
    expect(search.body.data.targets).toEqual(['portable charger', 'usb c']);
    expect(search.body.data.credits.reserved).toBe(10);
    const de = await createJob({ type: 'details', targets: ['https://www.amazon.de/dp/B01GAWQSFW'] });
    expect(de.status).toBe(202);
    expect(de.body.data.marketplace).toBe('DE');
  });

  it.each([
    [{ type: 'details', targets: ['not-an-asin'] }, 'body.targets.0'],
    [{ type: 'details', targets: ['https://example.com/dp/B0DR8G428S'] }, 'body.targets.0'],
    [{ type: 'details', targets: ['https://www.amazon.de/dp/B01GAWQSFW'], config: { marketplace: 'US' } }, 'body.targets.0'],
    [{ type: 'details', targets: ['https://www.amazon.com/gp/help/customer'] }, 'body.targets.0'],
    [{ type: 'search', targets: ['   '] }, 'body.targets.0'],
    [{ type: 'search', targets: [] }, 'body.targets'],
    [{ type: 'search', targets: ['x'], config: { marketplace: 'XX' } }, 'body.config.marketplace'],
    [{ type: 'search', targets: ['x'], config: { lang: 'english' } }, 'body.config.lang'],
    [{ type: 'search', targets: ['x'], extra: true }, 'body'],
    [{ type: 'crawl', targets: ['x'] }, 'body.type'],
    [{ type: 'search', targets: 'x' }, 'body.targets'],
    [[1, 2], 'body'],
  ])('rejects %j with 400 naming %s', async (body, path) => {
    const res = await createJob(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('rejects more than 1,000 targets after de-duplication, but counts duplicates once', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => `keyword ${i}`);
    expect((await createJob({ type: 'search', targets: many })).status).toBe(400);
    const dupes = [...Array.from({ length: 1000 }, (_, i) => `k${i}`), 'K1', 'k2'];
    const poor = await createTenant(h.deps.db, { credits: 0 });
    const res = await createJob({ type: 'search', targets: dupes }, poor.apiKey, poor.projectId);
    expect(res.status).toBe(402); // valid (1,000 unique), just unaffordable
    expect(res.body.error.details).toEqual({ balance: 0, cost: 5000 });
  });

  it('answers malformed JSON, wrong content type and huge bodies with 4xx', async () => {
    const url = `/v1/key/projects/${tenant.projectId}/jobs`;
    const bad = await h.http.post(url).set(bearer(tenant.apiKey)).set('content-type', 'application/json').send('{"type":');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: bad.headers['x-request-id'] });
    const text = await h.http.post(url).set(bearer(tenant.apiKey)).set('content-type', 'text/plain').send('type=search');
    expect(text.status).toBe(400);
    const huge = await h.http
      .post(url)
      .set(bearer(tenant.apiKey))
      .set('content-type', 'application/json')
      .send(JSON.stringify({ type: 'search', targets: ['x'.repeat(1_100_000)] }));
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('GET /projects/{id}/jobs', () => {
  let project: TestTenant;
  const ids: string[] = [];
  beforeAll(async () => {
    project = await createTenant(h.deps.db, { credits: 1_000 });
    for (const targets of [['alpha shoes'], ['beta socks'], ['gamma hats']]) {
      const res = await createJob({ type: 'search', targets }, project.apiKey, project.projectId);
      ids.push(res.body.data.id);
    }
    await h.http.post(`/v1/key/jobs/${ids[1]}/cancel`).set(bearer(project.apiKey));
  });
  const list = (query: string) => h.http.get(`/v1/key/projects/${project.projectId}/jobs${query}`).set(bearer(project.apiKey));

  it('lists newest first with pagination metadata and default 20/0', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body.data.map((j: { id: string }) => j.id)).toEqual([...ids].reverse());
    expect(res.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    const page = await list('?limit=1&offset=1');
    expect(page.body.data.map((j: { id: string }) => j.id)).toEqual([ids[1]]);
    expect(page.body.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
  });

  it('filters by status, q (keyword, job id) and creation dates', async () => {
    expect((await list('?status=cancelled')).body.data.map((j: { id: string }) => j.id)).toEqual([ids[1]]);
    expect((await list('?q=GAMMA')).body.data.map((j: { id: string }) => j.id)).toEqual([ids[2]]);
    expect((await list(`?q=${ids[0]}`)).body.data.map((j: { id: string }) => j.id)).toEqual([ids[0]]);
    expect((await list('?q=%25')).body.pagination.total).toBe(0);
    expect((await list('?from=2999-01-01')).body.pagination.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(`?from=${today}&to=${today}`)).body.pagination.total).toBe(3);
    expect((await list('?type=search')).body.pagination.total).toBe(3);
    expect((await list('?type=details')).body.pagination.total).toBe(0);
  });

  it('sorts by a whitelisted field in either direction, ties by creation then id; no sort keeps newest first', async () => {
    const order = async (query: string) => (await list(query)).body.data.map((j: { id: string }) => j.id);
    expect(await order('?sort=createdAt:asc')).toEqual(ids);
    expect(await order('?sort=createdAt:desc')).toEqual([...ids].reverse());
    // cancelled sorts before queued; the two queued jobs keep creation order in the sort's direction
    expect(await order('?sort=status:asc')).toEqual([ids[1], ids[0], ids[2]]);
    expect(await order('?sort=status:desc')).toEqual([ids[2], ids[0], ids[1]]);
    expect(await order('?sort=createdAt:asc&limit=1&offset=2')).toEqual([ids[2]]);
    expect(await order('')).toEqual([...ids].reverse());
  });

  it.each(['?sort=targets:asc', '?sort=createdAt', '?sort=createdAt:up', '?sort=created_at:asc', '?sort='])(
    'refuses %s with a 400 naming the sortable fields',
    async (query) => {
      const res = await list(query);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error)).toContain('createdAt, status, type');
    },
  );

  it.each([
    '?limit=0',
    '?limit=101',
    '?limit=abc',
    '?offset=-1',
    '?status=done',
    '?type=everything',
    '?from=yesterday',
    '?from=2026-02-01&to=2026-01-01',
    '?foo=1',
    '?limit=1&limit=2',
  ])('rejects %s with 400', async (query) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('job by id: get, results, export, cancel, retry', () => {
  it('gets a job; unknown and malformed ids are 404', async () => {
    const created = await createJob({ type: 'search', targets: ['lamp'] });
    const res = await h.http.get(`/v1/key/jobs/${created.body.data.id}`).set(bearer(tenant.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(created.body.data.id);
    for (const id of ['job_0000000000000000', 'nope', '..%2F..%2Fetc', "job_'; drop table job;--"]) {
      const missing = await h.http.get(`/v1/key/jobs/${id}`).set(bearer(tenant.apiKey));
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('reads made together share a statement, each still scoped to its own project', async () => {
    const other = await createTenant(h.deps.db, { credits: 100 });
    const mine = (await createJob({ type: 'details', targets: ['B0DR8G428S'] })).body.data.id;
    const theirs = (await createJob({ type: 'details', targets: ['B0DR8G428S'] }, other.apiKey, other.projectId)).body.data.id;
    const service = createJobsService(h.deps);
    const found = await Promise.all([
      service.find(mine, tenant.projectId),
      service.find(mine, other.projectId),
      service.find(theirs, other.projectId),
      service.find(theirs, tenant.projectId),
      service.find(mine, tenant.projectId),
      service.find('job_0000000000000000', tenant.projectId),
    ]);
    expect(found.map((job) => job?.id)).toEqual([mine, undefined, theirs, undefined, mine, undefined]);
    // Over HTTP too: the other tenant's job is a 404 whatever arrives with it.
    const answers = await Promise.all(
      [tenant.apiKey, other.apiKey, tenant.apiKey, other.apiKey].map((key) => h.http.get(`/v1/key/jobs/${mine}`).set(bearer(key))),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 404, 200, 404]);
  });

  it('serves an empty, paginated result list and refuses export until completed', async () => {
    const created = await createJob({ type: 'search', targets: ['desk'] });
    const id = created.body.data.id;
    const results = await h.http.get(`/v1/key/jobs/${id}/results`).set(bearer(tenant.apiKey));
    expect(results.status).toBe(200);
    expect(results.body).toEqual({ data: [], pagination: { total: 0, limit: 100, offset: 0, hasMore: false } });
    for (const format of ['json', 'csv', 'llm']) {
      const exp = await h.http.get(`/v1/key/jobs/${id}/export?format=${format}`).set(bearer(tenant.apiKey));
      expect(exp.status).toBe(409);
      expect(exp.body.error).toMatchObject({ code: 'JOB_NOT_COMPLETE', details: { status: 'queued' } });
    }
    const badFormat = await h.http.get(`/v1/key/jobs/${id}/export?format=xml`).set(bearer(tenant.apiKey));
    expect(badFormat.status).toBe(400);
  });

  it('cancels a queued job with a full refund, once; retry makes a new job and reserves again', async () => {
    const created = await createJob({ type: 'search', targets: ['chair', 'table'] });
    const id = created.body.data.id;
    const before = await h.deps.credits.balance(tenant.organizationId);
    const cancel = await h.http.post(`/v1/key/jobs/${id}/cancel`).set(bearer(tenant.apiKey));
    expect(cancel.status).toBe(200);
    expect(cancel.body.data).toMatchObject({ status: 'cancelled', credits: { reserved: 10, consumed: 0, refunded: 10 } });
    expect(cancel.body.data.finishedAt).not.toBeNull();
    expect(await h.deps.credits.balance(tenant.organizationId)).toBe(before! + 10);

    const again = await h.http.post(`/v1/key/jobs/${id}/cancel`).set(bearer(tenant.apiKey));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    expect(await h.deps.credits.balance(tenant.organizationId)).toBe(before! + 10);

    const retry = await h.http.post(`/v1/key/jobs/${id}/retry`).set(bearer(tenant.apiKey));
    expect(retry.status).toBe(202);
    expect(retry.body.data).toMatchObject({ status: 'queued', retryOf: id, targets: ['chair', 'table'], credits: { reserved: 10 } });
    expect(retry.body.data.id).not.toBe(id);
    expect(await h.deps.credits.balance(tenant.organizationId)).toBe(before!);

    const retryQueued = await h.http.post(`/v1/key/jobs/${retry.body.data.id}/retry`).set(bearer(tenant.apiKey));
    expect(retryQueued.status).toBe(409);
    expect(retryQueued.body.error.code).toBe('INVALID_STATE');
  });

  it('refuses a body on cancel and retry', async () => {
    const created = await createJob({ type: 'search', targets: ['bench'] });
    const res = await h.http.post(`/v1/key/jobs/${created.body.data.id}/cancel`).set(bearer(tenant.apiKey)).send({ force: true });
    expect(res.status).toBe(400);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first response, refuses a different body, and charges once', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    const send = (body: object, key: string) =>
      h.http.post(`/v1/key/projects/${owner.projectId}/jobs`).set(bearer(owner.apiKey)).set('Idempotency-Key', key).send(body);
    const body = { type: 'details', targets: ['B0DR8G428S'] };
    const first = await send(body, 'create-1');
    const second = await send({ targets: ['B0DR8G428S'], type: 'details' }, 'create-1');
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.data.id).toBe(first.body.data.id);
    expect(second.headers.location).toBe(first.headers.location);
    expect(await h.deps.credits.balance(owner.organizationId)).toBe(98);

    const mismatch = await send({ type: 'details', targets: ['B073WRF565'] }, 'create-1');
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.code).toBe('IDEMPOTENCY_MISMATCH');

    // The same key in another project is another key.
    const other = await createTenant(h.deps.db, { credits: 100 });
    const elsewhere = await h.http
      .post(`/v1/key/projects/${other.projectId}/jobs`)
      .set(bearer(other.apiKey))
      .set('Idempotency-Key', 'create-1')
      .send(body);
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.body.data.id).not.toBe(first.body.data.id);
  });

  it('an expired key starts over: another body is a new job, not a mismatch', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    const send = (targets: string[]) =>
      h.http
        .post(`/v1/key/projects/${owner.projectId}/jobs`)
        .set(bearer(owner.apiKey))
        .set('Idempotency-Key', 'expiring')
        .send({ type: 'details', targets });
    const first = await send(['B0DR8G428S']);
    expect(first.status).toBe(202);
    await h.deps.db
      .updateTable('idempotency_key')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('project_id', '=', owner.projectId)
      .execute();
    const again = await send(['B073WRF565']);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.data.id).not.toBe(first.body.data.id);
    const replay = await send(['B073WRF565']);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(again.body.data.id);
    expect(await h.deps.credits.balance(owner.organizationId)).toBe(96);
  });

  it('answers 409 while the first request is in flight, and releases keys of failed requests', async () => {
    const owner = await createTenant(h.deps.db, { credits: 0 });
    const body = { type: 'details', targets: ['B0DR8G428S'] };
    const send = (key: string) =>
      h.http.post(`/v1/key/projects/${owner.projectId}/jobs`).set(bearer(owner.apiKey)).set('Idempotency-Key', key).send(body);
    const poor = await send('k-402');
    expect(poor.status).toBe(402);
    await h.deps.credits.grant(owner.organizationId, 10);
    const afterTopUp = await send('k-402');
    expect(afterTopUp.status).toBe(202);

    // Simulate a concurrent first request that has claimed the key but not finished.
    const { createHash } = await import('node:crypto');
    const claim = await h.deps.idempotency.claim(owner.projectId, 'k-busy', createHash('sha256').update('other').digest('hex'));
    expect(claim.kind).toBe('claimed');
    const busyMismatch = await send('k-busy');
    expect(busyMismatch.status).toBe(422);
    const path = `POST /v1/key/projects/${owner.projectId}/jobs\n{"targets":["B0DR8G428S"],"type":"details"}`;
    await h.deps.idempotency.claim(owner.projectId, 'k-busy-2', createHash('sha256').update(path).digest('hex'));
    const busy = await send('k-busy-2');
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
  });

  it('recovers keys whose gateway died: the job it created is replayed, an abandoned claim is taken over', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    const body = { type: 'details', targets: ['B0DR8G428S'] };
    const send = (key: string) =>
      h.http.post(`/v1/key/projects/${owner.projectId}/jobs`).set(bearer(owner.apiKey)).set('Idempotency-Key', key).send(body);
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256')
      .update(`POST /v1/key/projects/${owner.projectId}/jobs\n{"targets":["B0DR8G428S"],"type":"details"}`)
      .digest('hex');

    // A gateway claimed the key and created the job, then died before storing its answer.
    await h.deps.idempotency.claim(owner.projectId, 'died-after-insert', hash);
    const { jobBodySchema } = await import('@crawl/jobs');
    const orphan = await createJobService(h.deps).create(jobBodySchema.parse(body), owner, { idempotencyKey: 'died-after-insert' });
    const replay = await send('died-after-insert');
    expect(replay.status).toBe(202);
    expect(replay.body.data.id).toBe(orphan.id);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await h.deps.credits.balance(owner.organizationId)).toBe(98); // charged once

    // A gateway claimed the key and died before creating anything: after 40 s the key is free again.
    await h.deps.idempotency.claim(owner.projectId, 'died-before-insert', hash);
    expect((await send('died-before-insert')).status).toBe(409);
    const { sql } = await import('@crawl/db');
    await sql`update idempotency_key set created_at = now() - interval '41 seconds' where key = 'died-before-insert'`.execute(h.deps.db);
    const taken = await send('died-before-insert');
    expect(taken.status).toBe(202);
    expect((await send('died-before-insert')).body.data.id).toBe(taken.body.data.id);
    expect(await h.deps.credits.balance(owner.organizationId)).toBe(96);
  });

  it('works on retry: a repeated retry does not create or charge twice', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    const job = await h.http
      .post(`/v1/key/projects/${owner.projectId}/jobs`)
      .set(bearer(owner.apiKey))
      .send({ type: 'search', targets: ['a'] });
    await h.http.post(`/v1/key/jobs/${job.body.data.id}/cancel`).set(bearer(owner.apiKey));
    const retry = () => h.http.post(`/v1/key/jobs/${job.body.data.id}/retry`).set(bearer(owner.apiKey)).set('Idempotency-Key', 'r1');
    const [a, b] = [await retry(), await retry()];
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(await h.deps.credits.balance(owner.organizationId)).toBe(95);
  });
});

describe('keys of one user and of other users', () => {
  it('every key of the project sees the project jobs', async () => {
    const second = await createKey(h.deps.db, tenant.projectId, { newUser: true });
    const res = await h.http.get(`/v1/key/projects/${tenant.projectId}/jobs`).set(bearer(second.apiKey));
    expect(res.status).toBe(200);
    expect(res.body.pagination.total).toBeGreaterThan(0);
  });
});
