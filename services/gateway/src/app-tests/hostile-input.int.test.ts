import { request as httpRequest } from 'node:http';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/**
 * Hostile input on every kind of field: a clean 4xx (or a normal answer for harmless text),
 * never a 5xx, and nothing stored half-way.
 */
let h: Harness;
let tenant: TestTenant;
let url: string;

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db, { credits: 1_000_000 });
  url = (await h.listen()).url;
});
afterAll(() => h.close());

async function stored() {
  const [jobs, ledger, hooks, schedules] = await Promise.all([
    h.deps.db
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', tenant.projectId)
      .executeTakeFirstOrThrow(),
    h.deps.db
      .selectFrom('credit_ledger')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', tenant.organizationId)
      .executeTakeFirstOrThrow(),
    h.deps.db
      .selectFrom('webhook_config')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', tenant.projectId)
      .executeTakeFirstOrThrow(),
    h.deps.db
      .selectFrom('schedule')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', tenant.projectId)
      .executeTakeFirstOrThrow(),
  ]);
  return [jobs.n, ledger.n, hooks.n, schedules.n].map(Number);
}

const jobs = `/v1/key/projects/${'PROJECT'}/jobs`;
const path = (p: string) => p.replace('PROJECT', tenant.projectId);

const BAD_STRINGS = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\u0007bell', 'esc\u001b[31m', 'c1\u0085'];
const HARMLESS = [
  'line\nbreak\r\n\ttab',
  "'; drop table job; --",
  '<script>alert(1)</script>',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🛒',
  'مرحبا',
  'e\u0301',
  '\u200b\u200dzero width',
  '%_%',
  '../../etc/passwd',
];

it.each(BAD_STRINGS)('a keyword with control characters or broken unicode %j is a 400 and stores nothing', async (keyword) => {
  const before = await stored();
  const res = await h.http
    .post(path(jobs))
    .set(bearer(tenant.apiKey))
    .set('content-type', 'application/json')
    .send(JSON.stringify({ type: 'search', targets: ['ok', keyword] }));
  expect(res.status).toBe(400);
  expect(res.body.error.details[0].path).toBe('body.targets.1');
  expect(await stored()).toEqual(before);
});

it.each(HARMLESS)('the harmless but hostile-looking keyword %j is stored as text and read back unchanged', async (keyword) => {
  const res = await h.http
    .post(path(jobs))
    .set(bearer(tenant.apiKey))
    .send({ type: 'search', targets: [keyword] });
  expect(res.status).toBe(202);
  const got = await h.http.get(`/v1/key/jobs/${res.body.data.id}`).set(bearer(tenant.apiKey));
  expect(got.body.data.targets).toEqual([keyword.trim().replace(/\s+/g, ' ')]);
  const found = await h.http.get(`${path(jobs)}?q=${encodeURIComponent(keyword)}`).set(bearer(tenant.apiKey));
  expect(found.status).toBe(200);
});

it.each(['%00', 'a%00b', '%ED%A0%80', '%C0%AF', '%07bell', '%1B%5B31m', '%FF%FE'])(
  'the query string q=%s is a 4xx, never a 5xx',
  async (raw) => {
    const res = await h.http.get(`${path(jobs)}?q=${raw}`).set(bearer(tenant.apiKey));
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
  },
);

it.each(BAD_STRINGS)('webhook and schedule fields with %j are a 400 and store nothing', async (bad) => {
  const before = await stored();
  const hook = await h.http
    .patch(path('/v1/key/projects/PROJECT/webhooks'))
    .set(bearer(tenant.apiKey))
    .set('content-type', 'application/json')
    .send(JSON.stringify({ configs: [{ name: bad, url: 'http://127.0.0.1:9/x', triggerAction: 'job.completed', secret: bad }] }));
  expect(hook.status).toBe(400);
  const schedule = await h.http
    .post(path('/v1/key/projects/PROJECT/schedules'))
    .set(bearer(tenant.apiKey))
    .set('content-type', 'application/json')
    .send(JSON.stringify({ cron: `0 9 * * 1${bad}`, crawlConfig: { type: 'search', targets: [bad] } }));
  expect(schedule.status).toBe(400);
  expect(await stored()).toEqual(before);
});

it('deeply nested JSON is a 400', async () => {
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  const res = await h.http
    .post(path(jobs))
    .set(bearer(tenant.apiKey))
    .set('content-type', 'application/json')
    .send(`{"type":"search","targets":${deep}}`);
  expect(res.status).toBe(400);
});

it('oversize headers are refused by the HTTP layer with 431', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(`${url}${path(jobs)}`, { headers: { ...bearer(tenant.apiKey), 'x-padding': 'x'.repeat(64 * 1024) } }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
  expect(status).toBe(431);
});

it('thousands of targets, huge pagination and bad dates are 400s', async () => {
  const before = await stored();
  const many = await h.http
    .post(path(jobs))
    .set(bearer(tenant.apiKey))
    .send({ type: 'details', targets: Array.from({ length: 6000 }, (_, i) => `B0${String(i).padStart(8, '0')}`) });
  expect(many.status).toBe(400);
  for (const q of [
    'limit=-1',
    'limit=1e3',
    'offset=99999999999999999999',
    'limit=100000',
    'from=2026-13-45',
    'to=0000-00-00',
    'from=2026-01-01T25:00:00Z',
  ]) {
    const res = await h.http.get(`${path(jobs)}?${q}`).set(bearer(tenant.apiKey));
    expect([q, res.status]).toEqual([q, 400]);
  }
  for (const id of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e', 'job_' + 'a'.repeat(5000)]) {
    const res = await h.http.get(`/v1/key/jobs/${id}`).set(bearer(tenant.apiKey));
    expect(res.status).toBe(404);
  }
  expect(await stored()).toEqual(before);
});

it.each(['gzip', 'deflate', 'br'])(
  'Content-Encoding: %s on a body that is not compressed is a 400 in the error shape, not a 500',
  async (encoding) => {
    const before = await stored();
    const res = await h.http
      .post(path(jobs))
      .set(bearer(tenant.apiKey))
      .set('content-type', 'application/json')
      .set('content-encoding', encoding)
      .send(JSON.stringify({ type: 'search', targets: ['desk lamp'] }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining('Content-Encoding'),
      requestId: expect.any(String),
    });
    expect(await stored()).toEqual(before);
  },
);
