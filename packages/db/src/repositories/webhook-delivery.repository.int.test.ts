import { buildEvent, buildProject, buildWebhookConfig, openTestStore, type TestStore } from '@crawl/testing';
import type { Db } from '../connection';
import { type AttemptOutcome, type ClaimedDelivery, WebhookDeliveryRepository } from './webhook-delivery.repository';

/**
 * The webhook claim/record cycle against a cloned database: outbox dispatch, exclusive batch
 * claims with leases and a per-endpoint cap, the attempt log, state and endpoint health moving
 * together. dispatchEvents and claimDue see the whole database, so every test dispatches its own
 * events and looks only at its own deliveries (claimDue's big limit takes everything due).
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

const body = (deliveryId: string, event: { id: string; type: string }) =>
  JSON.stringify({ deliveryId, eventId: event.id, type: event.type });
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
  db
    .selectFrom('webhook_attempt')
    .select(['attempt', 'success', 'status_code', 'error', 'test', 'webhook_id', 'event_type'])
    .where('delivery_id', '=', deliveryId)
    .orderBy('id')
    .execute();

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
    const rows = await db
      .selectFrom('webhook_delivery')
      .selectAll()
      .where(
        'id',
        'in',
        deliveries.map((d) => d.id),
      )
      .execute();
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
    expect(
      (await db.selectFrom('event').select('dispatched_at').where('id', '=', event.id).executeTakeFirstOrThrow()).dispatched_at,
    ).not.toBeNull();
  });
});

const BIG = 10_000;
/** Claims everything due and keeps this test's deliveries. */
const claimMine = async (ids: string[], leaseMs = 60_000, cap = 1_000) =>
  (await repo.claimDue(BIG, leaseMs, cap)).filter((c) => ids.includes(c.id));

const outcome = (
  claim: Pick<ClaimedDelivery, 'id' | 'webhook_id' | 'project_id' | 'event_type'>,
  number: number,
  fields: Partial<AttemptOutcome> = {},
): AttemptOutcome => ({
  deliveryId: claim.id,
  webhookId: claim.webhook_id,
  projectId: claim.project_id,
  eventType: claim.event_type,
  number,
  manual: false,
  success: false,
  statusCode: 500,
  durationMs: 12.6,
  error: 'HTTP 500',
  responseBody: 'boom',
  final: false,
  nextAttemptAt: null,
  ...fields,
});
/** The deliverer's policy: an endpoint failing for five days is disabled. */
const FIVE_DAYS = { afterMs: 5 * 24 * 3_600_000, reason: 'every delivery attempt failed since' };

