import { buildEvent, buildProject, buildWebhookConfig, openTestStore, type TestStore } from '@crawl/testing';
import type { Db } from '../connection';
import { WebhookDeliveryRepository } from './webhook.repository';

/**
 * The webhook claim/record cycle against a cloned database: outbox dispatch, exclusive
 * claims with leases, the attempt log and state moving together, and the overdue sweep.
 * dispatchEvents and findOverdue see the whole database, so every test dispatches its own
 * events and looks only at its own deliveries.
 */
let store: TestStore;
let db: Db;
let repo: WebhookDeliveryRepository;

beforeAll(async () => {
  store = await openTestStore();
  ({ db } = store);
  repo = new WebhookDeliveryRepository(db);
});
afterAll(() => store.close());

const body = (deliveryId: string, event: { id: string; type: string }) => JSON.stringify({ deliveryId, eventId: event.id, type: event.type });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One pending delivery of a fresh job.completed event to a fresh configuration. */
async function buildDelivery() {
  const owner = await buildProject(db);
  const config = await buildWebhookConfig(db, owner.projectId, { url: 'http://127.0.0.1:9/claims', secretEncrypted: 'enc:secret' });
  const event = await buildEvent(db, owner.projectId);
  const { deliveries } = await repo.dispatchEvents(100, body);
  const mine = deliveries.filter((d) => d.webhookId === config.id);
  expect(mine).toHaveLength(1);
  const row = (await repo.findById(mine[0]!.id))!;
  return { owner, config, event, row };
}

const attemptsOf = (deliveryId: string) =>
  db.selectFrom('webhook_attempt').select(['attempt', 'success', 'status_code', 'error', 'test', 'webhook_id', 'event_type']).where('delivery_id', '=', deliveryId).orderBy('id').execute();

describe('dispatchEvents', () => {
  it('turns each event into one delivery per enabled configuration subscribed to its type, once', async () => {
    const a = await buildProject(db);
    const b = await buildProject(db);
    const completedOne = await buildWebhookConfig(db, a.projectId, { triggerAction: 'job.completed' });
    const completedTwo = await buildWebhookConfig(db, a.projectId, { triggerAction: 'job.completed' });
    const onFailed = await buildWebhookConfig(db, a.projectId, { triggerAction: 'job.failed' });
    await buildWebhookConfig(db, a.projectId, { triggerAction: 'job.completed', enabled: false });
    await buildWebhookConfig(db, a.projectId, { triggerAction: 'product.changed' });
    const otherProject = await buildWebhookConfig(db, b.projectId, { triggerAction: 'job.completed' });
    const completed = await buildEvent(db, a.projectId, { type: 'job.completed' });
    const failed = await buildEvent(db, a.projectId, { type: 'job.failed' });

    const { events, deliveries } = await repo.dispatchEvents(100, body);

    expect(events).toBe(2);
    expect(deliveries).toHaveLength(3);
    const rows = await db.selectFrom('webhook_delivery').selectAll().where('id', 'in', deliveries.map((d) => d.id)).execute();
    const pairs = rows.map((r) => [r.event_id, r.webhook_id, r.event_type, r.project_id]).sort();
    expect(pairs).toEqual(
      [
        [completed.id, completedOne.id, 'job.completed', a.projectId],
        [completed.id, completedTwo.id, 'job.completed', a.projectId],
        [failed.id, onFailed.id, 'job.failed', a.projectId],
      ].sort(),
    );
    expect(rows.every((r) => r.status === 'pending' && r.attempts === 0 && r.locked_until === null)).toBe(true);
    expect(rows.every((r) => JSON.parse(r.body).deliveryId === r.id)).toBe(true); // the body names its own delivery
    expect(rows.some((r) => r.webhook_id === otherProject.id)).toBe(false);

    const dispatched = await db.selectFrom('event').select('dispatched_at').where('id', 'in', [completed.id, failed.id]).execute();
    expect(dispatched.every((e) => e.dispatched_at !== null)).toBe(true);
    expect(await repo.dispatchEvents(100, body)).toEqual({ events: 0, deliveries: [] });
  });

  it('marks an event with no subscriber dispatched without a delivery', async () => {
    const owner = await buildProject(db);
    const event = await buildEvent(db, owner.projectId, { type: 'schedule.triggered' });
    expect(await repo.dispatchEvents(100, body)).toEqual({ events: 1, deliveries: [] });
    expect((await db.selectFrom('event').select('dispatched_at').where('id', '=', event.id).executeTakeFirstOrThrow()).dispatched_at).not.toBeNull();
  });
});

