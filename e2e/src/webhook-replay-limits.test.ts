import { loadWebhooksConfig, startWebhooks, type WebhooksHandle } from '@crawl/webhooks';
import { Receiver } from './receivers';
import { auth, type Stack, startStack } from './stack';

/**
 * Webhook replay can no longer be used to amplify: 20 one-target jobs x 10 failing endpoints,
 * then replay in a loop for 10 s. Before the limits, 41 calls sent 2,424 signed POSTs; now each
 * failed delivery gets one replayed attempt (the per-delivery cooldown holds for a minute, the
 * budget for an hour), counted at the receiver. And a live job.completed body carries the job
 * exactly as `GET /jobs/{id}` answers it, keys in the same order.
 * Time is scaled down for the automatic schedule only: a 2 ms backoff base makes the 5
 * automatic attempts take about 2 s.
 */
let stack: Stack;
let webhooks: WebhooksHandle;
let failing: Receiver;
let healthy: Receiver;

beforeAll(async () => {
  stack = await startStack();
  webhooks = await startWebhooks(
    loadWebhooksConfig({
      ...stack.workerEnv,
      SECRETS_KEY: 'c'.repeat(64),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '2',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RECONCILE_INTERVAL_MS: '200',
    }),
  );
  failing = await Receiver.start(() => 500);
  healthy = await Receiver.start(() => 204);
});
afterAll(async () => {
  await failing.close();
  await healthy.close();
  await webhooks.close();
  await stack.close();
});

const JOBS = 20;
const ENDPOINTS = 10;

/** Every key of `value`, depth first, in order, with its path: two objects with the same list have the same key order. */
function keyPaths(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => keyPaths(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${path}.${k}`, ...keyPaths(v, `${path}.${k}`)]);
}

it('a loop of replays sends each failed delivery once more, not once per call; live job.completed data reads like GET /jobs/{id}', async () => {
  const tenant = await stack.tenant();
  const configs = [
    ...Array.from({ length: ENDPOINTS }, (_, i) => ({ url: `${failing.url}?endpoint=${i}`, triggerAction: 'job.completed' })),
    { url: healthy.url, triggerAction: 'job.completed' },
  ];
  const patched = await stack.http.patch(`/v1/key/projects/${tenant.projectId}/webhooks`).set(auth(tenant)).send({ configs });
  expect(patched.status).toBe(200);
  const jobs: string[] = [];
  for (let i = 0; i < JOBS; i++)
    jobs.push(await stack.createJob(tenant, { type: 'details', targets: [`B0REPLAY${String(i).padStart(2, '0')}`] }));
  for (const id of jobs) await stack.waitForJob(id);

  // The live body of the healthy endpoint: the job as the API shows it, byte for byte, then
  // where its export is being delivered (no storage destination here: none)
  await healthy.waitFor(JOBS, 30_000);
  for (const r of healthy.received) {
    const body = JSON.parse(r.body);
    const api = await stack.http.get(`/v1/key/jobs/${body.data.id}`).set(auth(tenant));
    expect(keyPaths(body.data)).toEqual([...keyPaths(api.body.data), '.deliveries']);
    expect(keyPaths(body.data).slice(0, 5)).toEqual(['.id', '.projectId', '.type', '.status', '.marketplace']);
    expect(JSON.stringify(body.data)).toBe(JSON.stringify({ ...api.body.data, deliveries: [] }));
  }

  // Every delivery to the failing endpoints makes its 5 automatic attempts, then fails.
  const deliveries = JOBS * ENDPOINTS;
  await failing.waitFor(deliveries * 5, 60_000);
  const failedCount = async () =>
    (await stack.http.get(`/v1/key/projects/${tenant.projectId}/webhooks/deliveries?status=failed&limit=1`).set(auth(tenant))).body
      .pagination.total;
  const deadline = Date.now() + 20_000;
  while ((await failedCount()) < deliveries && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(await failedCount()).toBe(deliveries);
  expect(failing.received).toHaveLength(deliveries * 5);

  // Replay in a loop for 10 s, as fast as the API answers.
  const before = failing.received.length;
  const statuses: number[] = [];
  const replayed: string[] = [];
  const loopEnd = Date.now() + 10_000;
  while (Date.now() < loopEnd) {
    const res = await stack.http
      .post(`/v1/key/projects/${tenant.projectId}/webhooks/replay`)
      .set(auth(tenant))
      .send({ from: '2026-01-01' });
    statuses.push(res.status);
    if (res.status === 202) replayed.push(...(res.body.data.deliveryIds as string[]));
  }
  // Let the last re-armed attempts (if any) reach the receiver.
  await new Promise((r) => setTimeout(r, 1_500));
  const sent = failing.received.slice(before);
  expect(statuses.length).toBeGreaterThan(10);
  expect(statuses.every((s) => s === 202)).toBe(true);
  // One replayed attempt per failed delivery, however many calls were made.
  expect(replayed).toHaveLength(deliveries);
  expect(new Set(replayed).size).toBe(deliveries);
  expect(sent).toHaveLength(deliveries);
  expect(new Set(sent.map((r) => String(r.headers['x-service-delivery'])))).toEqual(new Set(replayed));
  console.log(`replay loop: ${statuses.length} calls in 10 s, ${sent.length} outbound POSTs (${deliveries} failed deliveries)`);
}, 120_000);
