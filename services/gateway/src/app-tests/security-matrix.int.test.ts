import type { Role } from '@crawl/core';
import { createTenant, type TestTenant } from '@crawl/testing';
import { member, type SignedIn } from '../test-support/accounts';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/**
 * Every endpoint x {no key, malformed key, unknown key, revoked key, other project's key}:
 * the documented status and error body, and never a byte of another project's data.
 */
let h: Harness;
let owner: TestTenant;
let stranger: TestTenant;
let revokedKey: string;
let jobId: string;
let strangerJobId: string;
let scheduleId: string;
let ruleId: string;
let strangerRuleId: string;
/** Console sessions: members of the owner's organization by role, and a member of the stranger's only. */
const sessions = {} as Record<Role | 'outsider', SignedIn>;

/** A signed-in user who is a member of `organizationId` with `role`. */

beforeAll(async () => {
  h = await startHarness();
  owner = await createTenant(h.deps.db, { credits: 100, name: 'owner' });
  stranger = await createTenant(h.deps.db, { credits: 100, name: 'stranger' });
  const revoked = await createTenant(h.deps.db, { credits: 100 });
  await h.deps.accounts.keys.revokeByPrefix(revoked.keyPrefix);
  revokedKey = revoked.apiKey;
  const job = await h.http
    .post(`/v1/key/projects/${owner.projectId}/jobs`)
    .set(bearer(owner.apiKey))
    .send({ type: 'search', targets: ['owner secret keyword'] });
  jobId = job.body.data.id;
  const schedule = await h.http
    .post(`/v1/key/projects/${owner.projectId}/schedules`)
    .set(bearer(owner.apiKey))
    .send({ cron: '0 9 * * 1', crawlConfig: { type: 'search', targets: ['owner secret keyword'] } });
  scheduleId = schedule.body.data.id;
  const other = await h.http
    .post(`/v1/key/projects/${stranger.projectId}/jobs`)
    .set(bearer(stranger.apiKey))
    .send({ type: 'search', targets: ['stranger secret keyword'] });
  strangerJobId = other.body.data.id;
  const rule = await h.http
    .post(`/v1/key/projects/${owner.projectId}/alert-rules`)
    .set(bearer(owner.apiKey))
    .send({ name: 'owner secret keyword rule', condition: { type: 'back_in_stock' } });
  ruleId = rule.body.data.id;
  const strangerRule = await h.http
    .post(`/v1/key/projects/${stranger.projectId}/alert-rules`)
    .set(bearer(stranger.apiKey))
    .send({ name: 'stranger secret rule', condition: { type: 'price_below', value: 10 } });
  strangerRuleId = strangerRule.body.data.id;
  for (const role of ['owner', 'admin', 'developer', 'viewer'] as const) sessions[role] = await member(h, owner.organizationId, role);
  sessions.outsider = await member(h, stranger.organizationId, 'owner');
});
afterAll(() => h.close());

type Endpoint = { method: 'get' | 'post' | 'patch' | 'delete'; path: () => string; body?: object; scope: 'project' | 'job' };
const endpoints: Endpoint[] = [
  { method: 'post', path: () => `/v1/key/projects/${owner.projectId}/jobs`, body: { type: 'search', targets: ['x'] }, scope: 'project' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/jobs`, scope: 'project' },
  { method: 'get', path: () => `/v1/key/jobs/${jobId}`, scope: 'job' },
  { method: 'get', path: () => `/v1/key/jobs/${jobId}/results`, scope: 'job' },
  { method: 'get', path: () => `/v1/key/jobs/${jobId}/export?format=csv`, scope: 'job' },
  { method: 'post', path: () => `/v1/key/jobs/${jobId}/retry`, scope: 'job' },
  { method: 'post', path: () => `/v1/key/jobs/${jobId}/cancel`, scope: 'job' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/webhooks`, scope: 'project' },
  { method: 'patch', path: () => `/v1/key/projects/${owner.projectId}/webhooks`, body: { configs: [] }, scope: 'project' },
  {
    method: 'post',
    path: () => `/v1/key/projects/${owner.projectId}/webhooks/test`,
    body: { webhookId: 'whk_0000000000000000' },
    scope: 'project',
  },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/webhooks/deliveries`, scope: 'project' },
  { method: 'post', path: () => `/v1/key/projects/${owner.projectId}/webhooks/deliveries/dlv_0000000000000000/resend`, scope: 'project' },
  { method: 'post', path: () => `/v1/key/projects/${owner.projectId}/webhooks/replay`, body: { from: '2026-01-01' }, scope: 'project' },
  {
    method: 'post',
    path: () => `/v1/key/projects/${owner.projectId}/schedules`,
    body: { cron: '0 9 * * 1', crawlConfig: { type: 'search', targets: ['x'] } },
    scope: 'project',
  },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/schedules`, scope: 'project' },
  { method: 'get', path: () => `/v1/key/schedules/${scheduleId}`, scope: 'job' },
  { method: 'patch', path: () => `/v1/key/schedules/${scheduleId}`, body: { enabled: false }, scope: 'job' },
  { method: 'delete', path: () => `/v1/key/schedules/${scheduleId}`, scope: 'job' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/tracked-targets`, scope: 'project' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/tracked-targets/B0DR8G428S/timeline?marketplace=US`, scope: 'project' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/compare?from=${jobId}&to=${jobId}`, scope: 'project' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/analytics`, scope: 'project' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/usage`, scope: 'project' },
  {
    method: 'post',
    path: () => `/v1/key/projects/${owner.projectId}/jobs/estimate`,
    body: { type: 'search', targets: ['x'] },
    scope: 'project',
  },
  { method: 'post', path: () => `/v1/key/jobs/${jobId}/retry`, body: { targets: 'failed' }, scope: 'job' },
  { method: 'delete', path: () => `/v1/key/jobs/${jobId}`, scope: 'job' },
  {
    method: 'post',
    path: () => `/v1/key/projects/${owner.projectId}/alert-rules`,
    body: { name: 'x', condition: { type: 'out_of_stock' } },
    scope: 'project',
  },
  {
    method: 'post',
    path: () => `/v1/key/projects/${owner.projectId}/alert-rules/preview`,
    body: { condition: { type: 'out_of_stock' } },
    scope: 'project',
  },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/alert-rules`, scope: 'project' },
  { method: 'get', path: () => `/v1/key/alert-rules/${ruleId}`, scope: 'job' },
  { method: 'patch', path: () => `/v1/key/alert-rules/${ruleId}`, body: { enabled: false }, scope: 'job' },
  { method: 'delete', path: () => `/v1/key/alert-rules/${ruleId}`, scope: 'job' },
  { method: 'get', path: () => `/v1/key/projects/${owner.projectId}/alerts`, scope: 'project' },
];

