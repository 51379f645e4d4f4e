import type { AlertCondition } from '@crawl/core';
import { AlertRuleRepository, createDb, type Db, ensureDatabase, migrateToLatest, sql } from '@crawl/db';
import { type JobProgressDeps, recordTargetOutcome } from '@crawl/jobs';
import { buildJob, createTenant, detailsItem, progressRepositories, type TestTenant } from '@crawl/testing';
import { table } from './processes';

const PRODUCTS = Number(process.env.BENCH_ALERTS_PRODUCTS ?? 10_000);
const RULES = 100;
/** Product-page observations per product over the last 30 days (the medians read them). */
const HISTORY = Number(process.env.BENCH_ALERTS_HISTORY ?? 30);
const SNAPSHOTS = Number(process.env.BENCH_ALERTS_SNAPSHOTS ?? 2_000);
const ROUNDS = 4;

const asinOf = (i: number) => `B0B${String(i).padStart(7, '0')}`;

/** PRODUCTS tracked products of a project, each with HISTORY details observations over 30 days. */
async function seedProducts(db: Db, tenant: TestTenant): Promise<void> {
  await sql`
    insert into tracked_target (project_id, marketplace, asin, postal_code, latest_snapshot, page_state)
    select ${tenant.projectId}, 'US', 'B0B' || lpad(g::text, 7, '0'), '', s, s
    from generate_series(0, ${PRODUCTS - 1}) g,
         lateral (select jsonb_build_object('price', 20 + g % 50, 'currency', 'USD', 'availability', 'in_stock', 'rating', 4.5,
                         'reviewsCount', 120, 'title', 'Product B0B' || lpad(g::text, 7, '0'), 'seller', 'Bench Store', 'listPrice', null,
                         'bestSellersRank', null, 'isPrime', false, 'mainImage', null, 'lowestNewPrice', null) s) x`.execute(db);
  await sql`
    insert into product_snapshot (project_id, marketplace, asin, postal_code, job_id, source, snapshot, changes, change_count, page_price, captured_at)
    select ${tenant.projectId}, 'US', 'B0B' || lpad(g::text, 7, '0'), '', 'job_bench00000000000', 'details', '{}', '[]', 0,
           20 + g % 50 + (h % 5), now() - make_interval(hours => h * 720 / ${HISTORY})
    from generate_series(0, ${PRODUCTS - 1}) g, generate_series(1, ${HISTORY}) h`.execute(db);
}

