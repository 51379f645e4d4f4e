import { PerformanceObserver } from 'node:perf_hooks';
import { inDocumentedOrder, newId, readStoredItem, type ResultItem } from '@crawl/core';
import { createDb, type Db, ensureDatabase, migrateToLatest, ResultRepository, sql } from '@crawl/db';
import { createTenant, detailsItem, searchItem } from '@crawl/testing';

/**
 * `pnpm bench stored-items`: what reading stored rows through readStoredItem costs an export.
 * 100,000 rows, parsed from JSON text once (as pg hands them over), then serialised the way the
 * json export does (inDocumentedOrder + JSON.stringify), without and with the reader; and the
 * reader alone on complete rows, on rows of the oldest shape, and against a naive reader that
 * spreads a full default item under every row. Garbage is counted as young-generation GCs
 * (scavenges) during each loop: a reader that does not allocate adds none.
 * Then through Postgres (its own database, BENCH_STORED_DATABASE_URL): a job of 100,000
 * complete rows and one of 100,000 rows of an old shape, each streamed from a cursor raw (as
 * the export did before) and through ResultRepository.stream (the reader), and serialised as
 * the json export does.
 */
const ROWS = 100_000;
const REPEAT = 5;

function richDetails(i: number): ResultItem {
  const asin = `B0${String(i).padStart(8, '0')}`;
  return detailsItem(asin, {
    images: Array.from({ length: 7 }, (_, k) => `https://m.media-amazon.com/images/I/${asin}-${k}._AC_SX679_.jpg`),
    features: Array.from({ length: 5 }, (_, k) => `Feature ${k} of a product with a reasonably long bullet point text`),
    description: 'A description of the product. '.repeat(15),
    categories: ['Electronics', 'Computers & Accessories', 'Monitors'],
    bestSellersRank: [
      { category: 'Electronics', rank: 1200 + i },
      { category: 'Monitors', rank: 12 },
    ],
    seller: { name: 'Acme Store', id: 'A1B2C3D4E5' },
    variants: Array.from({ length: 6 }, (_, k) => ({
      asin: `B0VAR${String(k).padStart(5, '0')}`,
      dimensions: { color: `c${k}`, size: 'L' },
    })),
    specifications: Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`Spec ${k}`, `Value ${k}`])),
  });
}

/** A details row as the first parser stored it: no availability, none of the later fields. */
function oldestDetails(i: number): Record<string, unknown> {
  const item = richDetails(i) as Record<string, unknown>;
  const later = ['availability', 'parentAsin', 'manufacturer', 'modelNumber', 'weight', 'dimensions', 'firstAvailable'];
  const later2 = [
    'ratingHistogram',
    'badges',
    'coupon',
    'boughtPastMonth',
    'shipsFrom',
    'soldBy',
    'fulfilledByAmazon',
    'newOffersCount',
    'isbn13',
  ];
  for (const key of [...later, ...later2]) delete item[key];
  return item;
}

const parsed = (make: (i: number) => unknown) =>
  Array.from({ length: ROWS }, (_, i) => JSON.parse(JSON.stringify(make(i))) as Record<string, unknown>);

let scavenges = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as unknown as { detail?: { kind?: number } }).detail?.kind === 1) scavenges += 1;
}).observe({ entryTypes: ['gc'] });

interface Variant {
  label: string;
  rows: Record<string, unknown>[];
  work: (row: Record<string, unknown>) => unknown;
  best: number;
  gcs: number;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50)); // the observer reports GCs asynchronously

/**
 * Each variant once per round, REPEAT rounds (so that load from other processes hits all of them
 * alike); per variant the fastest round, and the scavenges during it.
 */
async function compare(variants: Variant[]): Promise<void> {
  for (let r = 0; r < REPEAT; r++) {
    for (const v of variants) {
      await settle();
      const before = scavenges;
      let sink = 0;
      const start = process.hrtime.bigint();
      for (const row of v.rows) if (v.work(row) !== undefined) sink += 1;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      await settle();
      if (sink !== v.rows.length) throw new Error(`${v.label}: nothing read`);
      if (ms < v.best) {
        v.best = ms;
        v.gcs = scavenges - before;
      }
    }
  }
  for (const v of variants)
    console.log(
      `${v.label.padEnd(58)} ${v.best.toFixed(1).padStart(7)} ms  ${((v.best * 1e6) / v.rows.length).toFixed(0).padStart(6)} ns/row  ${String(v.gcs).padStart(4)} scavenges`,
    );
}

const variant = (label: string, rows: Record<string, unknown>[], work: Variant['work']): Variant => ({
  label,
  rows,
  work,
  best: Infinity,
  gcs: 0,
});