const credentials: [string, () => Record<string, string>][] = [
  ['no key', () => ({})],
  ['empty bearer', () => ({ Authorization: 'Bearer ' })],
  ['basic scheme', () => ({ Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })],
  ['malformed key', () => bearer('not-a-key')],
  ['unknown well-formed key', () => bearer(`cds_00000000_${'A'.repeat(43)}`)],
  ['revoked key', () => bearer(revokedKey)],
];

function expectErrorShape(res: { body: any; headers: Record<string, string> }, code: string): void {
  expect(res.body).toEqual({
    error: expect.objectContaining({ code, message: expect.any(String), requestId: res.headers['x-request-id'] }),
  });
  expect(JSON.stringify(res.body)).not.toContain('secret keyword');
}

describe.each(endpoints)('$method $scope endpoint', (endpoint) => {
  it.each(credentials)('%s -> 401 UNAUTHORIZED', async (_name, headers) => {
    const res = await h.http[endpoint.method](endpoint.path()).set(headers()).send(endpoint.body);
    expect(res.status).toBe(401);
    expectErrorShape(res, 'UNAUTHORIZED');
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it("another project's key -> 403 on project paths, 404 on ids", async () => {
    const res = await h.http[endpoint.method](endpoint.path()).set(bearer(stranger.apiKey)).send(endpoint.body);
    if (endpoint.scope === 'project') {
      expect(res.status).toBe(403);
      expectErrorShape(res, 'FORBIDDEN');
    } else {
      expect(res.status).toBe(404);
      expectErrorShape(res, 'NOT_FOUND');
    }
  });
});

const isWrite = (endpoint: Endpoint) => endpoint.method !== 'get';
const send = (session: SignedIn, endpoint: Endpoint, headers: Record<string, string> = {}) =>
  session.agent[endpoint.method](endpoint.path()).set(headers).send(endpoint.body);

describe.each(endpoints)('console session on $method $scope endpoint', (endpoint) => {
  it('a member of another organization only -> 404, whatever the path names', async () => {
    const res = await send(sessions.outsider, endpoint, sessions.outsider.csrf);
    expect(res.status).toBe(404);
    expectErrorShape(res, 'NOT_FOUND');
  });

  it('a write without X-CSRF-Token, or any request from another site -> 403 CSRF_REQUIRED', async () => {
    if (isWrite(endpoint)) {
      const res = await send(sessions.developer, endpoint);
      expect(res.status).toBe(403);
      expectErrorShape(res, 'CSRF_REQUIRED');
    }
    const crossSite = await send(sessions.developer, endpoint, { ...sessions.developer.csrf, 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expectErrorShape(crossSite, 'CSRF_REQUIRED');
  });

  it('a viewer reads and may not write (403 FORBIDDEN)', async () => {
    const res = await send(sessions.viewer, endpoint, sessions.viewer.csrf);
    if (isWrite(endpoint)) {
      expect(res.status).toBe(403);
      expectErrorShape(res, 'FORBIDDEN');
    } else {
      // read like any reader: an export of an unfinished job is still 409, an untracked product 404
      expect([200, 404, 409]).toContain(res.status);
      expect(String(res.body.error?.message)).not.toMatch(/^(Project|Job|Schedule|Alert rule) \S+ not found/);
    }
  });

  it('a signed-out session -> 401 UNAUTHORIZED', async () => {
    const gone = await member(h, owner.organizationId, 'admin');
    await gone.agent.delete('/v1/account/sessions/current').set(gone.csrf);
    const res = await send(gone, endpoint, gone.csrf);
    expect(res.status).toBe(401);
    expectErrorShape(res, 'UNAUTHORIZED');
  });
});

it('owners, admins and developers act in the projects of their organization with a session', async () => {
  for (const role of ['owner', 'admin', 'developer'] as const) {
    const session = sessions[role];
    const created = await session.agent
      .post(`/v1/key/projects/${owner.projectId}/jobs`)
      .set(session.csrf)
      .send({ type: 'search', targets: [`made by the ${role}`] });
    expect(created.status).toBe(202);
    const read = await session.agent.get(`/v1/key/jobs/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.projectId).toBe(owner.projectId);
  }
  // the key's /me describes a key: a session is told to use one
  const me = await sessions.owner.agent.get('/v1/key/me');
  expect(me.status).toBe(403);
});

it("a session never reaches the stranger's jobs, even by id", async () => {
  for (const path of [
    `/v1/key/jobs/${strangerJobId}`,
    `/v1/key/jobs/${strangerJobId}/results`,
    `/v1/key/projects/${stranger.projectId}/jobs`,
  ]) {
    const res = await sessions.owner.agent.get(path);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('stranger secret');
  }
});

it("the owner's key on the stranger's job ids is 404, and nothing of it leaks", async () => {
  for (const path of [`/v1/key/jobs/${strangerJobId}`, `/v1/key/jobs/${strangerJobId}/results`, `/v1/key/jobs/${strangerJobId}/export`]) {
    const res = await h.http.get(path).set(bearer(owner.apiKey));
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('stranger');
  }
  const cancel = await h.http.post(`/v1/key/jobs/${strangerJobId}/cancel`).set(bearer(owner.apiKey));
  expect(cancel.status).toBe(404);
  const job = await h.deps.jobs.findById(strangerJobId);
  expect(job?.status).toBe('queued');
  const list = await h.http.get(`/v1/key/projects/${owner.projectId}/jobs?q=keyword`).set(bearer(owner.apiKey));
  expect(list.body.data.every((j: { projectId: string }) => j.projectId === owner.projectId)).toBe(true);
  expect(JSON.stringify(list.body)).not.toContain('stranger');
});

it("the owner's key and session on the stranger's alert rule are 404, change nothing and leak nothing", async () => {
  const path = `/v1/key/alert-rules/${strangerRuleId}`;
  const attempts = [
    await h.http.get(path).set(bearer(owner.apiKey)),
    await h.http.patch(path).set(bearer(owner.apiKey)).send({ name: 'taken over', enabled: false }),
    await h.http.delete(path).set(bearer(owner.apiKey)),
    await sessions.owner.agent.get(path),
    await sessions.owner.agent.patch(path).set(sessions.owner.csrf).send({ enabled: false }),
    await sessions.owner.agent.delete(path).set(sessions.owner.csrf),
    await h.http.get(`/v1/key/projects/${stranger.projectId}/alert-rules`).set(bearer(owner.apiKey)),
    await h.http.get(`/v1/key/projects/${stranger.projectId}/alerts?ruleId=${strangerRuleId}`).set(bearer(owner.apiKey)),
  ];
  for (const res of attempts) {
    expect(res.status).toBeGreaterThanOrEqual(403);
    expect(res.status).toBeLessThanOrEqual(404);
    expect(JSON.stringify(res.body)).not.toContain('stranger secret');
  }
  expect(attempts.slice(0, 6).map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404]);
  // the owner's project lists only its own rules, and a foreign rule id as a filter finds nothing
  const own = await h.http.get(`/v1/key/projects/${owner.projectId}/alerts?ruleId=${strangerRuleId}`).set(bearer(owner.apiKey));
  expect(own.status).toBe(200);
  expect(own.body.data).toEqual([]);
  const kept = await h.http.get(path).set(bearer(stranger.apiKey));
  expect(kept.status).toBe(200);
  expect(kept.body.data).toMatchObject({ name: 'stranger secret rule', enabled: true });
});

it('echoes a client X-Request-Id, generates one otherwise, and answers unknown routes with 404 JSON', async () => {
  const echoed = await h.http.get('/v1/key/nope').set(bearer(owner.apiKey)).set('X-Request-Id', 'client-req-42');
  expect(echoed.status).toBe(404);
  expect(echoed.headers['x-request-id']).toBe('client-req-42');
  expect(echoed.body.error).toMatchObject({ code: 'NOT_FOUND', requestId: 'client-req-42' });
  const generated = await h.http.get('/elsewhere').set('X-Request-Id', 'bad id with spaces');
  expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
});

it('answers CORS preflight and exposes the rate-limit headers', async () => {
  const res = await h.http
    .options(`/v1/key/jobs/${jobId}`)
    .set('Origin', 'https://app.example')
    .set('Access-Control-Request-Method', 'GET');
  expect(res.status).toBe(204);
  expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
  expect(res.headers['access-control-expose-headers']).toMatch(/X-RateLimit-Remaining/);
});