/** 100 rules of every kind: scoped to 1,000 products each, or to the marketplace, some with median baselines. */
async function seedRules(db: Db, tenant: TestTenant): Promise<void> {
  const rules = new AlertRuleRepository(db);
  const conditions: AlertCondition[] = [
    { type: 'price_below', value: 25 },
    { type: 'price_above', value: 60 },
    { type: 'price_drop_pct', value: 10, baseline: 'median_7d' },
    { type: 'price_rise_pct', value: 10, baseline: 'median_30d' },
    { type: 'price_drop_pct', value: 5, baseline: 'previous' },
    { type: 'back_in_stock' },
    { type: 'out_of_stock' },
    { type: 'seller_changed' },
    { type: 'rating_below', value: 4 },
    { type: 'field_changed', field: 'title' },
  ];
  for (let i = 0; i < RULES; i += 1) {
    const scoped = i % 2 === 0;
    const from = (i * 97) % (PRODUCTS - 1000);
    await rules.create(
      tenant,
      {
        name: `bench rule ${i}`,
        condition: conditions[i % conditions.length]!,
        asins: scoped ? Array.from({ length: 1000 }, (_, k) => asinOf(from + k)) : null,
        marketplace: scoped ? null : 'US',
        postalCode: null,
        cooldownSeconds: 0,
        maxPerDay: 1_000_000,
        enabled: true,
        notifyMembers: [],
      },
      RULES,
    );
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** `count` details outcomes of random tracked products, each in its own transaction as a worker records it; ms per snapshot. */
async function measure(db: Db, deps: JobProgressDeps, tenant: TestTenant, count: number): Promise<number[]> {
  const asins = Array.from({ length: count }, () => asinOf(Math.floor(Math.random() * PRODUCTS)));
  // one job of `count` targets: building jobs is not what is measured
  const job = await buildJob(db, { owner: tenant, targets: [...new Set(asins)] });
  const times: number[] = [];
  for (const [idx, asin] of job.targets.entries()) {
    // most crawls see the product as before; one in ten another price, one in twenty another stock state
    const base = 20 + (Number(asin.slice(3)) % 50);
    const price = Math.random() < 0.1 ? Math.round(base * (0.8 + Math.random() * 0.4) * 100) / 100 : base;
    const availability = Math.random() < 0.05 ? 'out_of_stock' : 'in_stock';
    const item = detailsItem(asin, {
      price: { amount: price, currency: 'USD' },
      availability: { status: availability, text: availability },
      seller: { name: Math.random() < 0.05 ? 'Other Store' : 'Bench Store', url: null, id: null } as never,
    });
    const t = process.hrtime.bigint();
    await recordTargetOutcome(deps, job.id, idx, asin, { kind: 'succeeded', items: [item], attempts: 1 });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times;
}

/**
 * `pnpm bench alerts` (docs/alerts.md): what alert rules add to recording a product-page
 * snapshot. Two projects with PRODUCTS tracked products each and HISTORY observations per
 * product over 30 days; one has 100 rules (half scoped to 1,000 ASINs, half to the marketplace;
 * thresholds, percentages against the previous price and both medians, stock, seller, rating,
 * field changes). The same number of details outcomes is recorded in each, in alternating
 * rounds, in one process: the baseline (no rules) is measured in the same run.
 */
export async function benchAlerts(): Promise<void> {
  const dbUrl = process.env.BENCH_ALERTS_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/crawl_bench_alerts_${process.pid}`;
  await ensureDatabase(dbUrl);
  const db = createDb({ url: dbUrl, poolSize: 4 });
  try {
    await migrateToLatest(db);
    const plain = await createTenant(db, { name: 'alerts bench without rules', credits: 100_000_000 });
    const ruled = await createTenant(db, { name: 'alerts bench with rules', credits: 100_000_000 });
    let t = Date.now();
    for (const tenant of [plain, ruled]) await seedProducts(db, tenant);
    await seedRules(db, ruled);
    await sql`analyze`.execute(db);
    console.log(
      `seeded in ${((Date.now() - t) / 1000).toFixed(1)} s: 2 projects x ${PRODUCTS} tracked products x ${HISTORY} observations; ${RULES} rules in one`,
    );
    const deps = progressRepositories(db);
    const without: number[] = [];
    const withRules: number[] = [];
    // warm-up, not counted
    await measure(db, deps, plain, 100);
    await measure(db, deps, ruled, 100);
    t = Date.now();
    for (let round = 0; round < ROUNDS; round += 1) {
      without.push(...(await measure(db, deps, plain, SNAPSHOTS / ROUNDS)));
      withRules.push(...(await measure(db, deps, ruled, SNAPSHOTS / ROUNDS)));
    }
    const [alerts] = (
      await sql<{ sent: number; suppressed: number }>`select count(*) filter (where status = 'sent')::int as sent,
        count(*) filter (where status = 'suppressed')::int as suppressed from alert`.execute(db)
    ).rows;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const row = (name: string, xs: number[]) => ({
      'snapshots recorded': name,
      n: xs.length,
      'mean ms': mean(xs).toFixed(2),
      'p50 ms': quantile(xs, 0.5).toFixed(2),
      'p95 ms': quantile(xs, 0.95).toFixed(2),
      'per s (1 connection)': (1000 / mean(xs)).toFixed(0),
    });
    console.log(
      `measured in ${((Date.now() - t) / 1000).toFixed(1)} s; the rules sent ${alerts!.sent} alerts (${(alerts!.sent / withRules.length).toFixed(2)} per snapshot)`,
    );
    console.log(table([row('without rules (baseline)', without), row(`with ${RULES} rules`, withRules)]));
    const extra = mean(withRules) - mean(without);
    console.log(
      `evaluation cost per snapshot: +${extra.toFixed(2)} ms (${((extra / mean(without)) * 100).toFixed(1)} % of recording a snapshot without rules)`,
    );
  } finally {
    await db.destroy();
    if (!process.env.BENCH_ALERTS_DATABASE_URL) {
      const admin = createDb({ url: dbUrl.replace(/\/[^/]+$/, '/postgres'), poolSize: 1 });
      await sql`drop database if exists ${sql.id(dbUrl.split('/').pop()!)} with (force)`.execute(admin).catch(() => undefined);
      await admin.destroy();
    }
  }
}
