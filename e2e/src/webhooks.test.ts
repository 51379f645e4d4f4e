import { loadWebhooksConfig, startWebhooks, type WebhooksHandle } from '@crawl/webhooks';
import { verify } from '@crawl/client';
import { ServiceProcess } from '@crawl/testing';
import { Receiver } from './receivers';
import { auth, type Stack, startStack } from './stack';

let stack: Stack;
let webhooks: WebhooksHandle | null = null;
const receivers: Receiver[] = [];
const processes: ServiceProcess[] = [];
const webhookEnv = () => ({
  ...stack.workerEnv,
  SECRETS_KEY: 'c'.repeat(64),
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  // x10 per retry: 5, 50, 500, 5000 ms
  WEBHOOK_BACKOFF_BASE_MS: '5',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_RECONCILE_INTERVAL_MS: '500',
});

beforeAll(async () => {
  stack = await startStack();
});
afterEach(async () => {
  // Receivers first: closing them ends hanging deliveries, so the service drains quickly.
  for (const r of receivers.splice(0)) await r.close();
  for (const p of processes.splice(0)) await p.stop('SIGKILL');
  await webhooks?.close();
  webhooks = null;
});
afterAll(() => stack.close());

async function receiver(respond?: (n: number) => number | 'hang'): Promise<Receiver> {
  const r = await Receiver.start(respond);
  receivers.push(r);
  return r;
}

async function configure(tenant: Awaited<ReturnType<Stack['tenant']>>, configs: object[]) {
  const res = await stack.http.patch(`/v1/key/projects/${tenant.projectId}/webhooks`).set(auth(tenant)).send({ configs });
  expect(res.status).toBe(200);
  return res.body.data.configs as { id: string; secret: string; triggerAction: string }[];
}

it('a completed job is delivered exactly once, signed, to job.completed subscribers only', async () => {
  webhooks = await startWebhooks(loadWebhooksConfig(webhookEnv()));
  const tenant = await stack.tenant();
  const done = await receiver();
  const failed = await receiver();
  const [doneConfig] = await configure(tenant, [
    { url: done.url, triggerAction: 'job.completed' },
    { url: failed.url, triggerAction: 'job.failed' },
  ]);
  const jobId = await stack.createJob(tenant, { type: 'details', targets: ['B0HOOK0001'] });
  await stack.waitForJob(jobId);
  const [delivery] = await done.waitFor(1);
  await new Promise((r) => setTimeout(r, 800));
  expect(done.received).toHaveLength(1);
  expect(failed.received).toHaveLength(0);
  const body = JSON.parse(delivery!.body);
  expect(body).toMatchObject({
    event: 'job.completed',
    projectId: tenant.projectId,
    data: { id: jobId, status: 'completed', resultsCount: 1 },
  });
  expect(delivery!.headers['x-service-delivery']).toBe(body.id);
  expect(delivery!.headers['x-service-event']).toBe('job.completed');
  expect(delivery!.headers['x-service-webhook-id']).toBe(doneConfig!.id);
  expect(verify(doneConfig!.secret, delivery!.body, delivery!.headers['x-service-signature'])).toMatchObject({ ok: true });
  const logs = (await stack.http.get(`/v1/key/projects/${tenant.projectId}/webhooks`).set(auth(tenant))).body.data.logs;
  expect(logs).toEqual([expect.objectContaining({ deliveryId: body.id, success: true, attempt: 1, event: 'job.completed', test: false })]);
});

