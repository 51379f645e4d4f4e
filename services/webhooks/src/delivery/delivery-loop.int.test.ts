import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { verify } from '@crawl/client';
import { SecretBox, webhookDeliveryBody } from '@crawl/core';
import { type Db, WebhookDeliveryRepository } from '@crawl/db';
import { createLogger } from '@crawl/observability';
import { buildEvent, buildProject, buildWebhookConfig, openTestStore, type TestStore } from '@crawl/testing';
import { closeDeliveryAgents } from '@crawl/webhook-delivery';
import { Dispatcher } from '../dispatcher';
import { AUTO_DISABLE_REASON, DeliveryLoop, type DeliveryLoopSettings } from './delivery-loop';

/**
 * The deliverer against a real database and real local receivers: batch claims, one attempt
 * per delivery while processes live, the per-endpoint cap (also between two deliverers), a
 * hanging endpoint's bounded cost to the others and its circuit breaker, leases of a crashed
 * process, rotation signatures and the automatic disabling of an endpoint failing for too long.
 */
let store: TestStore;
let db: Db;
let repo: WebhookDeliveryRepository;
const box = SecretBox.fromKey('d'.repeat(64));
const log = createLogger({ level: 'silent', service: 'webhooks-test' });
const loops: DeliveryLoop[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  store = await openTestStore(8);
  ({ db } = store);
  repo = new WebhookDeliveryRepository(db);
});
afterEach(async () => {
  const open = servers.splice(0);
  for (const s of open) s.closeAllConnections(); // ends hanging attempts, so the loops close at once
  for (const l of loops.splice(0)) await l.close();
  for (const s of open) await new Promise((r) => s.close(r));
});
afterAll(async () => {
  closeDeliveryAgents();
  await store.close();
});

