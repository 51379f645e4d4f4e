import { createServer, type IncomingMessage, type Server } from 'node:http';
import { hostname } from 'node:os';
import { UNUSABLE_HOST_REASON } from '@crawl/webhook-delivery';
import { createContractChecker, createTenant, recordContractProblems, type TestTenant } from '@crawl/testing';
import { verify } from '@crawl/client';
import { openApiDocument } from '../../openapi/document';
import { bearer, type Harness, startHarness, TEST_SECRETS_KEY } from '../../test-support/harness';

let h: Harness;
let strict: Harness;
let tenant: TestTenant;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingMessage['headers']; body: string }[] = [];
let answer = 204;
const deliveries = createContractChecker(openApiDocument());

beforeAll(async () => {
  h = await startHarness({ allowPrivateWebhookUrls: true });
  strict = await startHarness({ allowPrivateWebhookUrls: false });
  tenant = await createTenant(h.deps.db);
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      // test deliveries must have the shape live ones have: the document's `webhooks` section
      recordContractProblems(deliveries.checkWebhookDelivery({ headers: req.headers, body }));
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
  await h.close();
  await strict.close();
});

const patch = (body: unknown, harness = h, t = tenant) =>
  harness.http
    .patch(`/v1/key/projects/${t.projectId}/webhooks`)
    .set(bearer(t.apiKey))
    .send(body as object);
const get = (query = '') => h.http.get(`/v1/key/projects/${tenant.projectId}/webhooks${query}`).set(bearer(tenant.apiKey));

it('PATCH creates configs with generated secrets, returns them on GET, and replaces everything on the next PATCH', async () => {
  const created = await patch({
    configs: [
      { name: 'done', url: receiverUrl, triggerAction: 'job.completed' },
      { url: `${receiverUrl}?failed`, triggerAction: 'job.failed', enabled: false, secret: 'my-own-secret' },
    ],
  });
  expect(created.status).toBe(200);
  const [done, failed] = created.body.data.configs;
  expect(done).toMatchObject({
    name: 'done',
    url: receiverUrl,
    triggerAction: 'job.completed',
    enabled: true,
    id: expect.stringMatching(/^whk_/),
  });
  expect(done.secret).toMatch(/^whsec_/);
  expect(failed).toMatchObject({ enabled: false, secret: 'my-own-secret', name: null });

  const listed = await get();
  expect(listed.body.data.configs).toEqual(created.body.data.configs);
  expect(listed.body.data.logs).toEqual([]);

  // Stored encrypted: the plaintext secret is nowhere in the table.
  const rows = await h.deps.db.selectFrom('webhook_config').select('secret_encrypted').execute();
  expect(JSON.stringify(rows)).not.toContain('my-own-secret');
  expect(JSON.stringify(rows)).not.toContain(done.secret);
  expect(TEST_SECRETS_KEY).toHaveLength(64);

  // Keep `done` (sending its secret back keeps it), drop `failed`, add one.
  const replaced = await patch({
    configs: [
      { id: done.id, url: receiverUrl, triggerAction: 'job.completed', secret: done.secret },
      { url: receiverUrl, triggerAction: 'product.changed', secret: '' },
    ],
  });
  expect(replaced.status).toBe(200);
  const ids = replaced.body.data.configs.map((c: { id: string }) => c.id);
  expect(ids).toContain(done.id);
  expect(ids).not.toContain(failed.id);
  expect(replaced.body.data.configs.find((c: { id: string }) => c.id === done.id).secret).toBe(done.secret);
  expect(replaced.body.data.configs.find((c: { id: string }) => c.id !== done.id).secret).toMatch(/^whsec_/);

  // Without a secret, a kept id gets a new one.
  const rotated = await patch({ configs: [{ id: done.id, url: receiverUrl, triggerAction: 'job.completed' }] });
  expect(rotated.body.data.configs[0].secret).not.toBe(done.secret);
  expect((await patch({ configs: [] })).body.data.configs).toEqual([]);
});

