import { type AlertCondition, productAlertDataSchema } from '@crawl/core';
import { AlertRuleRepository, type Db, sql } from '@crawl/db';
import {
  buildJob,
  buildProject,
  detailsItem,
  openTestStore,
  progressRepositories,
  searchItem,
  type TestStore,
  type TestTenant,
  uniqueAsin,
} from '@crawl/testing';
import { type JobProgressDeps, recordTargetOutcome } from './job-progress';

/**
 * Alert rules evaluated in the tracking transaction (docs/alerts.md), by direct calls of
 * recordTargetOutcome against a cloned database: transitions, re-arming, cooldowns, the daily
 * cap, the product-page-only rule, baselines and scope.
 */
let store: TestStore;
let db: Db;
let deps: JobProgressDeps;
let rules: AlertRuleRepository;

beforeAll(async () => {
  store = await openTestStore();
  ({ db } = store);
  deps = progressRepositories(db);
  rules = new AlertRuleRepository(db);
});
afterAll(() => store.close());

interface RuleOptions {
  asins?: string[] | null;
  marketplace?: 'US' | 'DE' | null;
  postalCode?: string | null;
  cooldownSeconds?: number;
  maxPerDay?: number;
}

async function rule(owner: TestTenant, condition: AlertCondition, o: RuleOptions = {}): Promise<string> {
  const row = await rules.create(
    owner,
    {
      name: `rule ${condition.type}`,
      condition,
      asins: o.asins === undefined ? null : o.asins,
      marketplace: o.marketplace ?? null,
      postalCode: o.postalCode ?? null,
      cooldownSeconds: o.cooldownSeconds ?? 3600,
      maxPerDay: o.maxPerDay ?? 20,
      enabled: true,
      notifyMembers: [],
    },
    100,
  );
  return row!.id;
}

type Item = ReturnType<typeof detailsItem> | ReturnType<typeof searchItem>;

/** One crawl of one product: a job of one target and its outcome. */
async function crawl(owner: TestTenant, asin: string, item: Item, type: 'details' | 'search' = 'details'): Promise<string> {
  const target = type === 'search' ? 'desk lamp' : asin;
  const job = await buildJob(db, { owner, type, targets: [target] });
  expect(await recordTargetOutcome(deps, job.id, 0, target, { kind: 'succeeded', items: [item], attempts: 1 })).not.toBe('discarded');
  return job.id;
}
const priced = (asin: string, price: number, overrides: Parameters<typeof detailsItem>[1] = {}) =>
  detailsItem(asin, { price: { amount: price, currency: 'USD' }, ...overrides });

const alertsOf = (projectId: string) =>
  db.selectFrom('alert').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
const alertEvents = (projectId: string) =>
  db
    .selectFrom('event')
    .select('data')
    .where('project_id', '=', projectId)
    .where('type', '=', 'product.alert')
    .orderBy('created_at')
    .execute();
/** Moves a rule's last alerts into the past, as if its cooldown had gone by. */
const ageAlerts = (ruleId: string, seconds: number) =>
  sql`update alert_rule_state set last_alert_at = last_alert_at - make_interval(secs => ${seconds}) where rule_id = ${ruleId}`.execute(db);

