import { verify } from '@crawl/client';
import { productAlertDataSchema, webhookDeliverySchema } from '@crawl/core';
import { syntheticSearchCards } from '@crawl/simulator';
import type { TestTenant } from '@crawl/testing';
import { loadWebhooksConfig, startWebhooks, type WebhooksHandle } from '@crawl/webhooks';
import { Receiver } from './receivers';
import { auth, type Stack, startStack } from './stack';

/**
 * Alert rules through the whole stack (docs/alerts.md): the simulator's synthetic product page
 * of B0TRACK001 ($19.99, in stock) is rewritten between crawls, the workers record each crawl,
 * and the webhooks service delivers product.alert to a real receiver, signed and checked against
 * the published document.
 */
let stack: Stack;
let webhooks: WebhooksHandle;

beforeAll(async () => {
  stack = await startStack({ simulator: { fixturesDir: null } });
  webhooks = await startWebhooks(
    loadWebhooksConfig({
      ...stack.workerEnv,
      SECRETS_KEY: 'c'.repeat(64),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '50',
    }),
  );
});
afterAll(async () => {
  await webhooks.close();
  await stack.close();
});
afterEach(() => stack.simulator.clearFaults());

const ASIN = 'B0TRACK001';
type Rewrite = [string, string][];
/** The page's $19.99 as another price. */
const price = (to: string): Rewrite => {
  const [whole, fraction] = to.split('.');
  return [
    ['$19.99', `$${to}`],
    ['<span class="a-price-whole">19<', `<span class="a-price-whole">${whole}<`],
    ['<span class="a-price-fraction">99<', `<span class="a-price-fraction">${fraction}<`],
  ];
};
const OUT_OF_STOCK: Rewrite = [[' In Stock ', ' Currently unavailable. ']];

/** One details crawl of `asin`, its page rewritten as `replace` says (none: as the simulator makes it). */
async function crawl(tenant: TestTenant, replace: Rewrite = [], asin = ASIN): Promise<string> {
  stack.simulator.clearFaults();
  if (replace.length) stack.simulator.setFaults([{ match: asin, fault: { kind: 'rewrite', replace } }]);
  const job = await stack.createJob(tenant, { type: 'details', targets: [asin] });
  await stack.waitForJob(job);
  return job;
}

/** A tenant with a receiver subscribed to product.alert, and its rule. */
async function setup(rule: object): Promise<{ tenant: TestTenant; receiver: Receiver; secret: string; ruleId: string }> {
  const tenant = await stack.tenant();
  const receiver = await Receiver.start();
  const hook = await stack.http
    .patch(`/v1/key/projects/${tenant.projectId}/webhooks`)
    .set(auth(tenant))
    .send({ configs: [{ url: receiver.url, triggerAction: 'product.alert' }] });
  const created = await stack.http.post(`/v1/key/projects/${tenant.projectId}/alert-rules`).set(auth(tenant)).send(rule);
  expect(created.status).toBe(201);
  return { tenant, receiver, secret: hook.body.data.configs[0].secret, ruleId: created.body.data.id };
}

const alerts = async (tenant: TestTenant) =>
  (await stack.http.get(`/v1/key/projects/${tenant.projectId}/alerts`).set(auth(tenant))).body.data as {
    status: string;
    value: unknown;
    previous: unknown;
    baseline: number | null;
    jobId: string;
    createdAt: string;
  }[];

/** Waits for every delivery of the alerts sent so far, then checks no other came: each is signed and valid. */
async function deliveries(receiver: Receiver, secret: string, count: number) {
  await receiver.waitFor(count);
  await new Promise((r) => setTimeout(r, 500));
  expect(receiver.received).toHaveLength(count);
  return receiver.received.map((d) => {
    expect(verify(secret, d.body, d.headers['x-service-signature']).ok).toBe(true);
    expect(d.headers['x-service-event']).toBe('product.alert');
    const body = webhookDeliverySchema.parse(JSON.parse(d.body));
    return productAlertDataSchema.parse(body.data);
  });
}