interface Got {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver answering `respond(n)` to its n-th request ('hang': never). */
async function receiver(respond: (n: number) => number | 'hang' = () => 204) {
  const got: Got[] = [];
  // Receivers close after each test and a later one may get the same port: a path of its own
  // keeps an earlier test's retries (due later) out of this receiver's log.
  const path = `/hook/${randomBytes(6).toString('hex')}`;
  const server = createServer((req, res) => {
    if (req.url !== path) {
      res.statusCode = 404;
      res.end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      const answer = respond(got.length);
      if (answer === 'hang') return;
      res.statusCode = answer;
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { got, url: `http://127.0.0.1:${(server.address() as { port: number }).port}${path}` };
}

function startLoop(settings: Partial<DeliveryLoopSettings> = {}) {
  const loop = new DeliveryLoop({
    deliveries: repo,
    secrets: box,
    log,
    settings: {
      timeoutMs: 2_000,
      backoffBaseMs: 5,
      allowPrivate: true,
      concurrency: 16,
      endpointConcurrency: 4,
      disableAfterMs: 5 * 24 * 3_600_000,
      breaker: { failures: 3, pauseMs: 30_000, maxPauseMs: 600_000 },
      ...settings,
    },
  });
  loops.push(loop);
  const dispatcher = new Dispatcher({ deliveries: repo, log, onDeliveries: () => loop.wake() });
  // The service's periodic wake-up, at a test's pace.
  const timer = setInterval(() => loop.wake(), 50);
  loops.push({ close: async () => clearInterval(timer) } as unknown as DeliveryLoop);
  return { loop, dispatch: () => dispatcher.wake() };
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const statusesOf = async (webhookId: string) =>
  (await db.selectFrom('webhook_delivery').select('status').where('webhook_id', '=', webhookId).execute()).map((r) => r.status);

it('delivers a burst of events once each, signed, and logs one attempt per delivery', async () => {
  const r = await receiver();
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: r.url, secretEncrypted: box.encrypt('whsec_loop') });
  for (let i = 0; i < 40; i++) await buildEvent(db, owner.projectId);
  const { dispatch } = startLoop();
  await dispatch();
  await until(async () => (await statusesOf(config.id)).filter((s) => s === 'delivered').length === 40);
  await new Promise((res) => setTimeout(res, 200));
  const ids = r.got.map((g) => String(g.headers['x-service-delivery']));
  expect(ids).toHaveLength(40);
  expect(new Set(ids).size).toBe(40);
  for (const g of r.got) expect(verify('whsec_loop', g.body, g.headers['x-service-signature']).ok).toBe(true);
  const attempts = await db.selectFrom('webhook_attempt').select(['attempt', 'success']).where('webhook_id', '=', config.id).execute();
  expect(attempts).toHaveLength(40);
  expect(attempts.every((a) => a.attempt === 1 && a.success)).toBe(true);
});

it('retries a failing receiver on the schedule and stops at the fifth attempt', async () => {
  const r = await receiver(() => 500);
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: r.url, secretEncrypted: box.encrypt('whsec_loop') });
  await buildEvent(db, owner.projectId);
  const { dispatch } = startLoop({ backoffBaseMs: 2 }); // 2, 20, 200, 2000 ms
  await dispatch();
  await until(async () => (await statusesOf(config.id))[0] === 'failed');
  await new Promise((res) => setTimeout(res, 300));
  expect(r.got).toHaveLength(5);
  expect(new Set(r.got.map((g) => g.headers['x-service-delivery'])).size).toBe(1);
  const logged = await db
    .selectFrom('webhook_attempt')
    .select(['attempt', 'status_code'])
    .where('webhook_id', '=', config.id)
    .orderBy('id')
    .execute();
  expect(logged).toEqual([1, 2, 3, 4, 5].map((attempt) => ({ attempt, status_code: 500 })));
});

it('keeps at most the per-endpoint cap in flight to a hanging receiver while a live one is served', async () => {
  const hanging = await receiver(() => 'hang');
  const live = await receiver();
  const owner = await buildProject(db);
  const stuck = await buildWebhookConfig(db, owner.projectId, { url: hanging.url, secretEncrypted: box.encrypt('whsec_loop') });
  const ok = await buildWebhookConfig(db, owner.projectId, { url: live.url, secretEncrypted: box.encrypt('whsec_loop') });
  for (let i = 0; i < 12; i++) await buildEvent(db, owner.projectId);
  const { dispatch } = startLoop({ timeoutMs: 5_000, concurrency: 8, endpointConcurrency: 2 });
  await dispatch();
  await until(async () => (await statusesOf(ok.id)).filter((s) => s === 'delivered').length === 12);
  expect(hanging.got.length).toBeLessThanOrEqual(2);
  expect((await statusesOf(stuck.id)).every((s) => s === 'pending')).toBe(true);
});

it('keeps the per-endpoint cap between two deliverers', async () => {
  const hanging = await receiver(() => 'hang');
  const live = await receiver();
  const owner = await buildProject(db);
  await buildWebhookConfig(db, owner.projectId, { url: hanging.url, secretEncrypted: box.encrypt('whsec_loop') });
  const ok = await buildWebhookConfig(db, owner.projectId, { url: live.url, secretEncrypted: box.encrypt('whsec_loop') });
  for (let i = 0; i < 12; i++) await buildEvent(db, owner.projectId);
  const settings = { timeoutMs: 5_000, concurrency: 8, endpointConcurrency: 2 };
  const [a, b] = [startLoop(settings), startLoop(settings)];
  await Promise.all([a.dispatch(), b.dispatch()]);
  await until(async () => (await statusesOf(ok.id)).filter((s) => s === 'delivered').length === 12);
  await new Promise((res) => setTimeout(res, 300));
  expect(hanging.got).toHaveLength(2);
});

it("delays another endpoint's deliveries by at most the move-aside time, and pauses a hanging endpoint without spending its attempts", async () => {
  const hanging = await receiver(() => 'hang');
  const live = await receiver();
  const owner = await buildProject(db);
  const stuck = await buildWebhookConfig(db, owner.projectId, { url: hanging.url, secretEncrypted: box.encrypt('whsec_loop') });
  const ok = await buildWebhookConfig(db, owner.projectId, { url: live.url, secretEncrypted: box.encrypt('whsec_loop') });
  for (let i = 0; i < 20; i++) await buildEvent(db, owner.projectId);
  // Two slots, both of which the hanging endpoint may take: the live one is served once they move aside.
  const pauseMs = 60_000;
  const { dispatch } = startLoop({
    timeoutMs: 3_000,
    concurrency: 2,
    endpointConcurrency: 2,
    breaker: { failures: 2, pauseMs, maxPauseMs: pauseMs },
  });
  const started = Date.now();
  await dispatch();
  await until(async () => (await statusesOf(ok.id)).filter((s) => s === 'delivered').length === 20);
  expect(Date.now() - started).toBeLessThan(3_000); // before the hanging attempts even time out

  // Its first two attempts time out: the endpoint is paused and its other deliveries wait, unattempted
  // (an attempt already in flight when it paused still ends on its own).
  await until(async () => (await db.selectFrom('webhook_attempt').select('id').where('webhook_id', '=', stuck.id).execute()).length >= 2);
  const pausedAt = Date.now();
  await until(async () => {
    const waiting = await db
      .selectFrom('webhook_delivery')
      .select(['next_attempt_at'])
      .where('webhook_id', '=', stuck.id)
      .where('attempts', '=', 0)
      .execute();
    return waiting.length >= 17 && waiting.every((w) => w.next_attempt_at.getTime() > pausedAt + pauseMs - 5_000);
  });
  const sent = hanging.got.length;
  expect(sent).toBeLessThanOrEqual(3);
  // Its retries come due (5 ms backoff) and new events arrive: none is sent while paused; the live endpoint still is.
  await buildEvent(db, owner.projectId);
  await dispatch();
  await until(async () => (await statusesOf(ok.id)).filter((s) => s === 'delivered').length === 21);
  await new Promise((res) => setTimeout(res, 300));
  expect(hanging.got).toHaveLength(sent);
  expect((await statusesOf(stuck.id)).every((s) => s === 'pending')).toBe(true);
}, 20_000);

it('sends once each, after their lease, the batch a crashed process had claimed', async () => {
  const r = await receiver();
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: r.url, secretEncrypted: box.encrypt('whsec_loop') });
  for (let i = 0; i < 6; i++) await buildEvent(db, owner.projectId);
  await repo.dispatchEvents(100, (id, e) =>
    webhookDeliveryBody({ id, event: e.type, createdAt: e.created_at, projectId: e.project_id, data: e.data }),
  );
  const leaseMs = 1_000;
  const claimedAt = Date.now();
  const batch = (await repo.claimDue(100, leaseMs, 100, { owner: 'crashed-process', held: new Map() })).filter(
    (c) => c.webhook_id === config.id,
  );
  expect(batch).toHaveLength(6);
  startLoop(); // the crashed process never logs anything
  await until(async () => (await statusesOf(config.id)).every((s) => s === 'delivered'));
  expect(Date.now() - claimedAt).toBeGreaterThanOrEqual(leaseMs);
  await new Promise((res) => setTimeout(res, 200));
  expect(r.got.map((g) => g.headers['x-service-delivery']).sort()).toEqual(batch.map((c) => c.id).sort());
});

