import { AlertReplayRepository, sql } from '@crawl/db';
import { PAGE_SOURCES, recordTargetOutcome } from '@crawl/jobs';
import { buildJob, createTenant, detailsItem, progressRepositories, searchItem, type TestTenant, uniqueAsin } from '@crawl/testing';
import { member } from '../../test-support/accounts';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

/**
 * The rule preview (docs/alerts.md, "Preview") against live evaluation: the same crawls go
 * through the tracking transaction with the rules in place, then each rule's body is previewed
 * over the stored snapshots; the preview must list exactly the alerts evaluation fired.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

type Item = ReturnType<typeof detailsItem> | ReturnType<typeof searchItem>;

async function crawl(owner: TestTenant, asin: string, item: Item, type: 'details' | 'search' = 'details'): Promise<void> {
  const target = type === 'search' ? 'desk lamp' : asin;
  const job = await buildJob(h.deps.db, { owner, type, targets: [target] });
  await recordTargetOutcome(progressRepositories(h.deps.db), job.id, 0, target, { kind: 'succeeded', items: [item], attempts: 1 });
}
const priced = (asin: string, price: number, overrides: Parameters<typeof detailsItem>[1] = {}) =>
  detailsItem(asin, { price: { amount: price, currency: 'USD' }, ...overrides });
const card = (asin: string, price: number) => searchItem('desk lamp', 1, { asin, price: { amount: price, currency: 'USD' } });
const stock = (asin: string, status: 'in_stock' | 'out_of_stock') => priced(asin, 30, { availability: { status, text: status } });
const sold = (asin: string, seller: string) => priced(asin, 30, { seller: { name: seller } } as never);

const preview = (t: TestTenant, body: object) =>
  h.http.post(`/v1/key/projects/${t.projectId}/alert-rules/preview`).set(bearer(t.apiKey)).send(body);

/** What live evaluation fired for a rule, in the preview's terms. */
async function liveAlerts(ruleId: string) {
  const rows = await h.deps.db
    .selectFrom('alert')
    .select(['asin', 'marketplace', 'postal_code', 'status', 'created_at', 'value', 'previous', 'baseline'])
    .where('rule_id', '=', ruleId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    asin: r.asin,
    marketplace: r.marketplace,
    postalCode: r.postal_code || null,
    status: r.status,
    firedAt: r.created_at.toISOString(),
    value: r.value,
    previous: r.previous,
    baseline: r.baseline,
  }));
}

it('counts and lists exactly what evaluation fired on the same snapshots: transitions, re-arm, cooldown, maxPerDay, baselines, page-only prices', async () => {
  const t = await createTenant(h.deps.db, { credits: 10_000 });
  const [a, b, c, d] = [uniqueAsin(), uniqueAsin(), uniqueAsin(), uniqueAsin()];
  const bodies = [
    { name: 'under 25, capped', condition: { type: 'price_below', value: 25 }, cooldownSeconds: 0, maxPerDay: 2 },
    { name: 'under 25, an hour apart', condition: { type: 'price_below', value: 25 } },
    { name: '10% under the week', condition: { type: 'price_drop_pct', value: 10, baseline: 'median_7d' }, cooldownSeconds: 0, asins: [b] },
    { name: 'back', condition: { type: 'back_in_stock' }, cooldownSeconds: 0, asins: [c] },
    { name: 'seller', condition: { type: 'seller_changed' }, cooldownSeconds: 0, marketplace: 'US', asins: [d] },
  ];
  const ids: string[] = [];
  for (const body of bodies) {
    const res = await h.http.post(`/v1/key/projects/${t.projectId}/alert-rules`).set(bearer(t.apiKey)).send(body);
    expect(res.status).toBe(201);
    ids.push(res.body.data.id);
  }
  // a: under, still under, above, under again (three times); search cards in between never count
  for (const price of [30, 28, 20, 19, 30]) await crawl(t, a, priced(a, price));
  await crawl(t, a, card(a, 9.99), 'search'); // replayed, it would fire here and leave 21 silent
  for (const price of [21, 30, 22, 30]) await crawl(t, a, priced(a, price));
  // b: a drop against its own week's median (a card's price is no page price)
  for (const price of [30, 30]) await crawl(t, b, priced(b, price));
  await crawl(t, b, card(b, 5), 'search');
  for (const price of [31, 26, 30, 25]) await crawl(t, b, priced(b, price));
  // c: out of stock and back, twice; d: the buy box moves
  for (const s of ['in_stock', 'out_of_stock', 'in_stock', 'out_of_stock', 'in_stock'] as const) await crawl(t, c, stock(c, s));
  for (const seller of ['Acme', 'Acme', 'Other', 'Other', 'Acme']) await crawl(t, d, sold(d, seller));

  const expected = [3, 1, 2, 2, 2];
  for (const [i, body] of bodies.entries()) {
    const live = await liveAlerts(ids[i]!);
    expect({ name: body.name, n: live.length }).toEqual({ name: body.name, n: expected[i] }); // the sequence exercises what it claims to
    const res = await preview(t, body);
    expect(res.status).toBe(200);
    const p = res.body.data;
    expect({ name: body.name, fired: p.fired, suppressed: p.suppressed }).toEqual({
      name: body.name,
      fired: live.filter((x) => x.status === 'sent').length,
      suppressed: live.filter((x) => x.status === 'suppressed').length,
    });
    expect(p.firstAlerts).toEqual(live);
    expect(p.truncated).toBe(false);
  }
  expect((await liveAlerts(ids[0]!)).map((x) => x.status)).toEqual(['sent', 'sent', 'suppressed']);
  const all = (await preview(t, { condition: { type: 'field_changed', field: 'price' } })).body.data;
  expect(all).toMatchObject({ productsEvaluated: 4 });
  // 15 details crawls of a and b, 5 of c, 5 of d: the search cards are not replayed
  expect(all.snapshotsEvaluated).toBe(9 + 6 + 5 + 5);
});