describe('claimDue', () => {
  it('hands a due attempt to one claimant while its lease lasts, with the receiving configuration', async () => {
    const { config, row } = await buildDelivery();
    const [claim] = await claimMine([row.id]);
    expect(claim).toEqual({
      id: row.id,
      webhook_id: config.id,
      project_id: row.project_id,
      event_type: 'job.completed',
      body: row.body,
      attempts: 0,
      max_attempts: 5,
      manual: false,
      url: 'http://127.0.0.1:9/claims',
      enabled: true,
      secret_encrypted: 'enc:secret',
      previous_secret_encrypted: null,
    });
    expect(await claimMine([row.id])).toEqual([]);
    const leased = (await repo.findById(row.id))!;
    expect(leased.locked_until!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    // Should the claimant die, the attempt is due again when the lease ends, not before.
    expect(leased.next_attempt_at).toEqual(leased.locked_until);
  });

  it('lets another claimant take an attempt over once the lease expired', async () => {
    const { row } = await buildDelivery();
    expect(await claimMine([row.id], 300)).toHaveLength(1);
    expect(await claimMine([row.id])).toEqual([]);
    await sleep(400);
    expect(await claimMine([row.id])).toHaveLength(1);
    expect(await claimMine([row.id])).toEqual([]); // and the new lease is exclusive again
  });

  it('gives each attempt to one of many concurrent claimants', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await buildDelivery()).row.id);
    const claims = (await Promise.all(Array.from({ length: 6 }, () => claimMine(ids)))).flat();
    expect(claims.map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it('keeps at most `cap` attempts of one endpoint in flight, and still serves the other endpoints', async () => {
    const owner = await buildProject(db);
    const dead = await buildWebhookConfig(db, owner.projectId, { url: 'http://127.0.0.1:9/dead' });
    const live = await buildWebhookConfig(db, owner.projectId, { url: 'http://127.0.0.1:9/live' });
    for (let i = 0; i < 6; i++) await buildEvent(db, owner.projectId);
    const { deliveries } = await repo.dispatchEvents(100, body);
    const ids = deliveries.map((d) => d.id);
    const claim = async (held: Map<string, number>) =>
      (await repo.claimDue(BIG, 60_000, 2, { owner: 'deliverer', held })).filter((c) => ids.includes(c.id));
    const first = await claim(new Map());
    expect(first.filter((c) => c.webhook_id === dead.id)).toHaveLength(2);
    expect(first.filter((c) => c.webhook_id === live.id)).toHaveLength(2);
    const holding = new Map([
      [dead.id, 2],
      [live.id, 2],
    ]);
    expect(await claim(holding)).toEqual([]); // both endpoints at their cap
    expect(await claimMine(ids, 60_000, 2)).toEqual([]); // for any other claimant too
    const doneLive = first.filter((c) => c.webhook_id === live.id);
    await repo.recordAttempts(
      doneLive.map((c) => outcome(c, 1, { success: true, statusCode: 204, error: null })),
      FIVE_DAYS,
    );
    const next = await claim(new Map([[dead.id, 2]]));
    expect(next.map((c) => c.webhook_id)).toEqual([live.id, live.id]); // the dead endpoint's slots are still held
  });

  it("counts a named claimant's own attempts by what it holds (answered ones free their slots before being logged), and every other lease", async () => {
    const owner = await buildProject(db);
    const endpoint = await buildWebhookConfig(db, owner.projectId, { url: 'http://127.0.0.1:9/capped' });
    for (let i = 0; i < 8; i++) await buildEvent(db, owner.projectId);
    const { deliveries } = await repo.dispatchEvents(100, body);
    const ids = deliveries.filter((d) => d.webhookId === endpoint.id).map((d) => d.id);
    const mine = async (claimant: Parameters<WebhookDeliveryRepository['claimDue']>[3]) =>
      (await repo.claimDue(BIG, 60_000, 2, claimant)).filter((c) => ids.includes(c.id));

    const first = await mine({ owner: 'process-a', held: new Map() });
    expect(first).toHaveLength(2);
    // Still sending both: the cap is reached.
    expect(await mine({ owner: 'process-a', held: new Map([[endpoint.id, 2]]) })).toEqual([]);
    // Both answered, outcomes not logged yet (still leased): two more may go.
    const second = await mine({ owner: 'process-a', held: new Map() });
    expect(second).toHaveLength(2);
    expect(second.map((c) => c.id)).not.toEqual(expect.arrayContaining(first.map((c) => c.id)));
    // Another process counts every lease of process-a, answered or not: nothing for it.
    expect(await mine({ owner: 'process-b', held: new Map() })).toEqual([]);
    // Neither does a claimant without a name.
    expect(await mine({})).toEqual([]);
    const leased = await db
      .selectFrom('webhook_delivery')
      .select('locked_by')
      .where(
        'id',
        'in',
        [...first, ...second].map((c) => c.id),
      )
      .execute();
    expect(leased.map((r) => r.locked_by)).toEqual(['process-a', 'process-a', 'process-a', 'process-a']);
  });

  it('leaves out the endpoints a claimant skips', async () => {
    const owner = await buildProject(db);
    const paused = await buildWebhookConfig(db, owner.projectId, { url: 'http://127.0.0.1:9/paused' });
    const other = await buildWebhookConfig(db, owner.projectId, { url: 'http://127.0.0.1:9/other' });
    await buildEvent(db, owner.projectId);
    const { deliveries } = await repo.dispatchEvents(100, body);
    const ids = deliveries.map((d) => d.id);
    const claimed = (await repo.claimDue(BIG, 60_000, 1_000, { skip: [paused.id] })).filter((c) => ids.includes(c.id));
    expect(claimed.map((c) => c.webhook_id)).toEqual([other.id]);
    expect((await claimMine(ids)).map((c) => c.webhook_id)).toEqual([paused.id]);
  });

  it('returns a null url for a delivery whose configuration was deleted, and the previous secret only during a rotation', async () => {
    const { owner, row } = await buildDelivery();
    await db.deleteFrom('webhook_config').where('project_id', '=', owner.projectId).execute();
    expect(await claimMine([row.id])).toEqual([expect.objectContaining({ id: row.id, url: null, enabled: null, secret_encrypted: null })]);

    const rotating = await buildDelivery();
    await db
      .updateTable('webhook_config')
      .set({ previous_secret_encrypted: 'enc:old', previous_secret_expires_at: new Date(Date.now() + 60_000) })
      .where('id', '=', rotating.config.id)
      .execute();
    expect(await claimMine([rotating.row.id])).toEqual([
      expect.objectContaining({ secret_encrypted: 'enc:secret', previous_secret_encrypted: 'enc:old' }),
    ]);
    const expired = await buildDelivery();
    await db
      .updateTable('webhook_config')
      .set({ previous_secret_encrypted: 'enc:old', previous_secret_expires_at: new Date(Date.now() - 1) })
      .where('id', '=', expired.config.id)
      .execute();
    expect(await claimMine([expired.row.id])).toEqual([expect.objectContaining({ previous_secret_encrypted: null })]);
  });
});

describe('deferEndpoint and releaseClaims', () => {
  it("hold an endpoint's due deliveries back until a time, keeping their attempts, and leave another process's lease alone", async () => {
    const owner = await buildProject(db);
    const endpoint = await buildWebhookConfig(db, owner.projectId, { url: 'http://127.0.0.1:9/down' });
    for (let i = 0; i < 4; i++) await buildEvent(db, owner.projectId);
    const { deliveries } = await repo.dispatchEvents(100, body);
    const ids = deliveries.filter((d) => d.webhookId === endpoint.id).map((d) => d.id);
    // claimMine leases everything due: two are given back, one stays in flight elsewhere, one is ours, not sent.
    const [sending, released] = await claimMine(ids.slice(0, 2));
    await repo.releaseClaims(ids.slice(2));
    const until = new Date(Date.now() + 60_000);

    expect(await repo.deferEndpoint(endpoint.id, until, [released!.id])).toBe(3);

    const rows = await db.selectFrom('webhook_delivery').selectAll().where('id', 'in', ids).execute();
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'pending', attempts: 0 });
      if (row.id === sending!.id) expect(row.locked_until!.getTime()).toBeGreaterThan(Date.now());
      else expect(row).toMatchObject({ next_attempt_at: until, locked_until: null });
    }
    expect(await claimMine(ids)).toEqual([]);
    // A later pause never brings an attempt forward.
    expect(await repo.deferEndpoint(endpoint.id, new Date(Date.now() + 1_000))).toBe(0);
  });

  it('releaseClaims makes claims that were not sent due again at once', async () => {
    const { row } = await buildDelivery();
    expect(await claimMine([row.id])).toHaveLength(1);
    await repo.releaseClaims([row.id]);
    expect(await repo.findById(row.id)).toMatchObject({ status: 'pending', attempts: 0, locked_until: null });
    expect(await claimMine([row.id])).toHaveLength(1);
  });
});