it('price_below fires once when the price falls under it, stays silent under it, re-arms above it and fires again after the cooldown', async () => {
  const owner = await buildProject(db);
  const asin = uniqueAsin();
  const ruleId = await rule(owner, { type: 'price_below', value: 25 });
  await crawl(owner, asin, priced(asin, 30)); // first snapshot: a baseline
  await crawl(owner, asin, priced(asin, 28));
  expect(await alertsOf(owner.projectId)).toHaveLength(0);
  const third = await crawl(owner, asin, priced(asin, 20));
  const [alert] = await alertsOf(owner.projectId);
  expect(alert).toMatchObject({ rule_id: ruleId, status: 'sent', asin, value: 20, previous: 28, baseline: null, job_id: third });
  const events = await alertEvents(owner.projectId);
  expect(events).toHaveLength(1);
  const data = productAlertDataSchema.parse(events[0]!.data);
  expect(data).toMatchObject({ alertId: alert!.id, ruleId, asin, marketplace: 'US', postalCode: null, value: 20, previous: 28 });
  expect(data.condition).toEqual({ type: 'price_below', value: 25 });
  expect(data.snapshot.price).toBe(20);

  await crawl(owner, asin, priced(asin, 19)); // still under: silent
  await crawl(owner, asin, priced(asin, 30)); // re-armed
  await crawl(owner, asin, priced(asin, 21)); // under again, within the cooldown: no alert
  expect(await alertsOf(owner.projectId)).toHaveLength(1);
  await crawl(owner, asin, priced(asin, 30));
  await ageAlerts(ruleId, 3601);
  await crawl(owner, asin, priced(asin, 22));
  const all = await alertsOf(owner.projectId);
  expect(all.map((a) => [a.status, a.value])).toEqual([
    ['sent', 20],
    ['sent', 22],
  ]);
  expect(await alertEvents(owner.projectId)).toHaveLength(2);
});

it('maxPerDay records the alerts past the cap as suppressed and sends no event for them', async () => {
  const owner = await buildProject(db);
  const asin = uniqueAsin();
  const ruleId = await rule(owner, { type: 'price_below', value: 25 }, { cooldownSeconds: 0, maxPerDay: 1 });
  for (const price of [30, 20, 30, 20, 30, 20]) await crawl(owner, asin, priced(asin, price));
  expect((await alertsOf(owner.projectId)).map((a) => a.status)).toEqual(['sent', 'suppressed', 'suppressed']);
  expect(await alertEvents(owner.projectId)).toHaveLength(1);
  const day = await db.selectFrom('alert_rule_day').select(['sent', 'suppressed']).where('rule_id', '=', ruleId).executeTakeFirstOrThrow();
  expect(day).toEqual({ sent: 1, suppressed: 2 });
});

it("a search card's price never fires a price rule, nor moves what product pages showed", async () => {
  const owner = await buildProject(db);
  const asin = uniqueAsin();
  await rule(owner, { type: 'price_below', value: 25 }, { cooldownSeconds: 0 });
  await rule(owner, { type: 'field_changed', field: 'price' }, { cooldownSeconds: 0 });
  await crawl(owner, asin, priced(asin, 30));
  await crawl(owner, asin, searchItem('desk lamp', 1, { asin, price: { amount: 9.99, currency: 'USD' } }), 'search');
  await crawl(owner, asin, priced(asin, 30)); // back from 9.99 to 30 as tracking sees it; unchanged for the rules
  await crawl(owner, asin, searchItem('desk lamp', 1, { asin, price: { amount: 12, currency: 'USD' } }), 'search');
  expect(await alertsOf(owner.projectId)).toHaveLength(0);
  const changes = await db.selectFrom('event').select('type').where('project_id', '=', owner.projectId).execute();
  expect(changes.filter((e) => e.type === 'product.changed').length).toBeGreaterThan(0); // tracking did see the cards
});

it('back_in_stock and out_of_stock fire on the availability transitions of the product page', async () => {
  const owner = await buildProject(db);
  const asin = uniqueAsin();
  await rule(owner, { type: 'back_in_stock' }, { cooldownSeconds: 0 });
  await rule(owner, { type: 'out_of_stock' }, { cooldownSeconds: 0 });
  const stock = (status: 'in_stock' | 'out_of_stock') => priced(asin, 30, { availability: { status, text: status } });
  await crawl(owner, asin, stock('in_stock'));
  await crawl(owner, asin, stock('out_of_stock'));
  await crawl(owner, asin, stock('out_of_stock'));
  await crawl(owner, asin, stock('in_stock'));
  const alerts = await alertsOf(owner.projectId);
  expect(alerts.map((a) => [a.condition.type, a.previous, a.value])).toEqual([
    ['out_of_stock', 'in_stock', 'out_of_stock'],
    ['back_in_stock', 'out_of_stock', 'in_stock'],
  ]);
});