it("starts from the page state before the period: a product's first snapshot in it is compared with the one before", async () => {
  const t = await createTenant(h.deps.db, { credits: 10_000 });
  const asin = uniqueAsin();
  await crawl(t, asin, priced(asin, 30));
  await sql`update product_snapshot set captured_at = now() - interval '40 days' where project_id = ${t.projectId}`.execute(h.deps.db);
  await crawl(t, asin, priced(asin, 20));
  const res = await preview(t, { condition: { type: 'price_below', value: 25 } });
  expect(res.body.data).toMatchObject({ productsEvaluated: 1, snapshotsEvaluated: 1, fired: 1, suppressed: 0 });
  expect(res.body.data.firstAlerts[0]).toMatchObject({ asin, value: 20, previous: 30, status: 'sent' });
  // a product first seen in the period fires nothing on that first snapshot
  const fresh = uniqueAsin();
  await crawl(t, fresh, priced(fresh, 10));
  expect((await preview(t, { condition: { type: 'price_below', value: 25 }, asins: [fresh] })).body.data.fired).toBe(0);
});

it('reads only its own project, says when it read less than the scope, and is refused where creating a rule is', async () => {
  const t = await createTenant(h.deps.db, { credits: 10_000 });
  const other = await createTenant(h.deps.db, { credits: 10_000 });
  const asin = uniqueAsin();
  for (const price of [30, 20]) await crawl(other, asin, priced(asin, price));
  const mine = await preview(t, { condition: { type: 'price_below', value: 25 } });
  expect(mine.body.data).toMatchObject({ productsEvaluated: 0, snapshotsEvaluated: 0, fired: 0, suppressed: 0, firstAlerts: [] });
  expect((await preview(other, { condition: { type: 'price_below', value: 25 } })).body.data.fired).toBe(1);
  const foreign = await h.http
    .post(`/v1/key/projects/${other.projectId}/alert-rules/preview`)
    .set(bearer(t.apiKey))
    .send({ condition: { type: 'price_below', value: 25 } });
  expect(foreign.status).toBe(403);

  // the caps: whole series only, and `truncated` when any was left out
  const second = uniqueAsin();
  await crawl(other, second, priced(second, 40));
  const replay = new AlertReplayRepository(h.deps.db);
  const read = (maxSeries: number, maxSnapshots: number) =>
    replay.read({
      projectId: other.projectId,
      ...{ marketplace: null, postalCode: null, asins: null, sources: PAGE_SOURCES, prices: false },
      ...{ from: new Date(Date.now() - 86_400_000), to: new Date(), maxSeries, maxSnapshots },
    });
  const whole = await read(10, 10);
  expect([whole.series.length, whole.truncated]).toEqual([2, false]);
  for (const [series, snapshots] of [
    [1, 10],
    [10, 2],
  ]) {
    const cut = await read(series!, snapshots!);
    expect(cut.truncated).toBe(true);
    expect(cut.series).toHaveLength(1);
    const full = whole.series.find((s) => s.asin === cut.series[0]!.asin)!;
    expect(cut.series[0]!.observations).toHaveLength(full.observations.length);
  }

  const viewer = await member(h, t.organizationId, 'viewer');
  const refused = await viewer.agent
    .post(`/v1/key/projects/${t.projectId}/alert-rules/preview`)
    .set(viewer.csrf)
    .send({ condition: { type: 'back_in_stock' } });
  expect(refused.status).toBe(403);
  for (const body of [{}, { condition: { type: 'price_below' } }, { condition: { type: 'back_in_stock' }, colour: 'red' }]) {
    const bad = await preview(t, body);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  }
  const noMarket = await preview(t, { condition: { type: 'back_in_stock' }, postalCode: '10001' });
  expect(noMarket.status).toBe(400);
});
