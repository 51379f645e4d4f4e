import { sql } from '@crawl/db';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const usage = (owner: TestTenant, query = '') => h.http.get(`/v1/key/projects/${owner.projectId}/usage${query}`).set(bearer(owner.apiKey));

describe('GET /projects/{id}/usage', () => {
  it('answers balance, plan, rate limit, range totals and the ledger, newest first', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100, plan: 'starter' });
    const job = await h.http
      .post(`/v1/key/projects/${owner.projectId}/jobs`)
      .set(bearer(owner.apiKey))
      .send({ type: 'search', targets: ['lamp', 'desk'] });
    await h.http.post(`/v1/key/jobs/${job.body.data.id}/cancel`).set(bearer(owner.apiKey)).expect(200);
    const res = await usage(owner);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      organizationId: owner.organizationId,
      plan: 'starter',
      balance: 100,
      rateLimit: { limit: 20, windowSeconds: 1 },
      credits: { granted: 100, reserved: 10, consumed: 0, refunded: 10 },
    });
    expect(res.body.data.ledger).toEqual([
      { jobId: job.body.data.id, kind: 'refund', amount: 10, balanceAfter: 100, createdAt: expect.any(String) },
      { jobId: job.body.data.id, kind: 'reserve', amount: 10, balanceAfter: 90, createdAt: expect.any(String) },
      { jobId: null, kind: 'grant', amount: 100, balanceAfter: 100, createdAt: expect.any(String) },
    ]);
    expect(res.body.pagination).toEqual({ total: 3, limit: 20, offset: 0, hasMore: false });
  });

  it('pages the ledger with limit and offset', async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    for (const k of ['a', 'b'])
      await h.http
        .post(`/v1/key/projects/${owner.projectId}/jobs`)
        .set(bearer(owner.apiKey))
        .send({ type: 'search', targets: [k] });
    const page = await usage(owner, '?limit=2&offset=1');
    expect(page.body.pagination).toEqual({ total: 3, limit: 2, offset: 1, hasMore: false });
    expect(page.body.data.ledger.map((e: { kind: string }) => e.kind)).toEqual(['reserve', 'grant']);
    // The totals cover the whole range, not the page.
    expect(page.body.data.credits).toMatchObject({ granted: 100, reserved: 10 });
  });

  it('limits totals and ledger to the range', async () => {
    const owner = await createTenant(h.deps.db, { credits: 50 });
    await sql`update credit_ledger set created_at = '2026-01-10T12:00:00Z' where organization_id = ${owner.organizationId}`.execute(
      h.deps.db,
    );
    const inside = await usage(owner, '?from=2026-01-10&to=2026-01-10');
    expect(inside.body.data.credits.granted).toBe(50);
    expect(inside.body.data.range).toEqual({ from: '2026-01-10T00:00:00.000Z', to: '2026-01-10T23:59:59.999Z' });
    const outside = await usage(owner, '?from=2026-01-11T00:00:00Z&to=2026-02-01');
    expect(outside.body.data.credits.granted).toBe(0);
    expect(outside.body.data.ledger).toEqual([]);
  });

  it("shows the organization's balance but never another project's ledger entries", async () => {
    const owner = await createTenant(h.deps.db, { credits: 100 });
    const sibling = await createTenant(h.deps.db, { org: owner.organizationId, credits: 0 });
    await h.http
      .post(`/v1/key/projects/${sibling.projectId}/jobs`)
      .set(bearer(sibling.apiKey))
      .send({ type: 'search', targets: ['sibling'] });
    const res = await usage(owner);
    expect(res.body.data.balance).toBe(95);
    expect(res.body.data.credits.reserved).toBe(0);
    expect(res.body.data.ledger.every((e: { jobId: string | null }) => e.jobId === null)).toBe(true);
  });

  it.each([
    ['?from=2026-02-30', 'query.from'],
    ['?to=yesterday', 'query.to'],
    ['?from=2026-03-02&to=2026-03-01', 'query.from'],
    ['?from=2024-01-01&to=2026-01-01', 'query.from'],
    ['?limit=0', 'query.limit'],
    ['?limit=101', 'query.limit'],
    ['?offset=-1', 'query.offset'],
    ['?plan=growth', 'query'],
  ])('rejects %s with 400 naming %s', async (query, path) => {
    const owner = await createTenant(h.deps.db);
    const res = await usage(owner, query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers the per-minute limit of an enterprise organization', async () => {
    const owner = await createTenant(h.deps.db, { plan: 'enterprise', perMinute: 1_200 });
    expect((await usage(owner)).body.data).toMatchObject({ plan: 'enterprise', rateLimit: { limit: 1_200, windowSeconds: 60 } });
  });
});