describe('recordAttempts', () => {
  it('logs a batch of outcomes in one call, each delivery moving by its own', async () => {
    const built = [await buildDelivery(), await buildDelivery(), await buildDelivery()];
    const claims = await claimMine(built.map((b) => b.row.id));
    const byId = new Map(claims.map((c) => [c.id, c]));
    const [ok, retry, last] = built.map((b) => byId.get(b.row.id)!);
    const next = new Date(Date.now() + 60_000);
    await repo.recordAttempts(
      [
        outcome(ok!, 1, { success: true, statusCode: 204, error: null }),
        outcome(retry!, 1, { nextAttemptAt: next }),
        outcome(last!, 1, { final: true }),
      ],
      FIVE_DAYS,
    );
    expect(await repo.findById(ok!.id)).toMatchObject({ status: 'delivered', attempts: 1, locked_until: null });
    expect(await repo.findById(retry!.id)).toMatchObject({ status: 'pending', attempts: 1, locked_until: null, next_attempt_at: next });
    expect(await repo.findById(last!.id)).toMatchObject({ status: 'failed', attempts: 1, locked_until: null });
    for (const b of built) expect(await attemptsOf(b.row.id)).toHaveLength(1);
  });

  it('on success logs the attempt with its response snippet and marks the delivery delivered, releasing the claim', async () => {
    const { row } = await buildDelivery();
    const [claim] = await claimMine([row.id]);
    await repo.recordAttempts([outcome(claim!, 1, { success: true, statusCode: 204, error: null, responseBody: 'ok' })], FIVE_DAYS);
    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'delivered', attempts: 1, locked_until: null });
    expect(after.finished_at).not.toBeNull();
    expect(await attemptsOf(row.id)).toEqual([
      { attempt: 1, success: true, status_code: 204, error: null, test: false, webhook_id: row.webhook_id, event_type: 'job.completed' },
    ]);
    const [logged] = await db
      .selectFrom('webhook_attempt')
      .select(['response_body', 'manual', 'duration_ms'])
      .where('delivery_id', '=', row.id)
      .execute();
    expect(logged).toEqual({ response_body: 'ok', manual: false, duration_ms: 13 });
    expect(await claimMine([row.id])).toEqual([]); // nothing left to send
  });

  it('on a retryable failure keeps it pending until the next attempt time', async () => {
    const { row } = await buildDelivery();
    const [claim] = await claimMine([row.id]);
    const next = new Date(Date.now() + 400);
    await repo.recordAttempts([outcome(claim!, 1, { nextAttemptAt: next })], FIVE_DAYS);
    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'pending', attempts: 1, locked_until: null, finished_at: null });
    expect(after.next_attempt_at).toEqual(next);
    expect(await claimMine([row.id])).toEqual([]); // not due yet
    await sleep(450);
    expect(await claimMine([row.id])).toEqual([expect.objectContaining({ id: row.id, attempts: 1 })]);
  });

  it('on the final attempt marks the delivery failed, with one log row per attempt', async () => {
    const { row } = await buildDelivery();
    for (let n = 1; n <= 5; n++) {
      const [claim] = await claimMine([row.id]);
      expect(claim).toMatchObject({ attempts: n - 1 });
      await repo.recordAttempts(
        [outcome(claim!, n, n === 5 ? { final: true, statusCode: null, error: 'ECONNREFUSED' } : { nextAttemptAt: new Date() })],
        FIVE_DAYS,
      );
    }
    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'failed', attempts: 5, locked_until: null });
    expect((await attemptsOf(row.id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(await claimMine([row.id])).toEqual([]);
  });

  it('by a process whose lease ran out cannot turn a delivered delivery back; its attempt is still logged', async () => {
    const { row } = await buildDelivery();
    const [slow] = await claimMine([row.id], 200);
    await sleep(300);
    const [fast] = await claimMine([row.id]);
    await repo.recordAttempts([outcome(fast!, 1, { success: true, statusCode: 204, error: null })], FIVE_DAYS);
    await repo.recordAttempts(
      [outcome(slow!, 1, { statusCode: null, error: 'timeout', nextAttemptAt: new Date(Date.now() + 30_000) })],
      FIVE_DAYS,
    );
    await repo.recordAttempts([outcome(slow!, 1, { statusCode: null, error: 'timeout', final: true })], FIVE_DAYS);
    expect(await repo.findById(row.id)).toMatchObject({ status: 'delivered', attempts: 1 });
    expect((await attemptsOf(row.id)).map((a) => a.success)).toEqual([true, false, false]);
  });

  it('fails a delivery whose retryable failure is logged after its endpoint was disabled, instead of leaving it pending', async () => {
    const { config, row } = await buildDelivery();
    const [claim] = await claimMine([row.id]);
    // disabled while the attempt was in flight (or its outcome waited behind the batch that did it)
    await db.updateTable('webhook_config').set({ enabled: false, disabled_at: new Date() }).where('id', '=', config.id).execute();
    await repo.recordAttempts([outcome(claim!, 1, { nextAttemptAt: new Date() })], FIVE_DAYS);
    const after = (await repo.findById(row.id))!;
    expect(after).toMatchObject({ status: 'failed', attempts: 1, locked_until: null });
    expect(after.finished_at).not.toBeNull();
    expect((await attemptsOf(row.id)).map((a) => a.success)).toEqual([false]);
  });

  it('marks an endpoint failing since its first failure, heals it on a success, and disables it once failing too long', async () => {
    const { config, row } = await buildDelivery();
    const health = () =>
      db
        .selectFrom('webhook_config')
        .select(['enabled', 'failing_since', 'disabled_at', 'disabled_reason'])
        .where('id', '=', config.id)
        .executeTakeFirstOrThrow();
    let [claim] = await claimMine([row.id]);
    expect(await repo.recordAttempts([outcome(claim!, 1, { nextAttemptAt: new Date() })], FIVE_DAYS)).toEqual([]);
    const failing = await health();
    expect(failing).toMatchObject({ enabled: true, disabled_at: null });
    expect(failing.failing_since).not.toBeNull();

    [claim] = await claimMine([row.id]);
    await repo.recordAttempts([outcome(claim!, 2, { success: true, statusCode: 200, error: null })], FIVE_DAYS);
    expect(await health()).toMatchObject({ enabled: true, failing_since: null });

    // Failing for six days: the next failure disables it.
    const other = await buildDelivery();
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3_600_000);
    await db.updateTable('webhook_config').set({ failing_since: sixDaysAgo }).where('id', '=', other.config.id).execute();
    const [c] = await claimMine([other.row.id]);
    const disabled = await repo.recordAttempts([outcome(c!, 1, { nextAttemptAt: new Date() })], FIVE_DAYS);
    expect(disabled).toEqual([
      { id: other.config.id, project_id: other.owner.projectId, url: other.config.url, failing_since: sixDaysAgo },
    ]);
    const after = await db
      .selectFrom('webhook_config')
      .select(['enabled', 'disabled_at', 'disabled_reason'])
      .where('id', '=', other.config.id)
      .executeTakeFirstOrThrow();
    expect(after.enabled).toBe(false);
    expect(after.disabled_at).not.toBeNull();
    expect(after.disabled_reason).toMatch(/^every delivery attempt failed since \d{4}-/);
  });
});