it.each([
  [
    '21 configs',
    { configs: Array.from({ length: 21 }, () => ({ url: 'https://example.com/h', triggerAction: 'job.completed' })) },
    'body.configs',
  ],
  ['missing url', { configs: [{ triggerAction: 'job.completed' }] }, 'body.configs.0.url'],
  ['bad url', { configs: [{ url: 'ftp://example.com/x', triggerAction: 'job.completed' }] }, 'body.configs.0.url'],
  ['bad triggerAction', { configs: [{ url: 'https://example.com/h', triggerAction: 'job.started' }] }, 'body.configs.0.triggerAction'],
  ['unknown field', { configs: [{ url: 'https://example.com/h', triggerAction: 'job.completed', retries: 3 }] }, 'body.configs.0'],
  ['no configs', {}, 'body.configs'],
  [
    'unknown id',
    { configs: [{ id: 'whk_0000000000000000', url: 'http://127.0.0.1:9/h', triggerAction: 'job.completed' }] },
    'body.configs.0.id',
  ],
])('PATCH with %s is 400 with field details', async (_name, body, path) => {
  const before = await h.deps.db.selectFrom('webhook_config').select('id').where('project_id', '=', tenant.projectId).execute();
  const res = await patch(body, h);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  const after = await h.deps.db.selectFrom('webhook_config').select('id').where('project_id', '=', tenant.projectId).execute();
  expect(after).toEqual(before); // nothing stored half-way
});

it.each(['http://127.0.0.1:9/x', 'http://localhost/x', 'http://10.0.0.5/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]/x'])(
  'PATCH rejects the private URL %s unless private URLs are allowed',
  async (url) => {
    const other = await createTenant(strict.deps.db);
    const res = await patch({ configs: [{ url, triggerAction: 'job.completed' }] }, strict, other);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({
      path: 'body.configs.0.url',
      message: expect.stringMatching(/private|loopback|local|resolve/i),
    });
  },
);

/** A loopback URL was once refused without naming the setting that allows it. */
it('the refusal of a loopback URL names WEBHOOK_ALLOW_PRIVATE_URLS as an operator setting, and nothing else internal', async () => {
  const other = await createTenant(strict.deps.db);
  for (const url of ['http://127.0.0.1:9/x', 'http://localhost:3000/hook']) {
    const res = await patch({ configs: [{ url, triggerAction: 'job.completed' }] }, strict, other);
    expect(res.status).toBe(400);
    for (const message of [res.body.error.message, res.body.error.details[0].message]) {
      expect(message).toMatch(/unless the operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true/);
      expect(message).not.toMatch(/SECRETS_KEY|DATABASE_URL|REDIS_URL|getaddrinfo|\bE[A-Z]{4,}\b/);
    }
  }
});

it('a host name resolving to a private address and one that does not resolve get the same refusal: same code, message and details', async () => {
  const other = await createTenant(strict.deps.db);
  // This machine's name resolves (system resolver, /etc/hosts) to a loopback or private address.
  const refusal = async (url: string) => {
    const res = await patch({ configs: [{ url, triggerAction: 'job.completed' }] }, strict, other);
    expect(res.status).toBe(400);
    const { requestId: _requestId, ...error } = res.body.error;
    return error;
  };
  const internal = await refusal(`http://${hostname()}:8080/hook`);
  const missing = await refusal('http://no-such-host.invalid/hook');
  expect(missing).toEqual(internal);
  expect(internal).toEqual({
    code: 'VALIDATION_ERROR',
    message: `Invalid webhook URL: ${UNUSABLE_HOST_REASON}.`,
    details: [{ path: 'body.configs.0.url', message: UNUSABLE_HOST_REASON }],
  });
});