it('sends again an attempt whose lease a crashed process left behind, and never one logged as delivered', async () => {
  const r = await receiver();
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: r.url, secretEncrypted: box.encrypt('whsec_loop') });
  await buildEvent(db, owner.projectId);
  await buildEvent(db, owner.projectId);
  await repo.dispatchEvents(100, (id, e) =>
    webhookDeliveryBody({ id, event: e.type, createdAt: e.created_at, projectId: e.project_id, data: e.data }),
  );
  // A process claims both with a short lease and dies; a first one it had delivered and logged.
  const claimed = (await repo.claimDue(100, 300, 100)).filter((c) => c.webhook_id === config.id);
  expect(claimed).toHaveLength(2);
  const [done, lost] = claimed as [(typeof claimed)[0], (typeof claimed)[0]];
  await repo.recordAttempts(
    [
      {
        deliveryId: done.id,
        webhookId: config.id,
        projectId: owner.projectId,
        eventType: 'job.completed',
        number: 1,
        manual: false,
        success: true,
        statusCode: 200,
        durationMs: 1,
        error: null,
        responseBody: null,
        final: false,
        nextAttemptAt: null,
      },
    ],
    { afterMs: 1_000, reason: AUTO_DISABLE_REASON },
  );
  startLoop();
  await until(async () => (await statusesOf(config.id)).every((s) => s === 'delivered'));
  expect(r.got.map((g) => g.headers['x-service-delivery'])).toEqual([lost.id]);
});