it('seller_changed fires on each change of the buy box winner, not while it stays', async () => {
  const owner = await buildProject(db);
  const asin = uniqueAsin();
  await rule(owner, { type: 'seller_changed' }, { cooldownSeconds: 0 });
  for (const seller of ['Shop A', 'Shop B', 'Shop B', 'Shop C'])
    await crawl(owner, asin, priced(asin, 30, { seller: { name: seller } } as never));
  expect((await alertsOf(owner.projectId)).map((a) => [a.previous, a.value])).toEqual([
    ['Shop A', 'Shop B'],
    ['Shop B', 'Shop C'],
  ]);
});

it("price_drop_pct against median_7d compares with the median of the product's own page prices of the last 7 days", async () => {
  const owner = await buildProject(db);
  const asin = uniqueAsin();
  await rule(owner, { type: 'price_drop_pct', value: 10, baseline: 'median_7d' }, { cooldownSeconds: 0 });
  await crawl(owner, asin, priced(asin, 100));
  // older observations: 100, 100, 98 in the last week, 10 a month ago (outside the window), and a search card's 50 (not a page price)
  const history = [
    [100, 2],
    [100, 3],
    [98, 4],
    [10, 20],
  ] as const;
  for (const [price, daysAgo] of history) {
    await sql`insert into product_snapshot (project_id, marketplace, asin, postal_code, job_id, source, snapshot, changes, change_count, page_price, captured_at)
      values (${owner.projectId}, 'US', ${asin}, '', 'job_history000000000', 'details', '{}', '[]', 0, ${price}, now() - make_interval(days => ${daysAgo}))`.execute(
      db,
    );
  }
  await crawl(owner, asin, priced(asin, 91)); // 9 % under the median 100: no alert
  expect(await alertsOf(owner.projectId)).toHaveLength(0);
  await crawl(owner, asin, priced(asin, 95));
  await crawl(owner, asin, priced(asin, 89)); // 11 % under
  const [alert] = await alertsOf(owner.projectId);
  expect(alert).toMatchObject({ value: 89, previous: 95, baseline: 99 }); // the median of 100, 100, 98, 100, 91, 95
});

it('a rule fires only for the products, marketplace and location of its scope', async () => {
  const owner = await buildProject(db);
  const [a, b] = [uniqueAsin(), uniqueAsin()];
  await rule(owner, { type: 'price_below', value: 25 }, { asins: [a] });
  await rule(owner, { type: 'price_above', value: 25 }, { marketplace: 'DE' });
  await rule(owner, { type: 'price_above', value: 25 }, { marketplace: 'US', postalCode: '10001' });
  for (const asin of [a, b]) for (const price of [30, 20, 30]) await crawl(owner, asin, priced(asin, price));
  expect((await alertsOf(owner.projectId)).map((x) => [x.asin, x.condition.type])).toEqual([[a, 'price_below']]);
});

it('a disabled rule and a redelivered outcome send nothing', async () => {
  const owner = await buildProject(db);
  const asin = uniqueAsin();
  const ruleId = await rule(owner, { type: 'price_below', value: 25 });
  await crawl(owner, asin, priced(asin, 30));
  await rules.update(ruleId, owner.projectId, () => ({ enabled: false }), false);
  await crawl(owner, asin, priced(asin, 20));
  await rules.update(ruleId, owner.projectId, () => ({ enabled: true }), false);
  await crawl(owner, asin, priced(asin, 30));
  const job = await buildJob(db, { owner, targets: [asin] });
  const outcome = { kind: 'succeeded' as const, items: [priced(asin, 20)], attempts: 1 };
  expect(await recordTargetOutcome(deps, job.id, 0, asin, outcome)).not.toBe('discarded');
  expect(await recordTargetOutcome(deps, job.id, 0, asin, outcome)).toBe('discarded');
  expect(await alertsOf(owner.projectId)).toHaveLength(1);
  expect(await alertEvents(owner.projectId)).toHaveLength(1);
});
