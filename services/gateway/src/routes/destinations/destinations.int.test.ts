import { type S3Simulator, startS3Simulator } from '@crawl/s3-simulator';
import { createTenant, type TestTenant } from '@crawl/testing';
import { member } from '../../test-support/accounts';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

/**
 * The destinations API against the local S3 server: saved only after a real test write, the
 * storage's own code when that fails, the secret never returned and encrypted at rest, every
 * change in the audit log, foreign ids 404, a viewer reads and cannot write, and the endpoint under
 * the webhook egress rules when the operator keeps private addresses closed.
 */
const KEY = { accessKeyId: 'AKIAGATEWAYDEST00001', secretAccessKey: 'gateway-destination-secret' };
let s3: S3Simulator;
let h: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  s3 = await startS3Simulator({ credentials: [KEY], buckets: ['exports'] });
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
});
afterAll(async () => {
  await h?.close();
  await s3?.close();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Warehouse',
  type: 's3',
  bucket: 'exports',
  region: 'us-east-1',
  endpoint: s3.url,
  prefix: 'crawl/',
  ...KEY,
  format: 'jsonl',
  gzip: true,
  ...overrides,
});
const create = (b: object, t = tenant) => h.http.post(`/v1/key/projects/${t.projectId}/destinations`).set(bearer(t.apiKey)).send(b);

it('creates a destination after a test write, never shows its secret, and lists, gets, patches and deletes it with audit entries', async () => {
  const res = await create(body());
  expect(res.status).toBe(201);
  const destination = res.body.data;
  expect(res.headers.location).toBe(`/v1/key/destinations/${destination.id}`);
  expect(destination).toEqual({
    id: expect.stringMatching(/^dst_/),
    projectId: tenant.projectId,
    name: 'Warehouse',
    type: 's3',
    bucket: 'exports',
    region: 'us-east-1',
    endpoint: s3.url,
    prefix: 'crawl/',
    accessKeyId: KEY.accessKeyId,
    format: 'jsonl',
    gzip: true,
    scheduleIds: null,
    createdAt: expect.any(String),
    updatedAt: expect.any(String),
  });
  expect(JSON.stringify(res.body)).not.toContain(KEY.secretAccessKey);
  // the test object was written under the prefix and deleted again
  expect(
    s3.requests.some((r) => r.method === 'PUT' && r.path.startsWith('/exports/crawl/.crawl-data-service-test-') && r.status === 200),
  ).toBe(true);
  expect(await s3.store.list('exports', '')).toEqual([]);
  // at rest: ciphertext only
  const stored = await h.deps.db.selectFrom('destination').selectAll().where('id', '=', destination.id).executeTakeFirstOrThrow();
  expect(stored.secret_access_key_encrypted).not.toContain(KEY.secretAccessKey);
  expect(stored.secret_access_key_encrypted).toMatch(/^v1\./);

  const listed = await h.http.get(`/v1/key/projects/${tenant.projectId}/destinations`).set(bearer(tenant.apiKey));
  expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([destination.id]);
  const patched = await h.http
    .patch(`/v1/key/destinations/${destination.id}`)
    .set(bearer(tenant.apiKey))
    .send({ name: 'Lake', format: 'csv', gzip: false });
  expect(patched.status).toBe(200);
  expect(patched.body.data).toMatchObject({ name: 'Lake', format: 'csv', gzip: false });
  // a new secret is tested before it is kept: a wrong one is refused and the old one stays
  const wrong = await h.http
    .patch(`/v1/key/destinations/${destination.id}`)
    .set(bearer(tenant.apiKey))
    .send({ secretAccessKey: 'not-the-secret' });
  expect(wrong.status).toBe(400);
  expect(wrong.body.error).toMatchObject({ code: 'DESTINATION_UNREACHABLE', details: { storageCode: 'SignatureDoesNotMatch' } });
  const kept = await h.deps.db
    .selectFrom('destination')
    .select('secret_access_key_encrypted')
    .where('id', '=', destination.id)
    .executeTakeFirstOrThrow();
  expect(kept.secret_access_key_encrypted).toBe(stored.secret_access_key_encrypted);

  const deliveries = await h.http.get(`/v1/key/destinations/${destination.id}/deliveries`).set(bearer(tenant.apiKey));
  expect(deliveries.body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } });
  expect((await h.http.delete(`/v1/key/destinations/${destination.id}`).set(bearer(tenant.apiKey))).status).toBe(204);
  expect((await h.http.get(`/v1/key/destinations/${destination.id}`).set(bearer(tenant.apiKey))).status).toBe(404);
  const audit = await h.deps.db
    .selectFrom('audit_log')
    .select(['action', 'details'])
    .where('organization_id', '=', tenant.organizationId)
    .where('action', 'in', ['destination.created', 'destination.updated', 'destination.deleted'])
    .orderBy('created_at')
    .execute();
  expect(audit.map((a) => a.action)).toEqual(['destination.created', 'destination.updated', 'destination.deleted']);
  expect(JSON.stringify(audit)).not.toContain(KEY.secretAccessKey);
});