it('POST webhooks/test delivers a signed sample event and logs the attempt; failures are results', async () => {
  const created = await patch({ configs: [{ url: receiverUrl, triggerAction: 'job.completed' }] });
  const config = created.body.data.configs[0];
  received.length = 0;
  answer = 204;
  const ok = await h.http
    .post(`/v1/key/projects/${tenant.projectId}/webhooks/test`)
    .set(bearer(tenant.apiKey))
    .send({ webhookId: config.id, triggerAction: 'schedule.triggered' });
  expect(ok.status).toBe(200);
  expect(ok.body.data).toMatchObject({ success: true, statusCode: 204, error: null, event: 'schedule.triggered' });
  expect(received).toHaveLength(1);
  const delivery = JSON.parse(received[0]!.body);
  expect(delivery).toMatchObject({ id: ok.body.data.deliveryId, event: 'schedule.triggered', projectId: tenant.projectId, test: true });
  expect(received[0]!.headers['x-service-delivery']).toBe(delivery.id);
  expect(received[0]!.headers['x-service-webhook-id']).toBe(config.id);
  expect(verify(config.secret, received[0]!.body, received[0]!.headers['x-service-signature']).ok).toBe(true);

  answer = 500;
  const failed = await h.http
    .post(`/v1/key/projects/${tenant.projectId}/webhooks/test`)
    .set(bearer(tenant.apiKey))
    .send({ webhookId: config.id });
  expect(failed.status).toBe(200);
  expect(failed.body.data).toMatchObject({ success: false, statusCode: 500, event: 'job.completed' });
  answer = 204;

  const logs = (await get('?limit=2')).body.data.logs;
  expect(logs).toHaveLength(2);
  expect(logs[0]).toMatchObject({ success: false, statusCode: 500, test: true, event: 'job.completed', webhookId: config.id });
  expect(logs[1]).toMatchObject({ success: true, statusCode: 204, test: true });

  const missing = await h.http
    .post(`/v1/key/projects/${tenant.projectId}/webhooks/test`)
    .set(bearer(tenant.apiKey))
    .send({ webhookId: 'whk_0000000000000000' });
  expect(missing.status).toBe(404);
  const bad = await h.http
    .post(`/v1/key/projects/${tenant.projectId}/webhooks/test`)
    .set(bearer(tenant.apiKey))
    .send({ webhookId: config.id, triggerAction: 'nope' });
  expect(bad.status).toBe(400);
});

it("another project's webhook id is 404 for the test endpoint and cannot be kept by PATCH", async () => {
  const other = await createTenant(h.deps.db);
  const theirs = await patch({ configs: [{ url: receiverUrl, triggerAction: 'job.completed' }] }, h, other);
  const id = theirs.body.data.configs[0].id;
  const test = await h.http.post(`/v1/key/projects/${tenant.projectId}/webhooks/test`).set(bearer(tenant.apiKey)).send({ webhookId: id });
  expect(test.status).toBe(404);
  const steal = await patch({ configs: [{ id, url: receiverUrl, triggerAction: 'job.completed' }] });
  expect(steal.status).toBe(400);
  const still = await h.http.get(`/v1/key/projects/${other.projectId}/webhooks`).set(bearer(other.apiKey));
  expect(still.body.data.configs[0].id).toBe(id);
});

it('the 20-configuration cap holds under 10 concurrent PATCHes of 20 new configs each', async () => {
  const racer = await createTenant(h.deps.db);
  const twenty = (n: number) => ({
    configs: Array.from({ length: 20 }, (_, i) => ({ name: `r${n}-${i}`, url: receiverUrl, triggerAction: 'job.completed' })),
  });
  const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => patch(twenty(n), h, racer)));
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
  const stored = await h.deps.db.selectFrom('webhook_config').select('name').where('project_id', '=', racer.projectId).execute();
  expect(stored).toHaveLength(20);
  // Serialized: the survivors are one PATCH's whole set, not a mix.
  expect(new Set(stored.map((r) => r.name!.split('-')[0])).size).toBe(1);
});
