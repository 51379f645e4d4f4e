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

describe('alert rules', () => {
  const rules = () => path('/v1/key/projects/PROJECT/alert-rules');
  const ruleCount = async () =>
    Number(
      (
        await h.deps.db
          .selectFrom('alert_rule')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('project_id', '=', tenant.projectId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const post = (raw: string, type = 'application/json') =>
    h.http.post(rules()).set(bearer(tenant.apiKey)).set('content-type', type).send(raw);
  let ruleId: string;

  beforeAll(async () => {
    const res = await h.http
      .post(rules())
      .set(bearer(tenant.apiKey))
      .send({ name: 'hostile base', condition: { type: 'price_below', value: 10 } });
    expect(res.status).toBe(201);
    ruleId = res.body.data.id;
  });

  it.each(['{', '{"name":', '[', 'null', '"x"', '1e999999', '{"name":"a","condition":{"type":"back_in_stock"}', '\u0000'])(
    'malformed JSON %j is a 400 and stores no rule',
    async (raw) => {
      const before = await ruleCount();
      const res = await post(raw);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: expect.stringMatching(/^[A-Z_]+$/), requestId: expect.any(String) });
      expect(await ruleCount()).toBe(before);
      const patch = await h.http
        .patch(`/v1/key/alert-rules/${ruleId}`)
        .set(bearer(tenant.apiKey))
        .set('content-type', 'application/json')
        .send(raw);
      expect(patch.status).toBe(400);
      const preview = await h.http
        .post(path('/v1/key/projects/PROJECT/alert-rules/preview'))
        .set(bearer(tenant.apiKey))
        .set('content-type', 'application/json')
        .send(raw);
      expect(preview.status).toBe(400);
    },
  );

  it.each([
    [{ name: 5, condition: { type: 'back_in_stock' } }, 'body.name'],
    [{ name: 'x', condition: 'price_below' }, 'body.condition'],
    [{ name: 'x', condition: { type: 'price_below', value: '19.99' } }, 'body.condition.value'],
    [{ name: 'x', condition: { type: 'back_in_stock' }, asins: 'B0DR8G428S' }, 'body.asins'],
    [{ name: 'x', condition: { type: 'back_in_stock' }, cooldownSeconds: -1 }, 'body.cooldownSeconds'],
    [{ name: 'x', condition: { type: 'back_in_stock' }, maxPerDay: 1e9 }, 'body.maxPerDay'],
    [{ name: 'x', condition: { type: 'back_in_stock' }, enabled: 'yes' }, 'body.enabled'],
    [{ name: 'x', condition: { type: 'back_in_stock' }, notify: { members: 'usr_x' } }, 'body.notify.members'],
    [{ name: 'x', condition: { type: 'back_in_stock' }, postalCode: '10001' }, 'body.postalCode'],
  ])('wrong types %j are a 400 naming %s', async (body, field) => {
    const before = await ruleCount();
    const res = await h.http.post(rules()).set(bearer(tenant.apiKey)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContainEqual(
      expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}`)),
    );
    expect(await ruleCount()).toBe(before);
    // the preview takes the creation body, checked the same way
    const preview = await h.http.post(path('/v1/key/projects/PROJECT/alert-rules/preview')).set(bearer(tenant.apiKey)).send(body);
    expect([preview.status, preview.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const unknown = await h.http
      .post(path('/v1/key/projects/PROJECT/alert-rules/preview'))
      .set(bearer(tenant.apiKey))
      .send({ ...body, [field.split('.')[1]!]: undefined, colour: 'red' });
    expect(unknown.status).toBe(400);
  });

  it('unknown fields are a 400 on creation and on change, and change nothing', async () => {
    const before = await ruleCount();
    const created = await h.http
      .post(rules())
      .set(bearer(tenant.apiKey))
      .send({ name: 'x', condition: { type: 'back_in_stock', extra: 1 }, projectId: 'prj_0000000000000000', __proto__: { admin: true } });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('VALIDATION_ERROR');
    const patched = await h.http.patch(`/v1/key/alert-rules/${ruleId}`).set(bearer(tenant.apiKey)).send({ enabled: false, id: 'alr_x' });
    expect(patched.status).toBe(400);
    const got = await h.http.get(`/v1/key/alert-rules/${ruleId}`).set(bearer(tenant.apiKey));
    expect(got.body.data).toMatchObject({ id: ruleId, enabled: true, name: 'hostile base' });
    expect(await ruleCount()).toBe(before);
  });

  it.each(BAD_STRINGS)('a rule name with %j is a 400 and stores nothing', async (bad) => {
    const before = await ruleCount();
    const res = await post(JSON.stringify({ name: `rule ${bad}`, condition: { type: 'back_in_stock' } }));
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('body.name');
    expect(await ruleCount()).toBe(before);
  });

  it('huge bodies: too many ASINs or members are a 400, a body over 1 MiB a 413, and nothing is stored', async () => {
    const before = await ruleCount();
    const asins = Array.from({ length: 1_001 }, (_, i) => `B0${String(i).padStart(8, '0')}`);
    const many = await h.http
      .post(rules())
      .set(bearer(tenant.apiKey))
      .send({ name: 'x', condition: { type: 'back_in_stock' }, asins });
    expect(many.status).toBe(400);
    const members = await h.http
      .post(rules())
      .set(bearer(tenant.apiKey))
      .send({ name: 'x', condition: { type: 'back_in_stock' }, notify: { members: Array.from({ length: 21 }, (_, i) => `usr_${i}`) } });
    expect(members.status).toBe(400);
    const long = await h.http
      .post(rules())
      .set(bearer(tenant.apiKey))
      .send({ name: 'n'.repeat(101), condition: { type: 'back_in_stock' } });
    expect(long.status).toBe(400);
    const huge = await post(JSON.stringify({ name: 'x', condition: { type: 'back_in_stock' }, pad: 'x'.repeat(1_100_000) }));
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await ruleCount()).toBe(before);
  });

  it('foreign and malformed ids are 404; members of no organization of the project are a 400', async () => {
    const other = await createTenant(h.deps.db, { credits: 100 });
    const foreign = await h.http
      .post(`/v1/key/projects/${other.projectId}/alert-rules`)
      .set(bearer(other.apiKey))
      .send({ name: 'foreign', condition: { type: 'back_in_stock' } });
    expect(foreign.status).toBe(201);
    for (const id of [foreign.body.data.id, 'alr_0000000000000000', '..%2F..%2Fetc%2Fpasswd', 'alr_' + 'a'.repeat(5000), '%2e%2e']) {
      for (const res of [
        await h.http.get(`/v1/key/alert-rules/${id}`).set(bearer(tenant.apiKey)),
        await h.http.patch(`/v1/key/alert-rules/${id}`).set(bearer(tenant.apiKey)).send({ enabled: false }),
        await h.http.delete(`/v1/key/alert-rules/${id}`).set(bearer(tenant.apiKey)),
      ])
        expect([id, res.status]).toEqual([id, 404]);
    }
    const still = await h.http.get(`/v1/key/alert-rules/${foreign.body.data.id}`).set(bearer(other.apiKey));
    expect(still.body.data.enabled).toBe(true);
    const notify = await h.http
      .post(rules())
      .set(bearer(tenant.apiKey))
      .send({ name: 'x', condition: { type: 'back_in_stock' }, notify: { members: [other.userId] } });
    expect(notify.status).toBe(400);
  });

  it('bad list queries are 400s', async () => {
    for (const [p, q] of [
      ['alert-rules', 'limit=0'],
      ['alert-rules', 'limit=101'],
      ['alert-rules', 'offset=-1'],
      ['alerts', 'from=2026-13-45'],
      ['alerts', 'limit=1e3'],
      ['alerts', 'asin=%00'],
    ]) {
      const res = await h.http.get(`${path(`/v1/key/projects/PROJECT/${p}`)}?${q}`).set(bearer(tenant.apiKey));
      expect([p, q, res.status]).toEqual([p, q, 400]);
    }
  });
});
