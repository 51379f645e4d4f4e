import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { verify } from '@crawl/client';
import { WebhookDeliveryRepository } from '@crawl/db';
import { buildEvent, createContractChecker, createTenant, recordContractProblems, type TestTenant } from '@crawl/testing';
import { openApiDocument } from '../../openapi/document';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

/**
 * Webhook operations on the configuration: secret rotation with two v1=
 * signatures, the automatic disabling shown in GET and undone by PATCH; and the receiver's
 * answer kept in the log.
 */
let h: Harness;
let tenant: TestTenant;
let receiver: Server;
let receiverUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let answer: { status: number; body: string } = { status: 204, body: '' };
const contract = createContractChecker(openApiDocument());

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      // a delivery signed with two secrets is still what the document promises
      recordContractProblems(contract.checkWebhookDelivery({ headers: req.headers, body }));
      res.statusCode = answer.status;
      res.end(answer.body);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
});
afterAll(async () => {
  await new Promise((r) => receiver.close(r));
  await h.close();
});

const patch = (configs: object[]) =>
  h.http.patch(`/v1/key/projects/${tenant.projectId}/webhooks`).set(bearer(tenant.apiKey)).send({ configs });
const get = () => h.http.get(`/v1/key/projects/${tenant.projectId}/webhooks`).set(bearer(tenant.apiKey));
const testDelivery = (webhookId: string) =>
  h.http.post(`/v1/key/projects/${tenant.projectId}/webhooks/test`).set(bearer(tenant.apiKey)).send({ webhookId });

it('a PATCH that changes a kept secret signs with both secrets during the grace period; either verifies, a wrong one does not', async () => {
  const [config] = (await patch([{ url: receiverUrl, triggerAction: 'job.completed', secret: 'whsec_old_secret' }])).body.data.configs;
  expect(config.previousSecretExpiresAt).toBeNull();

  const rotated = await patch([{ id: config.id, url: receiverUrl, triggerAction: 'job.completed', secret: 'whsec_new_secret' }]);
  const next = rotated.body.data.configs[0];
  expect(next.secret).toBe('whsec_new_secret');
  const expires = Date.parse(next.previousSecretExpiresAt);
  expect(expires).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);

  received.length = 0;
  answer = { status: 204, body: '' };
  expect((await testDelivery(config.id)).body.data.success).toBe(true);
  const { headers, body } = received[0]!;
  const header = String(headers['x-service-signature']);
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  expect(verify('whsec_new_secret', body, header).ok).toBe(true);
  expect(verify('whsec_old_secret', body, header).ok).toBe(true);
  expect(verify('whsec_wrong_secret', body, header)).toEqual({ ok: false, reason: 'signature_mismatch' });

  // Sending the new secret back keeps the rotation in progress; a config without a secret gets a
  // new one (docs/events-and-webhooks.md), which rotates again: the oldest secret drops out.
  const kept = await patch([{ id: config.id, url: receiverUrl, triggerAction: 'job.completed', secret: 'whsec_new_secret' }]);
  expect(kept.body.data.configs[0].previousSecretExpiresAt).toBe(next.previousSecretExpiresAt);
  const generated = (await patch([{ id: config.id, url: receiverUrl, triggerAction: 'job.completed' }])).body.data.configs[0];
  expect(generated.secret).toMatch(/^whsec_/);
  received.length = 0;
  await testDelivery(config.id);
  const last = received[0]!;
  expect(verify(generated.secret, last.body, last.headers['x-service-signature']).ok).toBe(true);
  expect(verify('whsec_new_secret', last.body, last.headers['x-service-signature']).ok).toBe(true);
  expect(verify('whsec_old_secret', last.body, last.headers['x-service-signature']).ok).toBe(false);
});

it("the log keeps 1 KiB of the receiver's answer, with the secret redacted", async () => {
  const [config] = (await patch([{ url: receiverUrl, triggerAction: 'job.completed', secret: 'whsec_echoed_secret' }])).body.data.configs;
  answer = { status: 401, body: `{"error":"signature rejected","secret":"whsec_echoed_secret"}${'x'.repeat(2_000)}` };
  const res = await testDelivery(config.id);
  expect(res.body.data).toMatchObject({ success: false, statusCode: 401 });
  answer = { status: 204, body: '' };
  const [log] = (await get()).body.data.logs;
  expect(log).toMatchObject({ webhookId: config.id, statusCode: 401, manual: false, test: true });
  expect(log.responseBody.startsWith('{"error":"signature rejected","secret":"[redacted]"}xxx')).toBe(true);
  expect(Buffer.byteLength(log.responseBody)).toBeLessThanOrEqual(1_024 + '[redacted]'.length);
  expect(JSON.stringify(log)).not.toContain('whsec_echoed_secret');
});

it('an endpoint failing for too long shows as disabled in GET; PATCH with enabled: true re-enables it', async () => {
  const [config] = (await patch([{ url: receiverUrl, triggerAction: 'job.completed' }])).body.data.configs;
  expect(config).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
  // The deliverer's cycle with an endpoint failing for 6 days (the default limit is 5).
  const repo = new WebhookDeliveryRepository(h.deps.db);
  await h.deps.db
    .updateTable('webhook_config')
    .set({ failing_since: new Date(Date.now() - 6 * 24 * 3_600_000) })
    .where('id', '=', config.id)
    .execute();
  await buildEvent(h.deps.db, tenant.projectId);
  await repo.dispatchEvents(100, (id) => JSON.stringify({ id }));
  const [claim] = (await repo.claimDue(100, 60_000, 100)).filter((c) => c.webhook_id === config.id);
  const disabled = await repo.recordAttempts(
    [
      {
        deliveryId: claim!.id,
        webhookId: config.id,
        projectId: tenant.projectId,
        eventType: 'job.completed',
        number: 1,
        manual: false,
        success: false,
        statusCode: 502,
        durationMs: 5,
        error: 'HTTP 502',
        responseBody: null,
        final: false,
        nextAttemptAt: new Date(),
      },
    ],
    { afterMs: 5 * 24 * 3_600_000, reason: 'every delivery attempt failed since' },
  );
  expect(disabled.map((d) => d.id)).toEqual([config.id]);

  const shown = (await get()).body.data.configs[0];
  expect(shown).toMatchObject({
    id: config.id,
    enabled: false,
    disabledAt: expect.any(String),
    disabledReason: expect.stringMatching(/^every delivery attempt failed since /),
  });
  // Sent back as GET shows it (enabled: false), the record stays.
  const roundTrip = (
    await patch([{ id: config.id, url: receiverUrl, triggerAction: 'job.completed', enabled: false, secret: config.secret }])
  ).body.data.configs[0];
  expect(roundTrip).toMatchObject({ enabled: false, disabledAt: shown.disabledAt });
  const reenabled = (
    await patch([{ id: config.id, url: receiverUrl, triggerAction: 'job.completed', enabled: true, secret: config.secret }])
  ).body.data.configs[0];
  expect(reenabled).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
  const row = await h.deps.db.selectFrom('webhook_config').select('failing_since').where('id', '=', config.id).executeTakeFirstOrThrow();
  expect(row.failing_since).toBeNull(); // a fresh start: 5 more days before it could be disabled again
});
