import { type AttemptOutcome, type ClaimedDelivery, WebhookDeliveryRepository } from '@crawl/db';
import { buildEvent, createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

/**
 * The delivery log, resend and replay over HTTP. Deliveries are made by the
 * deliverer's own repository calls (dispatch, claim, record), as the webhooks service makes
 * them; no receiver is involved: sending is the deliverer's tests' business.
 */
let h: Harness;
let tenant: TestTenant;
let stranger: TestTenant;
let repo: WebhookDeliveryRepository;
let webhookId: string;
let otherWebhookId: string;

beforeAll(async () => {
  h = await startHarness();
  repo = new WebhookDeliveryRepository(h.deps.db);
  tenant = await createTenant(h.deps.db);
  stranger = await createTenant(h.deps.db);
  const configs = await h.http
    .patch(`/v1/key/projects/${tenant.projectId}/webhooks`)
    .set(bearer(tenant.apiKey))
    .send({
      configs: [
        { url: 'http://127.0.0.1:9/a', triggerAction: 'job.completed' },
        { url: 'http://127.0.0.1:9/b', triggerAction: 'job.failed' },
      ],
    });
  [webhookId, otherWebhookId] = configs.body.data.configs.map((c: { id: string }) => c.id);
  await h.http
    .patch(`/v1/key/projects/${stranger.projectId}/webhooks`)
    .set(bearer(stranger.apiKey))
    .send({ configs: [{ url: 'http://127.0.0.1:9/s', triggerAction: 'job.completed' }] });
});
afterAll(() => h.close());

const outcome = (c: ClaimedDelivery, fields: Partial<AttemptOutcome>): AttemptOutcome => ({
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
  responseBody: 'maintenance',
  final: false,
  nextAttemptAt: new Date(),
  ...fields,
});

/** Runs the deliverer's claim/record cycle with canned outcomes until no attempt is due. */
async function deliverAll(answer: (c: ClaimedDelivery) => Partial<AttemptOutcome>): Promise<void> {
  for (;;) {
    const claimed = await repo.claimDue(1_000, 60_000, 1_000);
    if (!claimed.length) return;
    await repo.recordAttempts(
      claimed.map((c) => outcome(c, { ...answer(c) })),
      { afterMs: 5 * 24 * 3_600_000, reason: 'every delivery attempt failed since' },
    );
  }
}

/** `n` events of `type` in the tenant's project, dispatched to deliveries; returns their ids. */
async function makeDeliveries(
  n: number,
  type: 'job.completed' | 'job.failed' = 'job.completed',
  projectId = tenant.projectId,
): Promise<string[]> {
  for (let i = 0; i < n; i++) await buildEvent(h.deps.db, projectId, { type });
  const { deliveries } = await repo.dispatchEvents(1_000, (id) => JSON.stringify({ id }));
  return deliveries.map((d) => d.id);
}

/** Fails every attempt until the deliveries are failed (5 attempts each). */
const failAll = () => deliverAll((c) => (c.attempts + 1 >= c.max_attempts ? { final: true } : {}));

const list = (query = '', t = tenant) => h.http.get(`/v1/key/projects/${t.projectId}/webhooks/deliveries${query}`).set(bearer(t.apiKey));
const resend = (id: string, t = tenant) =>
  h.http.post(`/v1/key/projects/${t.projectId}/webhooks/deliveries/${id}/resend`).set(bearer(t.apiKey));
const replay = (body: object, key?: string) => {
  const req = h.http.post(`/v1/key/projects/${tenant.projectId}/webhooks/replay`).set(bearer(tenant.apiKey));
  return (key ? req.set('Idempotency-Key', key) : req).send(body);
};

describe('GET /webhooks/deliveries', () => {
  it('lists deliveries newest first with their attempts, filtered and paginated', async () => {
    const since = new Date(Date.now() - 1_000).toISOString();
    const [failedId] = await makeDeliveries(1, 'job.failed');
    await failAll();
    const okIds = await makeDeliveries(2);
    await deliverAll(() => ({ success: true, statusCode: 200, error: null, responseBody: 'thanks' }));

    const all = await list(`?from=${since}`);
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
    const listed = all.body.data.map((d: { id: string }) => d.id);
    expect(listed.slice(0, 2).sort()).toEqual([...okIds].sort()); // newest first: the failed one was made before
    expect(listed[2]).toBe(failedId);
    const failed = all.body.data[2];
    expect(failed).toMatchObject({
      id: failedId,
      webhookId: otherWebhookId,
      event: 'job.failed',
      status: 'failed',
      attemptCount: 5,
      nextAttemptAt: null,
    });
    expect(failed.finishedAt).not.toBeNull();
    expect(failed.attempts).toHaveLength(5);
    expect(failed.attempts[0]).toEqual({
      attempt: 1,
      manual: false,
      success: false,
      statusCode: 503,
      durationMs: 3,
      error: 'HTTP 503',
      responseBody: 'maintenance',
      createdAt: expect.any(String),
    });
    expect(all.body.data[0].attempts).toEqual([expect.objectContaining({ attempt: 1, success: true, responseBody: 'thanks' })]);

    const onlyFailed = await list(`?status=failed&from=${since}`);
    expect(onlyFailed.body.data.map((d: { id: string }) => d.id)).toEqual([failedId]);
    expect((await list(`?event=job.completed&from=${since}`)).body.pagination.total).toBe(2);
    expect((await list(`?webhookId=${otherWebhookId}&from=${since}`)).body.pagination.total).toBe(1);
    const page = await list(`?from=${since}&limit=1&offset=1`);
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([listed[1]]);
    expect(page.body.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
    expect((await list('?to=2020-01-01')).body).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0, hasMore: false } });
    // Another project's deliveries are never listed.
    await makeDeliveries(1, 'job.completed', stranger.projectId);
    expect((await list(`?from=${since}`)).body.pagination.total).toBe(3);
  });

  it.each([
    ['?status=sent', 'query.status'],
    ['?event=job.started', 'query.event'],
    ['?webhookId=nope', 'query.webhookId'],
    ['?from=2026-02-30', 'query.from'],
    ['?to=yesterday', 'query.to'],
    ['?from=2026-11-02&to=2026-11-01', 'query.from'],
    ['?from=2026-11-23T24:00:00Z', 'query.from'],
    ['?limit=101', 'query.limit'],
    ['?secret=1', 'query'],
  ])('%s is a 400 naming %s', async (query, path) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});