it("refuses with 400 DESTINATION_UNREACHABLE and the storage's code: wrong secret, unknown key, missing bucket, wrong region", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ secretAccessKey: 'wrong' }, 'SignatureDoesNotMatch'],
    [{ accessKeyId: 'AKIAUNKNOWN000000000' }, 'InvalidAccessKeyId'],
    [{ bucket: 'missing-bucket' }, 'NoSuchBucket'],
    [{ region: 'eu-west-1' }, 'AuthorizationHeaderMalformed'],
  ];
  for (const [overrides, code] of cases) {
    const res = await create(body(overrides));
    expect({ status: res.status, code: res.body.error.code, storageCode: res.body.error.details.storageCode }).toEqual({
      status: 400,
      code: 'DESTINATION_UNREACHABLE',
      storageCode: code,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts:\d+|stack/);
  }
  const listed = await h.http.get(`/v1/key/projects/${tenant.projectId}/destinations`).set(bearer(tenant.apiKey));
  expect(listed.body.data).toEqual([]);
});

it('answers bad bodies with 400 naming the field: unknown fields, a bad bucket, prefix, format, a foreign schedule', async () => {
  const bad: [Record<string, unknown>, string][] = [
    [{ extra: 1 }, ''],
    [{ bucket: 'Has_Upper' }, 'bucket'],
    [{ bucket: '10.0.0.1' }, 'bucket'],
    [{ prefix: '/abs' }, 'prefix'],
    [{ prefix: 'a/../b' }, 'prefix'],
    [{ format: 'xml' }, 'format'],
    [{ type: 'gcs' }, 'type'],
    [{ endpoint: 'ftp://example.com' }, 'endpoint'],
    [{ scheduleIds: ['sch_0000000000000000'] }, 'scheduleIds'],
    [{ secretAccessKey: 'a\u0000b' }, 'secretAccessKey'],
  ];
  for (const [overrides, field] of bad) {
    const res = await create(body(overrides));
    expect({ field, status: res.status, code: res.body.error?.code }).toEqual({ field, status: 400, code: 'VALIDATION_ERROR' });
    if (field) expect(JSON.stringify(res.body.error.details)).toContain(field);
  }
});

it("keeps another tenant's destinations out of reach, and a viewer to reading", async () => {
  const made = (await create(body())).body.data;
  const other = await createTenant(h.deps.db);
  for (const [method, path] of [
    ['get', `/v1/key/destinations/${made.id}`],
    ['patch', `/v1/key/destinations/${made.id}`],
    ['delete', `/v1/key/destinations/${made.id}`],
    ['get', `/v1/key/destinations/${made.id}/deliveries`],
    ['post', `/v1/key/destinations/${made.id}/deliveries/job_0000000000000000/retry`],
  ] as const) {
    const res = await h.http[method](path)
      .set(bearer(other.apiKey))
      .send(method === 'patch' ? { name: 'x' } : undefined);
    expect({ path, method, status: res.status }).toEqual({ path, method, status: 404 });
  }
  const viewer = await member(h, tenant.organizationId, 'viewer');
  expect((await viewer.agent.get(`/v1/key/destinations/${made.id}`)).status).toBe(200);
  expect((await viewer.agent.patch(`/v1/key/destinations/${made.id}`).set(viewer.csrf).send({ name: 'x' })).status).toBe(403);
  expect((await viewer.agent.post(`/v1/key/projects/${tenant.projectId}/destinations`).set(viewer.csrf).send(body())).status).toBe(403);
});

it('refuses an endpoint on a private address when the operator keeps them closed, without touching it', async () => {
  const closed = await startHarness({ allowPrivateWebhookUrls: false });
  try {
    const t = await createTenant(closed.deps.db);
    const before = s3.requests.length;
    for (const endpoint of [s3.url, 'http://169.254.169.254/', 'http://[::1]:9000', 'http://storage.internal/']) {
      const res = await closed.http.post(`/v1/key/projects/${t.projectId}/destinations`).set(bearer(t.apiKey)).send(body({ endpoint }));
      expect({ endpoint, status: res.status, code: res.body.error.code }).toEqual({ endpoint, status: 400, code: 'VALIDATION_ERROR' });
      expect(res.body.error.message).toMatch(/private address|internal name/);
    }
    expect(s3.requests.length).toBe(before);
  } finally {
    await closed.close();
  }
});
