import { createTenant, type TestTenant } from '@crawl/testing';
import { member } from '../../test-support/accounts';
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
    .post(`/v1/key/projects/${t.projectId}/alert-rules`)
    .set(bearer(t.apiKey))
    .send(body as object);
const priceBelow = { name: 'Under $20', condition: { type: 'price_below', value: 19.99 } };

it('creates a rule with the defaults (201, Location) and lists, gets, patches and deletes it, each change in the audit log', async () => {
  const res = await create({
    ...priceBelow,
    name: '  Under $20 ',
    asins: ['b0dr8g428s', 'https://www.amazon.com/dp/B073WRF565', 'B0DR8G428S'],
  });
  expect(res.status).toBe(201);
  const rule = res.body.data;
  expect(res.headers.location).toBe(`/v1/key/alert-rules/${rule.id}`);
  expect(rule).toMatchObject({
    projectId: tenant.projectId,
    name: 'Under $20',
    condition: { type: 'price_below', value: 19.99 },
    asins: ['B0DR8G428S', 'B073WRF565'],
    marketplace: null,
    postalCode: null,
    cooldownSeconds: 3600,
    maxPerDay: 20,
    enabled: true,
    notify: { members: [] },
    state: { firing: 0, coolingDown: 0, lastAlertAt: null, alertsToday: 0, suppressedToday: 0 },
  });

  const list = await h.http.get(`/v1/key/projects/${tenant.projectId}/alert-rules`).set(bearer(tenant.apiKey));
  expect(list.status).toBe(200);
  expect(list.body.data.map((r: { id: string }) => r.id)).toContain(rule.id);
  expect((await h.http.get(`/v1/key/alert-rules/${rule.id}`).set(bearer(tenant.apiKey))).body.data).toEqual(rule);

  const patched = await h.http
    .patch(`/v1/key/alert-rules/${rule.id}`)
    .set(bearer(tenant.apiKey))
    .send({ marketplace: 'us', postalCode: '10001-1234', enabled: false, asins: null, condition: { type: 'back_in_stock' } });
  expect(patched.status).toBe(200);
  expect(patched.body.data).toMatchObject({
    marketplace: 'US',
    postalCode: '10001-1234',
    enabled: false,
    asins: null,
    condition: { type: 'back_in_stock' },
  });

  expect((await h.http.delete(`/v1/key/alert-rules/${rule.id}`).set(bearer(tenant.apiKey))).status).toBe(204);
  expect((await h.http.get(`/v1/key/alert-rules/${rule.id}`).set(bearer(tenant.apiKey))).status).toBe(404);
  const audit = await h.deps.db
    .selectFrom('audit_log')
    .select(['action', 'details'])
    .where('organization_id', '=', tenant.organizationId)
    .where('action', 'in', ['alert_rule.created', 'alert_rule.updated', 'alert_rule.deleted'])
    .orderBy('created_at')
    .execute();
  expect(audit.map((a) => a.action)).toEqual(['alert_rule.created', 'alert_rule.updated', 'alert_rule.deleted']);
  expect(audit[1]!.details).toMatchObject({
    changed: expect.arrayContaining(['condition', 'marketplace', 'postalCode', 'enabled', 'asins']),
  });
});

it.each([
  [{ name: 'x', condition: { type: 'price_below' } }, 'body.condition.value', /Required/],
  [{ name: 'x', condition: { type: 'price_below', value: -1 } }, 'body.condition.value', /above 0/],
  [{ name: 'x', condition: { type: 'back_in_stock', value: 3 } }, 'body.condition', /unknown field/],
  [{ name: 'x', condition: { type: 'cheaper' } }, 'body.condition.type', /must be one of price_below/],
  [{ name: 'x', condition: { type: 'price_drop_pct', value: 10 } }, 'body.condition.baseline', /previous, median_7d, median_30d/],
  [{ name: 'x', condition: { type: 'price_drop_pct', value: 100, baseline: 'previous' } }, 'body.condition.value', /below 100/],
  [{ name: 'x', condition: { type: 'field_changed', field: 'colour' } }, 'body.condition.field', /must be one of/],
  [{ name: 'x', condition: { type: 'rating_below', value: 6 } }, 'body.condition.value', /at most 5/],
  [{ ...priceBelow, asins: ['B0DR8G428S', 'not-an-asin'] }, 'body.asins.1', /ASIN/],
  [{ ...priceBelow, asins: [] }, 'body.asins', /at least one/],
  [{ ...priceBelow, marketplace: 'XX' }, 'body.marketplace', /must be one of/],
  [{ ...priceBelow, postalCode: '10001' }, 'body.postalCode', /needs marketplace/],
  [{ ...priceBelow, marketplace: 'DE', postalCode: 'ABC' }, 'body.postalCode', /not a postal code of marketplace DE/],
  [{ ...priceBelow, name: '' }, 'body.name', /not be empty/],
  [{ ...priceBelow, name: 'n'.repeat(101) }, 'body.name', /at most 100/],
  [{ ...priceBelow, cooldownSeconds: -1 }, 'body.cooldownSeconds', /at least 0/],
  [{ ...priceBelow, maxPerDay: 0 }, 'body.maxPerDay', /at least 1/],
  [{ ...priceBelow, notify: { members: ['usr_0000000000000000'] } }, 'body.notify.members', /verified members/],
  [{ ...priceBelow, threshold: 3 }, 'body', /unknown field/],
])('refuses %j with 400 VALIDATION_ERROR at %s', async (body, path, message) => {
  const res = await create(body);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  const detail = res.body.error.details.find((d: { path: string }) => d.path === path);
  expect(detail?.message).toMatch(message);
});