describe('POST /webhooks/deliveries/{id}/resend', () => {
  it('re-arms a delivered or failed delivery for one more attempt with the same id; a pending one is 409', async () => {
    const [delivered] = await makeDeliveries(1);
    await deliverAll(() => ({ success: true, statusCode: 204, error: null }));
    const res = await resend(delivered!);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      id: delivered,
      status: 'pending',
      attemptCount: 1,
      nextAttemptAt: expect.any(String),
      finishedAt: null,
    });
    // Pending now: a second resend (a double click, a retried request) sends nothing more.
    const again = await resend(delivered!);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    const claimed = (await repo.claimDue(1_000, 60_000, 1_000)).filter((c) => c.id === delivered);
    expect(claimed).toEqual([expect.objectContaining({ id: delivered, attempts: 1, max_attempts: 2, manual: true })]);
    // The resend's attempt fails: no automatic retry follows it.
    await repo.recordAttempts([outcome(claimed[0]!, { final: true })], {
      afterMs: 5 * 24 * 3_600_000,
      reason: 'every delivery attempt failed since',
    });
    const after = (await list(`?webhookId=${webhookId}&limit=100`)).body.data.find((d: { id: string }) => d.id === delivered);
    expect(after).toMatchObject({ status: 'failed', attemptCount: 2 });
    expect(after.attempts.map((a: { manual: boolean }) => a.manual)).toEqual([false, true]);
    // A failed delivery can be resent too.
    expect((await resend(delivered!)).status).toBe(202);
  });

  it("is 404 for an unknown id and for another project's delivery, and 409 when the webhook is disabled", async () => {
    expect((await resend('dlv_0000000000000000')).status).toBe(404);
    expect((await resend('not-an-id')).status).toBe(404);
    const [theirs] = await makeDeliveries(1, 'job.completed', stranger.projectId);
    await deliverAll(() => ({ success: true, statusCode: 204, error: null }));
    const res = await resend(theirs!);
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain(stranger.projectId);
    expect(
      (await h.deps.db.selectFrom('webhook_delivery').select('status').where('id', '=', theirs!).executeTakeFirstOrThrow()).status,
    ).toBe('delivered');

    const [mine] = await makeDeliveries(1);
    await deliverAll(() => ({ success: true, statusCode: 204, error: null }));
    await h.deps.db.updateTable('webhook_config').set({ enabled: false }).where('id', '=', webhookId).execute();
    try {
      const disabled = await resend(mine!);
      expect(disabled.status).toBe(409);
      expect(disabled.body.error.message).toMatch(/disabled/);
    } finally {
      await h.deps.db.updateTable('webhook_config').set({ enabled: true }).where('id', '=', webhookId).execute();
    }
  });

  it('refuses a body with fields', async () => {
    const res = await h.http
      .post(`/v1/key/projects/${tenant.projectId}/webhooks/deliveries/dlv_0000000000000000/resend`)
      .set(bearer(tenant.apiKey))
      .send({ force: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /webhooks/replay', () => {
  it('re-arms failed deliveries of a time range, at most `limit` per call, continuing on the next call', async () => {
    await deliverAll(() => ({ success: true, statusCode: 204, error: null })); // nothing left over from earlier tests
    const from = new Date().toISOString();
    const ids = await makeDeliveries(3);
    await failAll();
    const first = await replay({ from, limit: 2 });
    expect(first.status).toBe(202);
    expect(first.body.data).toMatchObject({ replayed: 2, hasMore: true });
    const second = await replay({ from, limit: 2 });
    expect(second.body.data).toMatchObject({ replayed: 1, hasMore: false });
    // Each failed delivery re-armed by exactly one of the calls.
    expect([...first.body.data.deliveryIds, ...second.body.data.deliveryIds].sort()).toEqual([...ids].sort());
    // Everything is pending: a third call re-arms nothing, so nothing is sent twice.
    expect((await replay({ from, limit: 2 })).body.data).toEqual({ replayed: 0, deliveryIds: [], hasMore: false });
    const claimed = (await repo.claimDue(1_000, 60_000, 1_000)).filter((c) => ids.includes(c.id));
    expect(claimed.map((c) => c.id).sort()).toEqual([...ids].sort());
    expect(claimed.every((c) => c.manual && c.attempts === 5 && c.max_attempts === 6)).toBe(true);
    await repo.recordAttempts(
      claimed.map((c) => outcome(c, { success: true, statusCode: 200, error: null })),
      { afterMs: 5 * 24 * 3_600_000, reason: 'every delivery attempt failed since' },
    );
    // A range before the deliveries, or another webhook, matches none.
    expect((await replay({ from: '2020-01-01', to: '2020-01-02' })).body.data.replayed).toBe(0);
  });

  it('with an Idempotency-Key answers a repeat with the first answer, and refuses the key with another body', async () => {
    const from = new Date().toISOString();
    const ids = await makeDeliveries(2);
    await failAll();
    const first = await replay({ from }, 'replay-key-1');
    expect(first.status).toBe(202);
    expect([...first.body.data.deliveryIds].sort()).toEqual([...ids].sort());
    const repeated = await replay({ from }, 'replay-key-1');
    expect(repeated.status).toBe(202);
    expect(repeated.headers['idempotent-replayed']).toBe('true');
    expect(repeated.body).toEqual(first.body);
    const mismatch = await replay({ from, limit: 1 }, 'replay-key-1');
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.code).toBe('IDEMPOTENCY_MISMATCH');
    await deliverAll(() => ({ success: true, statusCode: 204, error: null }));
  });

  it.each([
    [{}, 'body.from'],
    [{ from: '2026-02-29' }, 'body.from'],
    [{ from: '2026-11-02', to: '2026-11-01' }, 'body.from'],
    [{ from: '2026-11-01', limit: 1001 }, 'body.limit'],
    [{ from: '2026-11-01', limit: 0 }, 'body.limit'],
    [{ from: '2026-11-01', event: 'job.started' }, 'body.event'],
    [{ from: '2026-11-01', status: 'delivered' }, 'body'],
  ])('%j is a 400 naming %s', async (body, path) => {
    const res = await replay(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});