describe('claimAttempt / releaseClaim', () => {
  it('hands an attempt to one claimant while its lease lasts, with the receiving configuration', async () => {
    const { config, row } = await buildDelivery();

    const claim = await repo.claimAttempt(row.id, 1, 60_000);
    expect(claim).toEqual({
      id: row.id,
      webhook_id: config.id,
      project_id: row.project_id,
      event_type: 'job.completed',
      body: row.body,
      url: 'http://127.0.0.1:9/claims',
      enabled: true,
      secret_encrypted: 'enc:secret',
    });
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toBeUndefined();
    expect(await repo.claimAttempt(row.id, 2, 60_000)).toBeUndefined(); // not the attempt that is due
    const locked = (await repo.findById(row.id))!.locked_until!;
    expect(locked.getTime()).toBeGreaterThan(Date.now() + 50_000);

    await repo.releaseClaim(row.id);
    expect((await repo.findById(row.id))!.locked_until).toBeNull();
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toBeDefined();
  });

  it('lets another claimant take an attempt over once the lease expired', async () => {
    const { row } = await buildDelivery();
    expect(await repo.claimAttempt(row.id, 1, 300)).toBeDefined();
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toBeUndefined();
    await sleep(400);
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toBeDefined();
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toBeUndefined(); // and the new lease is exclusive again
  });

  it('gives one of many concurrent claimants the attempt', async () => {
    const { row } = await buildDelivery();
    const claims = await Promise.all(Array.from({ length: 6 }, () => repo.claimAttempt(row.id, 1, 60_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('returns a null url for a delivery whose configuration was deleted', async () => {
    const { owner, row } = await buildDelivery();
    await db.deleteFrom('webhook_config').where('project_id', '=', owner.projectId).execute();
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toMatchObject({ id: row.id, url: null, enabled: null, secret_encrypted: null });
  });
});

describe('recordAttempt', () => {
  const attempt = (number: number, fields: Partial<Parameters<WebhookDeliveryRepository['recordAttempt']>[1]> = {}) => ({
    number,
    success: false,
    statusCode: 500 as number | null,
    durationMs: 12.6,
    error: 'HTTP 500' as string | null,
    final: false,
    nextAttemptAt: null as Date | null,
    ...fields,
  });

  it('on success logs the attempt and marks the delivery delivered, releasing the claim', async () => {
    const { row } = await buildDelivery();
    await repo.claimAttempt(row.id, 1, 60_000);

    await repo.recordAttempt(row, attempt(1, { success: true, statusCode: 204, error: null }));

    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'delivered', attempts: 1, locked_until: null });
    expect(after.finished_at).not.toBeNull();
    expect(await attemptsOf(row.id)).toEqual([{ attempt: 1, success: true, status_code: 204, error: null, test: false, webhook_id: row.webhook_id, event_type: 'job.completed' }]);
    expect(await repo.claimAttempt(row.id, 2, 60_000)).toBeUndefined(); // nothing left to send
  });

  it('on a retryable failure keeps it pending until the next attempt time, claimable for the next attempt only', async () => {
    const { row } = await buildDelivery();
    await repo.claimAttempt(row.id, 1, 60_000);
    const next = new Date(Date.now() + 30_000);

    await repo.recordAttempt(row, attempt(1, { nextAttemptAt: next }));

    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'pending', attempts: 1, locked_until: null, finished_at: null });
    expect(after.next_attempt_at).toEqual(next);
    expect(await attemptsOf(row.id)).toEqual([expect.objectContaining({ attempt: 1, success: false, status_code: 500, error: 'HTTP 500' })]);
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toBeUndefined();
    expect(await repo.claimAttempt(row.id, 2, 60_000)).toBeDefined();
  });

  it('on the final attempt marks the delivery failed, with one log row per attempt', async () => {
    const { row } = await buildDelivery();
    for (let n = 1; n <= 4; n++) {
      expect(await repo.claimAttempt(row.id, n, 60_000)).toBeDefined();
      await repo.recordAttempt(row, attempt(n, { nextAttemptAt: new Date(Date.now() + n * 1_000) }));
    }
    expect(await repo.claimAttempt(row.id, 5, 60_000)).toBeDefined();
    await repo.recordAttempt(row, attempt(5, { final: true, statusCode: null, error: 'connect ECONNREFUSED' }));

    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'failed', attempts: 5, locked_until: null });
    expect(after.finished_at).not.toBeNull();
    const log = await attemptsOf(row.id);
    expect(log.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(log[4]).toMatchObject({ success: false, status_code: null, error: 'connect ECONNREFUSED' });
    expect(await repo.claimAttempt(row.id, 6, 60_000)).toBeUndefined();
  });
});

