import { verify } from '@crawl/client';
import { loadWebhooksConfig, startWebhooks, type WebhooksHandle } from '@crawl/webhooks';
import { Receiver } from './receivers';
import { auth, type Stack, startStack } from './stack';

/**
 * Webhook retries and replay: a receiver down for longer than the whole retry schedule loses nothing. Time
 * is scaled down: with a 2 ms base (x10 per retry) the 5 attempts span ~2.2 s, and the receiver
 * stays down past them, as a 2-hour outage outlasts a schedule whose base is ~6 s (the default
 * 80 s base spans about a day, so a real 2-hour outage is covered by the retries alone). Once
 * the receiver is back, one replay brings every event, once per delivery id.
 */
let stack: Stack;
let webhooks: WebhooksHandle | null = null;
const receivers: Receiver[] = [];

beforeAll(async () => {
  stack = await startStack();
});
afterEach(async () => {
  for (const r of receivers.splice(0)) await r.close();
  await webhooks?.close();
  webhooks = null;
});
afterAll(() => stack.close());

const EVENTS = 12;

it('a receiver down for the whole retry schedule receives every event after a replay, once per delivery id', async () => {
  webhooks = await startWebhooks(
    loadWebhooksConfig({
      ...stack.workerEnv,
      SECRETS_KEY: 'c'.repeat(64),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '2',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_RECONCILE_INTERVAL_MS: '200',
    }),
  );
  let down = true;
  const receiver = await Receiver.start(() => (down ? 503 : 204));
  receivers.push(receiver);
  const tenant = await stack.tenant();
  const configured = await stack.http
    .patch(`/v1/key/projects/${tenant.projectId}/webhooks`)
    .set(auth(tenant))
    .send({ configs: [{ url: receiver.url, triggerAction: 'job.completed' }] });
  const secret = configured.body.data.configs[0].secret as string;
  const since = new Date(Date.now() - 1_000).toISOString();
  const jobs: string[] = [];
  for (let i = 0; i < EVENTS; i++)
    jobs.push(await stack.createJob(tenant, { type: 'details', targets: [`B0OUTAGE${String(i).padStart(2, '0')}`] }));
  for (const id of jobs) await stack.waitForJob(id);

  // Down: every delivery gets its 5 attempts, then fails.
  await receiver.waitFor(EVENTS * 5, 30_000);
  const deliveries = () => stack.http.get(`/v1/key/projects/${tenant.projectId}/webhooks/deliveries?limit=100`).set(auth(tenant));
  await waitUntil(async () => (await deliveries()).body.data.every((d: { status: string }) => d.status === 'failed'));
  const failed = (await deliveries()).body;
  expect(failed.pagination.total).toBe(EVENTS);
  expect(failed.data[0]).toMatchObject({ status: 'failed', attemptCount: 5, nextAttemptAt: null });
  expect(failed.data[0].attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
  expect(failed.data[0].attempts[4]).toMatchObject({ success: false, statusCode: 503, manual: false, error: 'HTTP 503' });

  // Back up: replay the failed ones (twice: the retry of a lost answer re-arms nothing more).
  down = false;
  const sentBefore = receiver.received.length;
  const replay = () => stack.http.post(`/v1/key/projects/${tenant.projectId}/webhooks/replay`).set(auth(tenant)).send({ from: since });
  const first = await replay();
  const second = await replay();
  expect(first.status).toBe(202);
  expect(first.body.data).toMatchObject({ replayed: EVENTS, hasMore: false });
  expect(second.body.data).toEqual({ replayed: 0, deliveryIds: [], hasMore: false });

  await waitUntil(async () => (await deliveries()).body.data.every((d: { status: string }) => d.status === 'delivered'));
  await new Promise((r) => setTimeout(r, 500)); // nothing more arrives
  const after = receiver.received.slice(sentBefore);
  const okIds = after.filter((r) => r.status === 204).map((r) => String(r.headers['x-service-delivery']));
  expect(new Set(okIds).size).toBe(EVENTS);
  expect(okIds).toHaveLength(EVENTS); // once per delivery id
  expect(new Set(okIds)).toEqual(new Set(failed.data.map((d: { id: string }) => d.id)));
  for (const r of after) expect(verify(secret, r.body, r.headers['x-service-signature']).ok).toBe(true);
  const delivered = (await deliveries()).body.data[0];
  expect(delivered).toMatchObject({ status: 'delivered', attemptCount: 6 });
  expect(delivered.attempts.at(-1)).toMatchObject({ attempt: 6, manual: true, success: true, statusCode: 204 });
}, 60_000);

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