it('price_below fires once on the third crawl, stays silent under, re-arms above and fires again only after the cooldown', async () => {
  const cooldownSeconds = 10;
  const { tenant, receiver, secret, ruleId } = await setup({
    name: 'Under $18',
    condition: { type: 'price_below', value: 18 },
    asins: [ASIN],
    cooldownSeconds,
  });
  try {
    await crawl(tenant); // first snapshot: the baseline
    await crawl(tenant);
    const third = await crawl(tenant, price('17.49'));
    const [first] = await deliveries(receiver, secret, 1);
    expect(first).toMatchObject({
      ruleId,
      ruleName: 'Under $18',
      asin: ASIN,
      marketplace: 'US',
      postalCode: null,
      value: 17.49,
      previous: 19.99,
    });
    expect(first!.jobId).toBe(third);
    expect(first!.condition).toEqual({ type: 'price_below', value: 18 });
    const firedAt = Date.parse((await alerts(tenant))[0]!.createdAt);

    await crawl(tenant, price('16.99')); // still under
    await crawl(tenant); // above: re-armed
    await crawl(tenant, price('17.49')); // under again, inside the cooldown
    // the assertion below only means something while the cooldown lasts
    expect(Date.now() - firedAt).toBeLessThan(cooldownSeconds * 1000);
    await deliveries(receiver, secret, 1);
    const rule = (await stack.http.get(`/v1/key/alert-rules/${ruleId}`).set(auth(tenant))).body.data;
    expect(rule.state).toMatchObject({ firing: 1, coolingDown: 1, alertsToday: 1, suppressedToday: 0 });

    await crawl(tenant); // re-armed
    while (Date.now() - firedAt < cooldownSeconds * 1000 + 100) await new Promise((r) => setTimeout(r, 200));
    const last = await crawl(tenant, price('16.49'));
    const all = await deliveries(receiver, secret, 2);
    expect(all[1]).toMatchObject({ value: 16.49, previous: 19.99, jobId: last });
    expect((await alerts(tenant)).map((a) => [a.status, a.value])).toEqual([
      ['sent', 16.49],
      ['sent', 17.49],
    ]);
  } finally {
    await receiver.close();
  }
}, 90_000);

it('maxPerDay: alerts past the cap are listed as suppressed and never delivered', async () => {
  const { tenant, receiver, secret } = await setup({
    name: 'capped',
    condition: { type: 'price_below', value: 18 },
    cooldownSeconds: 0,
    maxPerDay: 1,
  });
  try {
    for (const page of [[], price('17.49'), [], price('17.49'), [], price('16.99')]) await crawl(tenant, page);
    expect((await alerts(tenant)).map((a) => [a.status, a.value])).toEqual([
      ['suppressed', 16.99],
      ['suppressed', 17.49],
      ['sent', 17.49],
    ]);
    await deliveries(receiver, secret, 1);
  } finally {
    await receiver.close();
  }
}, 60_000);

it('back_in_stock fires when the page shows the product in stock again', async () => {
  const { tenant, receiver, secret } = await setup({ name: 'back', condition: { type: 'back_in_stock' }, cooldownSeconds: 0 });
  try {
    await crawl(tenant);
    await crawl(tenant, OUT_OF_STOCK);
    await crawl(tenant, OUT_OF_STOCK);
    expect(await alerts(tenant)).toEqual([]);
    const back = await crawl(tenant);
    const [alert] = await deliveries(receiver, secret, 1);
    expect(alert).toMatchObject({ value: 'in_stock', previous: 'out_of_stock', jobId: back, condition: { type: 'back_in_stock' } });
  } finally {
    await receiver.close();
  }
}, 60_000);

it('seller_changed fires when the buy box goes to another seller, once per change', async () => {
  const { tenant, receiver, secret } = await setup({ name: 'buy box', condition: { type: 'seller_changed' }, cooldownSeconds: 0 });
  try {
    await crawl(tenant);
    const tracked = await stack.http.get(`/v1/key/projects/${tenant.projectId}/tracked-targets`).set(auth(tenant));
    const seller = tracked.body.data[0].snapshot.seller as string;
    expect(seller).toBeTruthy();
    const other: Rewrite = [[`>${seller}</a>`, '>Other Shop</a>']];
    await crawl(tenant, other);
    await crawl(tenant, other);
    const [alert] = await deliveries(receiver, secret, 1);
    expect(alert).toMatchObject({ value: 'Other Shop', previous: seller });
  } finally {
    await receiver.close();
  }
}, 60_000);

