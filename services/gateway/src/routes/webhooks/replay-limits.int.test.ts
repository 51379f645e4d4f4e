import { type AttemptOutcome, type ClaimedDelivery, sql, WebhookDeliveryRepository, WEBHOOK_REPLAY_LOCK_KEY } from '@crawl/db';
import { buildEvent, createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

/**
 * What keeps resend and replay from multiplying outbound requests: at most 5 manual attempts per
 * delivery, a one-minute cooldown per delivery for replays, a per-project hourly replay budget
 * (3 here), one replay of a project at a time; and deliveries of a deleted webhook cancelled.
 * Deliveries are made with the deliverer's own repository calls, as in deliveries.int.test.ts.
 */
let h: Harness;
let repo: WebhookDeliveryRepository;

beforeAll(async () => {
  h = await startHarness({ webhookReplayBudgetPerHour: 3 });
  repo = new WebhookDeliveryRepository(h.deps.db);
});
afterAll(() => h.close());

async function tenantWithWebhooks(n = 1): Promise<{ tenant: TestTenant; webhookIds: string[] }> {
  const tenant = await createTenant(h.deps.db);
  const configs = Array.from({ length: n }, (_, i) => ({ url: `http://127.0.0.1:9/${i}`, triggerAction: 'job.completed' }));
  const res = await h.http.patch(`/v1/key/projects/${tenant.projectId}/webhooks`).set(bearer(tenant.apiKey)).send({ configs });
  return { tenant, webhookIds: res.body.data.configs.map((c: { id: string }) => c.id) };
}

const outcome = (c: ClaimedDelivery, fields: Partial<AttemptOutcome> = {}): AttemptOutcome => ({
  deliveryId: c.id,
  webhookId: c.webhook_id,
  projectId: c.project_id,
  eventType: c.event_type,
  number: c.attempts + 1,
  manual: c.manual,
  success: false,
  statusCode: 503,
  durationMs: 3,
  error: 'HTTP 503',
  responseBody: null,
  final: c.attempts + 1 >= c.max_attempts,
  nextAttemptAt: new Date(),
  ...fields,
});

/** Fails every due attempt of the project until none is due; returns how many were made. */
async function failDue(projectId: string): Promise<number> {
  let made = 0;
  for (;;) {
    const claimed = (await repo.claimDue(1_000, 60_000, 1_000)).filter((c) => c.project_id === projectId);
    if (!claimed.length) return made;
    made += claimed.length;
    await repo.recordAttempts(
      claimed.map((c) => outcome(c)),
      null,
    );
  }
}

async function failedDeliveries(tenant: TestTenant, n: number): Promise<string[]> {
  for (let i = 0; i < n; i++) await buildEvent(h.deps.db, tenant.projectId, { type: 'job.completed' });
  const { deliveries } = await repo.dispatchEvents(1_000, (id) => JSON.stringify({ id }));
  await failDue(tenant.projectId);
  return deliveries.map((d) => d.id);
}

const replay = (tenant: TestTenant, body: object = { from: '2020-01-01' }) =>
  h.http.post(`/v1/key/projects/${tenant.projectId}/webhooks/replay`).set(bearer(tenant.apiKey)).send(body);
const resend = (tenant: TestTenant, id: string) =>
  h.http.post(`/v1/key/projects/${tenant.projectId}/webhooks/deliveries/${id}/resend`).set(bearer(tenant.apiKey));
const deliveries = (tenant: TestTenant, query = '') =>
  h.http.get(`/v1/key/projects/${tenant.projectId}/webhooks/deliveries${query}`).set(bearer(tenant.apiKey));
/** Ages every re-arm and replay of the project by `ms`, as if that time had passed. */
async function age(projectId: string, ms: number): Promise<void> {
  const by = `${ms} milliseconds`;
  await sql`update webhook_delivery set rearmed_at = rearmed_at - ${by}::interval where project_id = ${projectId} and rearmed_at is not null`.execute(
    h.deps.db,
  );
  await sql`update webhook_replay set created_at = created_at - ${by}::interval where project_id = ${projectId}`.execute(h.deps.db);
}

it('a delivery gets 5 manual attempts at most: the sixth resend is 409 INVALID_STATE saying so, and replays skip it', async () => {
  const { tenant } = await tenantWithWebhooks();
  const [id] = await failedDeliveries(tenant, 1);
  for (let i = 1; i <= 5; i++) {
    const res = await resend(tenant, id!);
    expect(res.status).toBe(202);
    expect(await failDue(tenant.projectId)).toBe(1); // exactly one attempt per resend
  }
  const refused = await resend(tenant, id!);
  expect(refused.status).toBe(409);
  expect(refused.body.error).toMatchObject({
    code: 'INVALID_STATE',
    message: `Delivery ${id} already had its 5 manual attempts (resends and replays); it is not sent again.`,
    details: { maxManualAttempts: 5 },
  });
  await age(tenant.projectId, 3_600_000);
  expect((await replay(tenant)).body.data).toEqual({ replayed: 0, deliveryIds: [], hasMore: false });
  const [shown] = (await deliveries(tenant)).body.data;
  expect(shown).toMatchObject({ id, status: 'failed', attemptCount: 10 });
  expect(shown.attempts.map((a: { attempt: number; manual: boolean }) => [a.attempt, a.manual])).toEqual([
    [1, false],
    [2, false],
    [3, false],
    [4, false],
    [5, false],
    [6, true],
    [7, true],
    [8, true],
    [9, true],
    [10, true],
  ]);
});

it('a replay skips a delivery re-armed in the last minute and does not count it in hasMore', async () => {
  const { tenant } = await tenantWithWebhooks();
  const ids = await failedDeliveries(tenant, 2);
  const first = await replay(tenant);
  expect(first.body.data).toMatchObject({ replayed: 2, hasMore: false });
  expect(await failDue(tenant.projectId)).toBe(2);
  // Failed again at once: within the cooldown, a replay loop sends nothing more.
  for (let i = 0; i < 3; i++) expect((await replay(tenant)).body.data).toEqual({ replayed: 0, deliveryIds: [], hasMore: false });
  expect(await failDue(tenant.projectId)).toBe(0);
  // 59 s later still nothing; past the minute, the next replay takes both again.
  await age(tenant.projectId, 59_000);
  expect((await replay(tenant)).body.data.replayed).toBe(0);
  await age(tenant.projectId, 2_000);
  // (The hourly budget, 3 here, is the next test's business: this project's is reset.)
  await sql`delete from webhook_replay where project_id = ${tenant.projectId}`.execute(h.deps.db);
  expect([...(await replay(tenant)).body.data.deliveryIds].sort()).toEqual([...ids].sort());
});

it("beyond the project's hourly replay budget a replay is 429 RATE_LIMITED with Retry-After until the oldest replay of the hour ages out", async () => {
  const { tenant } = await tenantWithWebhooks();
  const ids = await failedDeliveries(tenant, 5);
  const first = await replay(tenant);
  expect(first.status).toBe(202);
  // The budget (3) cuts the call short; the rest is there to replay later.
  expect(first.body.data).toMatchObject({ replayed: 3, hasMore: true });
  const firstIds: string[] = first.body.data.deliveryIds;
  expect(firstIds.every((id) => ids.includes(id))).toBe(true);
  const limited = await replay(tenant);
  expect(limited.status).toBe(429);
  expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { budgetPerHour: 3, retryAfterSeconds: expect.any(Number) } });
  expect(limited.body.error.message).toMatch(/re-armed 3 deliveries in the last hour, its hourly replay budget; retry after \d+ s\.$/);
  const retryAfter = Number(limited.headers['retry-after']);
  expect(retryAfter).toBe(limited.body.error.details.retryAfterSeconds);
  // About an hour (the replay was made a moment ago; generous margin for a loaded machine).
  expect(retryAfter).toBeGreaterThan(3_500);
  expect(retryAfter).toBeLessThanOrEqual(3_600);
  // 40 minutes later: still spent, 20 minutes to wait.
  await age(tenant.projectId, 40 * 60_000);
  const later = await replay(tenant);
  expect(later.status).toBe(429);
  expect(Number(later.headers['retry-after'])).toBeGreaterThan(1_100);
  expect(Number(later.headers['retry-after'])).toBeLessThanOrEqual(1_200);
  // Once the replay is over an hour old, the budget is back.
  await age(tenant.projectId, 21 * 60_000);
  const resumed = await replay(tenant);
  expect(resumed.status).toBe(202);
  expect(resumed.body.data).toMatchObject({ replayed: 2, hasMore: false });
  expect([...firstIds, ...resumed.body.data.deliveryIds].sort()).toEqual([...ids].sort());
  // A spent budget with nothing left to replay is a plain empty answer, not a 429.
  await failDue(tenant.projectId);
  const { tenant: other } = await tenantWithWebhooks();
  await failedDeliveries(other, 3);
  expect((await replay(other)).body.data.replayed).toBe(3);
  await failDue(other.projectId);
  expect((await replay(other, { from: '2020-01-01', to: '2020-01-02' })).body.data).toEqual({
    replayed: 0,
    deliveryIds: [],
    hasMore: false,
  });
});