it('a receiver failing 4 times gets 5 attempts of the same delivery; one always failing gets exactly 5', async () => {
  webhooks = await startWebhooks(loadWebhooksConfig(webhookEnv()));
  const tenant = await stack.tenant();
  const flaky = await receiver((n) => (n <= 4 ? 500 : 200));
  const dead = await receiver(() => 503);
  const [flakyConfig, deadConfig] = await configure(tenant, [
    { url: flaky.url, triggerAction: 'job.completed' },
    { url: dead.url, triggerAction: 'job.completed' },
  ]);
  await stack.waitForJob(await stack.createJob(tenant, { type: 'details', targets: ['B0HOOK0002'] }));
  const attempts = await flaky.waitFor(5);
  await dead.waitFor(5);
  await new Promise((r) => setTimeout(r, 2_500)); // a 6th attempt would have come by now (the 5th came after the longest wait)
  expect(flaky.received).toHaveLength(5);
  expect(dead.received).toHaveLength(5);
  const ids = new Set(attempts.map((a) => a.headers['x-service-delivery']));
  expect(ids.size).toBe(1);
  expect(new Set(attempts.map((a) => a.body)).size).toBe(1); // byte-identical bodies
  expect(new Set(attempts.map((a) => a.headers['x-service-signature'])).size).toBeGreaterThan(1);
  for (const a of attempts) expect(verify(flakyConfig!.secret, a.body, a.headers['x-service-signature']).ok).toBe(true);
  // Exponential: each gap longer than the one before (5 ms x10 per attempt, +/-20%).
  const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
  expect(gaps[3]!).toBeGreaterThan(gaps[1]!);

  const logs = (await stack.http.get(`/v1/key/projects/${tenant.projectId}/webhooks?limit=100`).set(auth(tenant))).body.data.logs;
  const flakyLogs = logs.filter((l: { webhookId: string }) => l.webhookId === flakyConfig!.id);
  expect(flakyLogs.map((l: { attempt: number }) => l.attempt)).toEqual([5, 4, 3, 2, 1]);
  expect(flakyLogs.map((l: { success: boolean }) => l.success)).toEqual([true, false, false, false, false]);
  const deadLogs = logs.filter((l: { webhookId: string }) => l.webhookId === deadConfig!.id);
  expect(deadLogs).toHaveLength(5);
  const deliveryId = String(dead.received[0]!.headers['x-service-delivery']);
  const row = await stack.db.selectFrom('webhook_delivery').select(['status', 'attempts']).where('id', '=', deliveryId).executeTakeFirst();
  expect(row).toEqual({ status: 'failed', attempts: 5 });
}, 60_000);

it('killing the webhooks service mid-schedule: delivery continues after restart, never twice after a 2xx', async () => {
  const env = { ...webhookEnv(), WEBHOOK_BACKOFF_BASE_MS: '200' };
  const spawn = () => {
    const p = ServiceProcess.start('webhooks', 'services/webhooks/dist/main.js', env);
    processes.push(p);
    return p;
  };
  const service = spawn();
  const tenant = await stack.tenant();
  const flaky = await receiver((n) => (n <= 2 ? 500 : 200));
  await configure(tenant, [{ url: flaky.url, triggerAction: 'job.completed' }]);
  await stack.waitForJob(await stack.createJob(tenant, { type: 'details', targets: ['B0HOOK0003'] }));
  await flaky.waitFor(2, 30_000); // attempt 2 failed; attempt 3 is due ~2 s later
  await service.stop('SIGKILL');
  await new Promise((r) => setTimeout(r, 500));
  spawn();
  await flaky.waitFor(3, 30_000);
  await new Promise((r) => setTimeout(r, 3_000));
  expect(flaky.received).toHaveLength(3);
  expect(flaky.received[2]!.status).toBe(200);
  expect(new Set(flaky.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
}, 90_000);

it('a dead receiver does not hold up deliveries to live ones', async () => {
  // The hanging receiver never answers within the test; with 4 delivery slots and no
  // per-receiver limit its 6 deliveries would take every slot and starve the live receiver.
  webhooks = await startWebhooks(
    loadWebhooksConfig({ ...webhookEnv(), WEBHOOK_TIMEOUT_MS: '30000', WEBHOOK_ENDPOINT_CONCURRENCY: '2', WEBHOOK_CONCURRENCY: '4' }),
  );
  const tenant = await stack.tenant();
  const hanging = await receiver(() => 'hang');
  const live = await receiver();
  await configure(tenant, [
    { url: hanging.url, triggerAction: 'job.completed' },
    { url: live.url, triggerAction: 'job.completed' },
  ]);
  for (let i = 0; i < 6; i++) await stack.createJob(tenant, { type: 'details', targets: [`B0HOOKD00${i}`] });
  await live.waitFor(6, 20_000);
  expect(hanging.received.length).toBeLessThanOrEqual(2);
}, 60_000);