export async function benchStoredItems(): Promise<void> {
  const complete = parsed(richDetails);
  const oldest = parsed(oldestDetails);
  const cards = parsed((i) => searchItem('usb c hub', i + 1, { asin: `B0${String(i).padStart(8, '0')}` }));
  const asIs = complete.filter((row) => readStoredItem('details', row) === row).length;
  console.log(`${ROWS} rows per loop, best of ${REPEAT}; complete details rows returned as they are (no allocation): ${asIs} of ${ROWS}\n`);

  const fullDefault = readStoredItem('details', {}) as Record<string, unknown>;
  await compare([
    variant('reader alone, complete details rows', complete, (row) => readStoredItem('details', row)),
    variant('reader alone, complete search cards', cards, (row) => readStoredItem('search', row)),
    variant('reader alone, oldest details rows (rebuilt)', oldest, (row) => readStoredItem('details', row)),
    variant('naive reader {...defaults, ...row}, complete details rows', complete, (row) => ({ ...fullDefault, ...row })),
  ]);
  console.log('');
  await compare([
    variant('json export row, without reader (before)', complete, (row) => JSON.stringify(inDocumentedOrder('details', row))),
    variant('json export row, with reader (after), complete rows', complete, (row) =>
      JSON.stringify(inDocumentedOrder('details', readStoredItem('details', row))),
    ),
    variant('json export row, with reader (after), oldest rows', oldest, (row) =>
      JSON.stringify(inDocumentedOrder('details', readStoredItem('details', row))),
    ),
  ]);
  await benchStoredItemsThroughPostgres();
}

/** A completed details job of ROWS rows, all like `item` but for asin and title. */
async function seedJob(db: Db, item: object): Promise<string> {
  const tenant = await createTenant(db, { name: 'stored items bench', credits: 0 });
  const id = newId('job');
  await sql`
    insert into job (id, project_id, organization_id, type, status, marketplace, targets, target_count, succeeded, results_count,
                     credits_reserved, credits_consumed, started_at, finished_at)
    values (${id}, ${tenant.projectId}, ${tenant.organizationId}, 'details', 'completed', 'US', '["B0BENCH000"]'::jsonb, 1, 1, ${ROWS},
            2, 2, now(), now())`.execute(db);
  await sql`
    insert into result_item (job_id, target_idx, position, data)
    select ${id}, 0, g, ${JSON.stringify(item)}::jsonb || jsonb_build_object('asin', 'B0' || lpad(g::text, 8, '0'), 'title', 'Item ' || g)
    from generate_series(1, ${ROWS}) g`.execute(db);
  await sql`analyze result_item`.execute(db);
  return id;
}

/** ms of streaming a job's rows and serialising each as the json export does. */
async function timeStream(rows: AsyncIterable<{ data: unknown }>): Promise<number> {
  const start = process.hrtime.bigint();
  let bytes = 0;
  for await (const row of rows) bytes += JSON.stringify(inDocumentedOrder('details', row.data as object)).length;
  if (bytes === 0) throw new Error('no rows');
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchStoredItemsThroughPostgres(): Promise<void> {
  const url = process.env.BENCH_STORED_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crawl_bench_stored_items';
  await ensureDatabase(url);
  const db = createDb({ url, poolSize: 2 });
  try {
    await migrateToLatest(db);
    await sql`truncate result_item`.execute(db);
    const jobs = { complete: await seedJob(db, richDetails(0)), oldest: await seedJob(db, oldestDetails(0)) };
    const results = new ResultRepository(db);
    const raw = (id: string) =>
      db
        .selectFrom('result_item')
        .select(['target_idx as targetIdx', 'position', 'data'])
        .where('job_id', '=', id)
        .orderBy('target_idx')
        .orderBy('position')
        .stream(500);
    console.log(
      `\nthrough Postgres: ${ROWS} rows streamed from a cursor and serialised as the json export does (median of ${REPEAT}, alternating)`,
    );
    for (const [shape, id] of Object.entries(jobs)) {
      await timeStream(raw(id)); // warm
      const times = { before: [] as number[], after: [] as number[] };
      for (let run = 0; run < REPEAT; run++) {
        times.before.push(await timeStream(raw(id)));
        times.after.push(await timeStream(results.stream({ id, type: 'details' })));
      }
      const [before, after] = [median(times.before), median(times.after)];
      console.log(
        `${`${shape} rows`.padEnd(14)} raw (before) ${before.toFixed(0).padStart(6)} ms   read (after) ${after.toFixed(0).padStart(6)} ms   ${(((after - before) / before) * 100).toFixed(1)} %`,
      );
    }
  } finally {
    await db.destroy();
  }
}
