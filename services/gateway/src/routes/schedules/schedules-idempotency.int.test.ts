import { createHash } from 'node:crypto';
import { sql } from '@crawl/db';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';
import { createScheduleService } from './schedules.service';

/** POST /schedules once ignored Idempotency-Key, so a retried lost answer made two schedules that both fire. */
let h: Harness;
let tenant: TestTenant;
beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
});
afterAll(() => h.close());

const body = { cron: '0 9 * * 1', crawlConfig: { type: 'search', targets: ['desk lamp'] } };
const create = (key: string, sent: object = body, t = tenant) =>
  h.http.post(`/v1/key/projects/${t.projectId}/schedules`).set(bearer(t.apiKey)).set('Idempotency-Key', key).send(sent);
const count = async (t = tenant) =>
  (await h.http.get(`/v1/key/projects/${t.projectId}/schedules`).set(bearer(t.apiKey))).body.pagination.total as number;

it('replays the first answer for the same key and body, and makes one schedule', async () => {
  const before = await count();
  const first = await create('sched-1');
  expect(first.status).toBe(201);
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  const again = await create('sched-1', { crawlConfig: body.crawlConfig, cron: body.cron }); // key order does not matter
  expect(again.status).toBe(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.headers.location).toBe(`/v1/key/schedules/${first.body.data.id}`);
  expect(again.body).toEqual(first.body);
  expect(await count()).toBe(before + 1);

  // Keys belong to a project: another project's same key makes its own schedule.
  const other = await createTenant(h.deps.db);
  const theirs = await create('sched-1', body, other);
  expect(theirs.status).toBe(201);
  expect(theirs.body.data.id).not.toBe(first.body.data.id);
});

it('a different body under a used key is 422, an invalid body holds no key, a key in flight is 409', async () => {
  expect((await create('sched-2')).status).toBe(201);
  const mismatch = await create('sched-2', { ...body, cron: '0 10 * * 1' });
  expect(mismatch.status).toBe(422);
  expect(mismatch.body.error.code).toBe('IDEMPOTENCY_MISMATCH');

  expect((await create('sched-3', { ...body, cron: 'every day' })).status).toBe(400);
  expect((await create('sched-3')).status).toBe(201);

  const hash = createHash('sha256')
    .update(
      `POST /v1/key/projects/${tenant.projectId}/schedules\n{"crawlConfig":{"targets":["desk lamp"],"type":"search"},"cron":"0 9 * * 1"}`,
    )
    .digest('hex');
  await h.deps.idempotency.claim(tenant.projectId, 'sched-busy', hash);
  const busy = await create('sched-busy');
  expect(busy.status).toBe(409);
  expect(busy.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
});

it('answers with the schedule a dead gateway created under the key, instead of a second one', async () => {
  const hash = createHash('sha256')
    .update(
      `POST /v1/key/projects/${tenant.projectId}/schedules\n{"crawlConfig":{"targets":["desk lamp"],"type":"search"},"cron":"0 9 * * 1"}`,
    )
    .digest('hex');
  await h.deps.idempotency.claim(tenant.projectId, 'sched-died', hash);
  const { createScheduleBody } = await import('@crawl/jobs');
  const { schedulePolicy } = await import('@crawl/core');
  const orphan = await createScheduleService(h.deps).create(tenant, createScheduleBody.parse(body), schedulePolicy('growth'), 'sched-died');
  const before = await count();
  const replay = await create('sched-died');
  expect(replay.status).toBe(201);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body.data.id).toBe(orphan.id);
  expect(await count()).toBe(before);
  const stored = await sql<{ response_status: number }>`select response_status from idempotency_key where key = 'sched-died'`.execute(
    h.deps.db,
  );
  expect(stored.rows[0]!.response_status).toBe(201);
});
