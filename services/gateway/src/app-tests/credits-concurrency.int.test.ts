import { createTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../test-support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

it('50 concurrent creations against a balance that covers 20: exactly 20 succeed, ledger agrees', async () => {
  const tenant = await createTenant(h.deps.db, { credits: 40 }); // 20 details jobs x 2 credits
  const served = await h.listen();
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      fetch(`${served.url}/v1/key/projects/${tenant.projectId}/jobs`, {
        method: 'POST',
        headers: { ...bearer(tenant.apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'details', targets: [`B0000000${String(i).padStart(2, '0')}`] }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
    ),
  );
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s === 202)).toHaveLength(20);
  expect(statuses.filter((s) => s === 402)).toHaveLength(30);
  for (const r of responses.filter((x) => x.status === 402)) {
    expect(r.body.error.code).toBe('INSUFFICIENT_CREDITS');
    expect(r.body.error.details.cost).toBe(2);
    expect(r.body.error.details.balance).toBeLessThan(2);
  }
  expect(await h.deps.credits.balance(tenant.organizationId)).toBe(0);
  const totals = await h.deps.credits.ledgerTotals(tenant.organizationId);
  expect(totals).toEqual({ grant: 40, reserve: 40, refund: 0, consume: 0 });
  const { total } = await h.deps.jobs.list({ projectId: tenant.projectId, limit: 100, offset: 0 });
  expect(total).toBe(20);

  // Cancelling every job refunds every credit: balance and ledger still agree.
  for (const r of responses.filter((x) => x.status === 202)) {
    await h.http.post(`/v1/key/jobs/${r.body.data.id}/cancel`).set(bearer(tenant.apiKey)).expect(200);
  }
  expect(await h.deps.credits.balance(tenant.organizationId)).toBe(40);
  const after = await h.deps.credits.ledgerTotals(tenant.organizationId);
  expect(after.grant - after.reserve + after.refund).toBe(40);
});