it('refuses more than 1,000 ASINs', async () => {
  const res = await create({ ...priceBelow, asins: Array.from({ length: 1001 }, (_, i) => `B0${String(i).padStart(8, '0')}`) });
  expect(res.status).toBe(400);
  expect(res.body.error.details).toEqual([{ path: 'body.asins', message: 'must name at most 1000 ASINs' }]);
});

it('PATCH validates like creation: an empty body, an unknown field, a postal code without a marketplace', async () => {
  const rule = (await create(priceBelow)).body.data;
  for (const [body, path] of [
    [{}, 'body'],
    [{ every: 1 }, 'body'],
    [{ postalCode: '10001' }, 'body.postalCode'],
    [{ condition: { type: 'price_above' } }, 'body.condition.value'],
  ] as const) {
    const res = await h.http.patch(`/v1/key/alert-rules/${rule.id}`).set(bearer(tenant.apiKey)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  }
});

it("another project's rule is 404 for get, patch and delete, and stays unchanged; its alerts are not listed", async () => {
  const other = await createTenant(h.deps.db);
  const theirs = (await create(priceBelow, other)).body.data;
  for (const res of [
    await h.http.get(`/v1/key/alert-rules/${theirs.id}`).set(bearer(tenant.apiKey)),
    await h.http.patch(`/v1/key/alert-rules/${theirs.id}`).set(bearer(tenant.apiKey)).send({ enabled: false }),
    await h.http.delete(`/v1/key/alert-rules/${theirs.id}`).set(bearer(tenant.apiKey)),
    await h.http.get(`/v1/key/alert-rules/not-an-id`).set(bearer(tenant.apiKey)),
  ]) {
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  }
  expect((await h.http.get(`/v1/key/alert-rules/${theirs.id}`).set(bearer(other.apiKey))).body.data.enabled).toBe(true);
  expect((await h.http.get(`/v1/key/projects/${other.projectId}/alerts`).set(bearer(tenant.apiKey))).status).toBe(403);
});

it('a viewer may read rules but not write them; a developer may; notify names verified members only', async () => {
  const t = await createTenant(h.deps.db);
  const viewer = await member(h, t.organizationId, 'viewer');
  const developer = await member(h, t.organizationId, 'developer');
  const path = `/v1/key/projects/${t.projectId}/alert-rules`;
  const refused = await viewer.agent.post(path).set(viewer.csrf).send(priceBelow);
  expect(refused.status).toBe(403);
  expect(refused.body.error.code).toBe('FORBIDDEN');
  const made = await developer.agent
    .post(path)
    .set(developer.csrf)
    .send({ ...priceBelow, notify: { members: [viewer.userId, developer.userId] } });
  expect(made.status).toBe(201);
  expect(made.body.data.notify.members).toEqual([viewer.userId, developer.userId]);
  expect((await viewer.agent.get(path)).body.data).toHaveLength(1);
  expect((await viewer.agent.get(`/v1/key/alert-rules/${made.body.data.id}`)).status).toBe(200);
  expect((await viewer.agent.delete(`/v1/key/alert-rules/${made.body.data.id}`).set(viewer.csrf)).status).toBe(403);
  // a member of another organization is no recipient
  const outsider = await member(h, tenant.organizationId, 'developer');
  const foreign = await developer.agent
    .post(path)
    .set(developer.csrf)
    .send({ ...priceBelow, notify: { members: [outsider.userId] } });
  expect(foreign.status).toBe(400);
});

it('refuses the 101st rule of a project', async () => {
  const t = await createTenant(h.deps.db);
  for (let i = 0; i < 100; i += 1) expect((await create({ ...priceBelow, name: `rule ${i}` }, t)).status).toBe(201);
  const res = await create(priceBelow, t);
  expect(res.status).toBe(400);
  expect(res.body.error.message).toMatch(/100 alert rules/);
  expect((await h.http.get(`/v1/key/projects/${t.projectId}/alert-rules`).set(bearer(t.apiKey))).body.pagination.total).toBe(100);
});

it('lists alerts with filters and pagination, newest first', async () => {
  const res = await h.http.get(`/v1/key/projects/${tenant.projectId}/alerts?asin=b0dr8g428s&limit=5`).set(bearer(tenant.apiKey));
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: [], pagination: { total: 0, limit: 5, offset: 0, hasMore: false } });
  for (const query of ['asin=nope', 'ruleId=x', 'from=2026-02-01&to=2026-01-01', 'limit=0', 'colour=red']) {
    const bad = await h.http.get(`/v1/key/projects/${tenant.projectId}/alerts?${query}`).set(bearer(tenant.apiKey));
    expect(bad.status).toBe(400);
  }
});