it("price_drop_pct against median_7d compares with the median of the product's own crawls", async () => {
  const { tenant, receiver, secret } = await setup({
    name: '10 % under the weekly median',
    condition: { type: 'price_drop_pct', value: 10, baseline: 'median_7d' },
    cooldownSeconds: 0,
  });
  try {
    await crawl(tenant);
    await crawl(tenant, price('18.99')); // 5 % under the median 19.99: nothing
    await crawl(tenant);
    expect(await alerts(tenant)).toEqual([]);
    await crawl(tenant, price('17.49')); // the median of 19.99, 18.99, 19.99 is 19.99: 12.5 % under
    const [alert] = await deliveries(receiver, secret, 1);
    expect(alert).toMatchObject({ value: 17.49, previous: 19.99, baseline: 19.99 });
  } finally {
    await receiver.close();
  }
}, 60_000);

it("a search job's card price never fires a price rule", async () => {
  const keyword = 'alert lamp';
  const card = syntheticSearchCards(keyword)[1]!;
  const tenant = await stack.tenant();
  await crawl(tenant, [], card.asin);
  const tracked = await stack.http.get(`/v1/key/projects/${tenant.projectId}/tracked-targets`).set(auth(tenant));
  const pagePrice = tracked.body.data[0].snapshot.price as number;
  const cardPrice = card.priceMinor / 100;
  expect(cardPrice).not.toBe(pagePrice);
  // a threshold between the two: the card's price is on the firing side
  const threshold = Math.round(((cardPrice + pagePrice) / 2) * 100) / 100;
  const condition = cardPrice < pagePrice ? { type: 'price_below', value: threshold } : { type: 'price_above', value: threshold };
  for (const rule of [
    { name: 'threshold', condition },
    { name: 'any price change', condition: { type: 'field_changed', field: 'price' } },
  ]) {
    expect(
      (
        await stack.http
          .post(`/v1/key/projects/${tenant.projectId}/alert-rules`)
          .set(auth(tenant))
          .send({ ...rule, cooldownSeconds: 0 })
      ).status,
    ).toBe(201);
  }
  const search = await stack.createJob(tenant, { type: 'search', targets: [keyword] });
  await stack.waitForJob(search);
  await crawl(tenant, [], card.asin);
  await stack.waitForJob(await stack.createJob(tenant, { type: 'search', targets: [keyword] }));
  // tracking saw the card's price and the page's in turn; the rules saw only the page's
  const timeline = await stack.http
    .get(`/v1/key/projects/${tenant.projectId}/tracked-targets/${card.asin}/timeline?marketplace=US`)
    .set(auth(tenant));
  expect(timeline.body.data.some((e: { changes: { field: string }[] }) => e.changes.some((c) => c.field === 'price'))).toBe(true);
  expect(await alerts(tenant)).toEqual([]);
}, 60_000);

it('the webhook test endpoint sends a sample product.alert', async () => {
  const { tenant, receiver, secret } = await setup({ name: 'sample', condition: { type: 'out_of_stock' } });
  try {
    const configs = (await stack.http.get(`/v1/key/projects/${tenant.projectId}/webhooks`).set(auth(tenant))).body.data.configs;
    const res = await stack.http
      .post(`/v1/key/projects/${tenant.projectId}/webhooks/test`)
      .set(auth(tenant))
      .send({ webhookId: configs[0].id, triggerAction: 'product.alert' });
    expect(res.body.data.success).toBe(true);
    const [delivery] = await receiver.waitFor(1);
    expect(verify(secret, delivery!.body, delivery!.headers['x-service-signature']).ok).toBe(true);
    const body = webhookDeliverySchema.parse(JSON.parse(delivery!.body));
    expect(body).toMatchObject({ event: 'product.alert', test: true });
  } finally {
    await receiver.close();
  }
});