it('signs with both secrets during a rotation', async () => {
  const r = await receiver();
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: r.url, secretEncrypted: box.encrypt('whsec_new') });
  await db
    .updateTable('webhook_config')
    .set({ previous_secret_encrypted: box.encrypt('whsec_old'), previous_secret_expires_at: new Date(Date.now() + 60_000) })
    .where('id', '=', config.id)
    .execute();
  await buildEvent(db, owner.projectId);
  const { dispatch } = startLoop();
  await dispatch();
  await until(() => r.got.length === 1);
  const [g] = r.got;
  expect(verify('whsec_new', g!.body, g!.headers['x-service-signature']).ok).toBe(true);
  expect(verify('whsec_old', g!.body, g!.headers['x-service-signature']).ok).toBe(true);
  expect(verify('whsec_other', g!.body, g!.headers['x-service-signature']).ok).toBe(false);
});

it('disables an endpoint that failed every attempt for longer than the limit; its pending deliveries fail, replayable', async () => {
  const r = await receiver(() => 503);
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: r.url, secretEncrypted: box.encrypt('whsec_loop') });
  for (let i = 0; i < 3; i++) await buildEvent(db, owner.projectId);
  // The breaker is another test's subject: an attempt cut short under a loaded machine (a
  // timeout, a reset socket) counts as unanswered, and three in a row would pause the endpoint for
  // longer than this test waits. Here every failure only counts towards disabling.
  const { dispatch } = startLoop({
    backoffBaseMs: 300,
    disableAfterMs: 1_000,
    endpointConcurrency: 1,
    breaker: { failures: 1_000, pauseMs: 30_000, maxPauseMs: 600_000 },
  });
  await dispatch();
  await until(
    async () =>
      (await db.selectFrom('webhook_config').select('enabled').where('id', '=', config.id).executeTakeFirstOrThrow()).enabled === false,
    20_000,
  );
  const row = await db
    .selectFrom('webhook_config')
    .select(['disabled_at', 'disabled_reason', 'failing_since'])
    .where('id', '=', config.id)
    .executeTakeFirstOrThrow();
  expect(row.disabled_at!.getTime() - row.failing_since!.getTime()).toBeGreaterThanOrEqual(1_000);
  expect(row.disabled_reason).toMatch(/^every delivery attempt failed since/);
  await until(async () => (await statusesOf(config.id)).every((s) => s === 'failed'));
  const sent = r.got.length;
  await new Promise((res) => setTimeout(res, 700));
  expect(r.got.length).toBe(sent); // nothing more goes to a disabled endpoint
});

it('cancels, without sending it, the retry of a delivery whose webhook was deleted while its attempt was in flight', async () => {
  const r = await receiver(() => 'hang');
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: r.url, secretEncrypted: box.encrypt('whsec_loop') });
  await buildEvent(db, owner.projectId);
  const { dispatch } = startLoop({ timeoutMs: 500, backoffBaseMs: 2 });
  await dispatch();
  await until(() => r.got.length === 1);
  // Deleted mid-attempt (a PATCH leaves a leased delivery to its outcome).
  await db.deleteFrom('webhook_config').where('id', '=', config.id).execute();
  await until(async () => (await statusesOf(config.id))[0] === 'cancelled');
  await new Promise((res) => setTimeout(res, 200));
  expect(r.got).toHaveLength(1);
  const logged = await db.selectFrom('webhook_attempt').select(['attempt', 'success']).where('webhook_id', '=', config.id).execute();
  expect(logged).toEqual([{ attempt: 1, success: false }]);
});