it('a replay while another replay of the project is in progress is 409; other projects are not held up', async () => {
  const { tenant } = await tenantWithWebhooks();
  const { tenant: other } = await tenantWithWebhooks();
  // One delivery each: with the budget of 3, the replays below stay within it.
  await failedDeliveries(tenant, 1);
  await failedDeliveries(other, 1);
  // Another gateway's replay of the project holds its lock for its duration.
  await h.deps.db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${WEBHOOK_REPLAY_LOCK_KEY}, hashtext(${tenant.projectId}))`.execute(trx);
    const busy = await replay(tenant);
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatchObject({
      code: 'INVALID_STATE',
      message: 'Another replay of this project is in progress; send this one again once it has answered.',
    });
    expect((await replay(other)).body.data.replayed).toBe(1);
  });
  expect((await replay(tenant)).body.data).toMatchObject({ replayed: 1, hasMore: false });

  // Concurrent calls: each is either the one replay or a 409, never "nothing, but call again".
  await failDue(tenant.projectId);
  await age(tenant.projectId, 61_000);
  const answers = await Promise.all(Array.from({ length: 6 }, () => replay(tenant)));
  for (const a of answers) {
    expect([202, 409]).toContain(a.status);
    if (a.status === 202) expect(a.body.data.replayed > 0 || a.body.data.hasMore === false).toBe(true);
  }
  const rearmed = answers.filter((a) => a.status === 202).flatMap((a) => a.body.data.deliveryIds as string[]);
  expect(new Set(rearmed).size).toBe(rearmed.length);
});

it('deleting a webhook cancels its waiting deliveries: listed as cancelled, not pending, never claimed, not resendable', async () => {
  const { tenant, webhookIds } = await tenantWithWebhooks(2);
  const [kept, removed] = webhookIds as [string, string];
  await buildEvent(h.deps.db, tenant.projectId, { type: 'job.completed' });
  await repo.dispatchEvents(1_000, (id) => JSON.stringify({ id }));
  // First attempts fail: both wait for their retry, due in the future.
  const claimed = (await repo.claimDue(1_000, 60_000, 1_000)).filter((c) => c.project_id === tenant.projectId);
  expect(claimed).toHaveLength(2);
  await repo.recordAttempts(
    claimed.map((c) => outcome(c, { nextAttemptAt: new Date(Date.now() + 3_600_000) })),
    null,
  );

  const res = await h.http
    .patch(`/v1/key/projects/${tenant.projectId}/webhooks`)
    .set(bearer(tenant.apiKey))
    .send({ configs: [{ id: kept, url: 'http://127.0.0.1:9/0', triggerAction: 'job.completed' }] });
  expect(res.status).toBe(200);

  const pending = (await deliveries(tenant, '?status=pending')).body.data;
  expect(pending.map((d: { webhookId: string }) => d.webhookId)).toEqual([kept]);
  const cancelled = (await deliveries(tenant, '?status=cancelled')).body;
  expect(cancelled.pagination.total).toBe(1);
  expect(cancelled.data[0]).toMatchObject({
    webhookId: removed,
    status: 'cancelled',
    attemptCount: 1,
    nextAttemptAt: null,
    finishedAt: expect.any(String),
  });
  // Due or not, a cancelled delivery is never claimed, and a resend is refused.
  await h.deps.db
    .updateTable('webhook_delivery')
    .set({ next_attempt_at: new Date(0) })
    .where('project_id', '=', tenant.projectId)
    .execute();
  const due = (await repo.claimDue(1_000, 60_000, 1_000)).filter((c) => c.project_id === tenant.projectId);
  expect(due.map((c) => c.webhook_id)).toEqual([kept]);
  const refused = await resend(tenant, cancelled.data[0].id);
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toMatch(/disabled or was removed/);
  // Analytics count them apart too.
  const analytics = await h.http.get(`/v1/key/projects/${tenant.projectId}/analytics`).set(bearer(tenant.apiKey));
  expect(analytics.body.data.webhookDeliveries).toEqual({ succeeded: 0, failed: 0, pending: 1, cancelled: 1 });
});

it('an attempt in flight when its webhook is deleted ends by its outcome; if another attempt would follow, the deliverer cancels it', async () => {
  const { tenant, webhookIds } = await tenantWithWebhooks(1);
  await buildEvent(h.deps.db, tenant.projectId, { type: 'job.completed' });
  await repo.dispatchEvents(1_000, (id) => JSON.stringify({ id }));
  const [inFlight] = (await repo.claimDue(1_000, 60_000, 1_000)).filter((c) => c.project_id === tenant.projectId);
  expect(inFlight).toMatchObject({ webhook_id: webhookIds[0] });
  await h.http.patch(`/v1/key/projects/${tenant.projectId}/webhooks`).set(bearer(tenant.apiKey)).send({ configs: [] });
  // Leased: left alone by the deletion; its failed outcome schedules a retry as usual.
  expect((await deliveries(tenant)).body.data[0]).toMatchObject({ status: 'pending' });
  await repo.recordAttempts([outcome(inFlight!, { nextAttemptAt: new Date() })], null);
  // The retry is claimed without a configuration (url null): the deliverer cancels it.
  const [orphan] = (await repo.claimDue(1_000, 60_000, 1_000)).filter((c) => c.project_id === tenant.projectId);
  expect(orphan).toMatchObject({ id: inFlight!.id, url: null });
  await repo.markCancelled(orphan!.id);
  expect((await deliveries(tenant)).body.data[0]).toMatchObject({ status: 'cancelled', attemptCount: 1, nextAttemptAt: null });
});
