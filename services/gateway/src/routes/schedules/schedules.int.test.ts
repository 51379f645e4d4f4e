import { adminDeps, commands } from '@crawl/cli';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

let h: Harness;
let tenant: TestTenant;
beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
});
afterAll(() => h.close());

const create = (body: unknown, t = tenant) =>
  h.http
    .post(`/v1/key/projects/${t.projectId}/schedules`)
    .set(bearer(t.apiKey))
    .send(body as object);
const crawlConfig = { type: 'search', targets: ['desk lamp'], config: { marketplace: 'de' } };

it('creates a schedule (201, Location, next fire in UTC) and lists, gets, patches and deletes it', async () => {
  const res = await create({ cron: '0  9 * * 1', crawlConfig });
  expect(res.status).toBe(201);
  const s = res.body.data;
  expect(res.headers.location).toBe(`/v1/key/schedules/${s.id}`);
  expect(s).toMatchObject({
    projectId: tenant.projectId,
    cron: '0 9 * * 1',
    crawlConfig: { type: 'search', targets: ['desk lamp'], config: { marketplace: 'DE', lang: null } },
    enabled: true,
    lastRunAt: null,
    lastRunStatus: null,
    lastJobId: null,
  });
  const next = new Date(s.nextRunAt);
  expect(next.getUTCDay()).toBe(1);
  expect(next.getUTCHours()).toBe(9);
  expect(next.getTime()).toBeGreaterThan(Date.now());

  const list = await h.http.get(`/v1/key/projects/${tenant.projectId}/schedules`).set(bearer(tenant.apiKey));
  expect(list.body.data.map((x: { id: string }) => x.id)).toContain(s.id);
  expect(list.body.pagination.total).toBeGreaterThanOrEqual(1);
  expect((await h.http.get(`/v1/key/schedules/${s.id}`).set(bearer(tenant.apiKey))).body.data).toEqual(s);

  const disabled = await h.http.patch(`/v1/key/schedules/${s.id}`).set(bearer(tenant.apiKey)).send({ enabled: false });
  expect(disabled.body.data).toMatchObject({ enabled: false, nextRunAt: null });
  const recron = await h.http.patch(`/v1/key/schedules/${s.id}`).set(bearer(tenant.apiKey)).send({ cron: '*/5 * * * *', enabled: true });
  expect(recron.body.data.cron).toBe('*/5 * * * *');
  expect(new Date(recron.body.data.nextRunAt).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
  expect(new Date(recron.body.data.nextRunAt).getUTCMinutes() % 5).toBe(0);
  const reconfig = await h.http
    .patch(`/v1/key/schedules/${s.id}`)
    .set(bearer(tenant.apiKey))
    .send({ crawlConfig: { type: 'details', targets: ['B0DR8G428S'] } });
  expect(reconfig.body.data.crawlConfig).toEqual({ type: 'details', targets: ['B0DR8G428S'], config: { marketplace: 'US', lang: null } });

  expect((await h.http.delete(`/v1/key/schedules/${s.id}`).set(bearer(tenant.apiKey))).status).toBe(204);
  expect((await h.http.get(`/v1/key/schedules/${s.id}`).set(bearer(tenant.apiKey))).status).toBe(404);
});

it.each([
  [{ cron: '* * *', crawlConfig }, 'body.cron', /5 fields/],
  [{ cron: '61 * * * *', crawlConfig }, 'body.cron', /valid cron/],
  [{ cron: '0 9 * * 1', crawlConfig: { type: 'details', targets: ['nope'] } }, 'body.crawlConfig.targets.0', /ASIN/],
  [{ cron: '0 9 * * 1', crawlConfig: { ...crawlConfig, extra: 1 } }, 'body.crawlConfig', /unknown/],
  [{ crawlConfig }, 'body.cron', /Required/],
  [{ cron: '0 9 * * 1', crawlConfig, every: 'day' }, 'body', /unknown/],
])('refuses %j with 400 at %s', async (body, path, message) => {
  const res = await create(body);
  expect(res.status).toBe(400);
  const detail = res.body.error.details.find((d: { path: string }) => d.path === path);
  expect(detail?.message).toMatch(message);
});

it("another project's schedule is 404 for get, patch and delete, and stays unchanged", async () => {
  const other = await createTenant(h.deps.db);
  const theirs = (await create({ cron: '0 9 * * 1', crawlConfig }, other)).body.data;
  for (const res of [
    await h.http.get(`/v1/key/schedules/${theirs.id}`).set(bearer(tenant.apiKey)),
    await h.http.patch(`/v1/key/schedules/${theirs.id}`).set(bearer(tenant.apiKey)).send({ enabled: false }),
    await h.http.delete(`/v1/key/schedules/${theirs.id}`).set(bearer(tenant.apiKey)),
    await h.http.patch('/v1/key/schedules/not-an-id').set(bearer(tenant.apiKey)).send({ enabled: false }),
  ]) {
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  }
  expect((await h.http.get(`/v1/key/schedules/${theirs.id}`).set(bearer(other.apiKey))).body.data.enabled).toBe(true);
  const forbidden = await create({ cron: '0 9 * * 1', crawlConfig }, { ...tenant, projectId: other.projectId });
  expect(forbidden.status).toBe(403);
  const empty = await h.http.patch(`/v1/key/schedules/${theirs.id}`).set(bearer(other.apiKey)).send({});
  expect(empty.status).toBe(400);
});

describe('noisy neighbours: interval floor and per-project cap', () => {
  const admin = (command: string, flags: Record<string, string>) => commands[command]!(adminDeps(h.deps.db), flags);

  // The last fires at 09:00:00 and 09:00:59 once a day: the rule is the closest pair, not the average.
  it.each(['* * * * * *', '*/30 * * * * *', '0,30 * * * * *', '0,59 0,1 9 * * *'])(
    'cron %s fires more often than every 60 s -> 400 naming the minimum, nothing stored',
    async (cron) => {
      const t = await createTenant(h.deps.db, { plan: 'starter' });
      const res = await create({ cron, crawlConfig }, t);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([
        { path: 'body.cron', message: expect.stringContaining('minimum interval between runs is 60 s') },
      ]);
      expect(await h.deps.db.selectFrom('schedule').select('id').where('project_id', '=', t.projectId).execute()).toEqual([]);
    },
  );

  it('a cron whose closest fires are exactly 60 s apart is allowed', async () => {
    const t = await createTenant(h.deps.db, { plan: 'starter' });
    expect((await create({ cron: '0 0,1 9 * * *', crawlConfig }, t)).status).toBe(201);
  });

  it('PATCH to a too frequent cron is refused and leaves the schedule as it was', async () => {
    const t = await createTenant(h.deps.db);
    const s = (await create({ cron: '*/5 * * * *', crawlConfig }, t)).body.data;
    const res = await h.http.patch(`/v1/key/schedules/${s.id}`).set(bearer(t.apiKey)).send({ cron: '*/10 * * * * *' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/10 s apart.*minimum interval between runs is 60 s/);
    expect((await h.http.get(`/v1/key/schedules/${s.id}`).set(bearer(t.apiKey))).body.data.cron).toBe('*/5 * * * *');
  });

  it('an operator can lower the floor per organization (admin set-schedule-limits)', async () => {
    const t = await createTenant(h.deps.db);
    await admin('set-schedule-limits', { org: t.organizationId, 'min-interval-seconds': '5' });
    expect((await create({ cron: '*/5 * * * * *', crawlConfig }, t)).status).toBe(201);
    expect((await create({ cron: '*/2 * * * * *', crawlConfig }, t)).body.error.message).toMatch(/minimum interval between runs is 5 s/);
    await admin('set-schedule-limits', { org: t.organizationId, 'min-interval-seconds': 'default' });
    expect((await create({ cron: '*/5 * * * * *', crawlConfig }, t)).status).toBe(400);
  });

  it('the per-project cap holds under concurrent creations, and is admin-configurable', async () => {
    const t = await createTenant(h.deps.db, { plan: 'starter' });
    await admin('set-schedule-limits', { org: t.organizationId, 'max-per-project': '3' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => create({ cron: '0 9 * * 1', crawlConfig }, t)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 400, 400, 400, 400, 400]);
    const refused = answers.find((a) => a.status === 400)!;
    expect(refused.body.error.message).toBe('This project already has 3 schedules, the most its plan allows; delete one first.');
    const stored = await h.deps.db.selectFrom('schedule').select('id').where('project_id', '=', t.projectId).execute();
    expect(stored).toHaveLength(3);
    await admin('set-schedule-limits', { org: t.organizationId, 'max-per-project': 'default' });
    expect((await create({ cron: '0 9 * * 1', crawlConfig }, t)).status).toBe(201); // starter's default is 25
  });
});