describe('recordAttempt by a worker whose lease ran out', () => {
  it('cannot turn a delivery another worker delivered back into pending or failed; its attempt is still logged', async () => {
    const { row } = await buildDelivery();
    expect(await repo.claimAttempt(row.id, 1, 200)).toBeDefined(); // the slow worker
    await new Promise((r) => setTimeout(r, 300));
    expect(await repo.claimAttempt(row.id, 1, 60_000)).toBeDefined(); // its lease expired: taken over
    const base = { number: 1, durationMs: 5, final: false, nextAttemptAt: null };
    await repo.recordAttempt(row, { ...base, success: true, statusCode: 204, error: null });
    await repo.recordAttempt(row, { ...base, success: false, statusCode: null, error: 'timeout', nextAttemptAt: new Date(Date.now() + 30_000) });
    await repo.recordAttempt(row, { ...base, success: false, statusCode: null, error: 'timeout', final: true });
    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(after.finished_at).not.toBeNull();
    expect((await attemptsOf(row.id)).map((a) => a.success)).toEqual([true, false, false]);
  });
});

describe('findOverdue', () => {
  it('finds a pending delivery overdue by more than the grace and unclaimed, and nothing else', async () => {
    const overdue = (await buildDelivery()).row;
    const claimed = (await buildDelivery()).row;
    const notYet = (await buildDelivery()).row;
    const delivered = (await buildDelivery()).row;
    const withinGrace = (await buildDelivery()).row;
    const failed = { number: 1, success: false, statusCode: 503, durationMs: 5, error: 'HTTP 503', final: false };
    const longAgo = new Date(Date.now() - 10 * 60_000);
    await repo.recordAttempt(overdue, { ...failed, nextAttemptAt: longAgo });
    await repo.recordAttempt(claimed, { ...failed, nextAttemptAt: longAgo });
    await repo.claimAttempt(claimed.id, 2, 60_000);
    await repo.recordAttempt(notYet, { ...failed, nextAttemptAt: new Date(Date.now() + 60_000) });
    await repo.recordAttempt(withinGrace, { ...failed, nextAttemptAt: new Date(Date.now() - 5_000) });
    await repo.recordAttempt(delivered, { ...failed, success: true, statusCode: 200, error: null, nextAttemptAt: null });
    await db.updateTable('webhook_delivery').set({ next_attempt_at: longAgo }).where('id', '=', delivered.id).execute();

    const mine = new Set([overdue.id, claimed.id, notYet.id, delivered.id, withinGrace.id]);
    const found = (await repo.findOverdue(60_000, 1_000)).filter((d) => mine.has(d.id));
    expect(found).toEqual([{ id: overdue.id, attempts: 1 }]);

    await repo.releaseClaim(claimed.id); // its claimant gave up: it is overdue again
    const again = (await repo.findOverdue(60_000, 1_000)).filter((d) => mine.has(d.id));
    expect(again.map((d) => d.id).sort()).toEqual([overdue.id, claimed.id].sort());
  });
});
