import { newId } from '@crawl/core';
import { createDb, type Db, ensureDatabase, migrateToLatest, sql } from '@crawl/db';
import { createTenant, freePort, ServiceProcess, type TestTenant, waitForHttp } from '@crawl/testing';
import { deleteRedisPrefix, table } from './processes';

const ROWS = Number(process.env.BENCH_RETENTION_ROWS ?? 1_000_000);
const ROWS_PER_JOB = 1_000;
/** Sequential clients: few enough not to saturate the gateway by themselves, so latency shows waiting, not queueing. */
const CLIENTS = Number(process.env.BENCH_RETENTION_CLIENTS ?? 2);
const BASELINE_MS = 5_000;
const TARGET_MS = 100;

const quantile = (xs: number[], q: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]! : 0;

/** Finished jobs of `tenant` (finished `daysAgo` days ago), each with ROWS_PER_JOB result rows, 100 jobs per statement. */
async function seedJobs(db: Db, tenant: TestTenant, jobs: number, daysAgo: number): Promise<string[]> {
  const all = Array.from({ length: jobs }, () => newId('job'));
  for (let i = 0; i < all.length; i += 100) await seedChunk(db, tenant, all.slice(i, i + 100), daysAgo);
  return all;
}

async function seedChunk(db: Db, tenant: TestTenant, ids: string[], daysAgo: number): Promise<void> {
  await sql`
    insert into job (id, project_id, organization_id, type, status, marketplace, targets, target_count, succeeded, results_count,
                     credits_reserved, credits_consumed, created_at, started_at, finished_at)
    select id, ${tenant.projectId}, ${tenant.organizationId}, 'search', 'completed', 'US', '["bench keyword"]'::jsonb, 1, 1, ${ROWS_PER_JOB},
           5, 5, now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo})
    from unnest(${ids}::text[]) as id`.execute(db);
  await sql`
    insert into result_item (job_id, target_idx, position, data)
    select j.id, 0, g, jsonb_build_object('keyword', 'bench keyword', 'position', g, 'asin', 'B0' || lpad(g::text, 8, '0'),
           'title', 'Bench product ' || g, 'price', jsonb_build_object('amount', g % 100 + 0.99, 'currency', 'USD'), 'sponsored', false)
    from unnest(${ids}::text[]) as j(id), generate_series(1, ${ROWS_PER_JOB}) g`.execute(db);
}

interface Sample {
  ms: number;
  during: boolean;
}

/**
 * `pnpm bench retention` (per-plan retention): 1,000,000 expired result rows (1,000 jobs of a
 * starter project finished 40 days ago) purged by a real scheduler process, while CLIENTS
 * clients hammer GET job / GET results of another project and of the same project (a recent
 * job, and a job being purged) through a real gateway. Reports request latency before and
 * during the purge, the longest lock wait of an API query seen in pg_stat_activity (sampled
 * every 10 ms), and the purge duration.
 */
export async function benchRetention(): Promise<void> {
  // A database of its own: the scheduler started here would otherwise fire other benches' schedules.
  const dbUrl = process.env.BENCH_RETENTION_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crawl_bench_retention';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-retention-${process.pid}`;
  await ensureDatabase(dbUrl);
  const db = createDb({ url: dbUrl, poolSize: 4 });
  await migrateToLatest(db);
  const purged = await createTenant(db, { name: 'retention purged', plan: 'starter', credits: 0 });
  const other = await createTenant(db, { name: 'retention other', plan: 'starter', credits: 0 });
  let t = Date.now();
  const expired = await seedJobs(db, purged, ROWS / ROWS_PER_JOB, 40);
  const [recentSame] = await seedJobs(db, purged, 1, 0);
  const [recentOther] = await seedJobs(db, other, 1, 0);
  await sql`analyze job`.execute(db);
  await sql`analyze result_item`.execute(db);
  const seedSeconds = (Date.now() - t) / 1000;

  const port = await freePort();
  const gateway = ServiceProcess.start('gateway', 'services/gateway/dist/main.js', {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    PORT: String(port),
    RATE_LIMIT_ENABLED: 'false',
  });
  let scheduler: ServiceProcess | undefined;
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    const paths: [string, TestTenant][] = [
      [`/v1/key/jobs/${recentOther}/results?limit=20`, other],
      [`/v1/key/jobs/${recentOther}`, other],
      [`/v1/key/jobs/${recentSame}/results?limit=20&offset=500`, purged],
      [`/v1/key/jobs/${recentSame}`, purged],
      [`/v1/key/jobs/${expired[expired.length - 1]}/results?limit=20`, purged],
      [`/v1/key/jobs/${expired[0]}`, purged],
    ];
    const samples: Sample[] = [];
    const statuses = new Map<number, number>();
    let during = false;
    let stop = false;
    const client = async (n: number) => {
      for (let i = n; !stop; i++) {
        const [path, tenant] = paths[i % paths.length]!;
        const start = performance.now();
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { Authorization: `Bearer ${tenant.apiKey}` } });
        await res.arrayBuffer();
        samples.push({ ms: performance.now() - start, during });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    // API queries waiting on a lock, as Postgres sees them (the purge's own statements excluded).
    let maxLockWaitMs = 0;
    const lockWatch = async () => {
      while (!stop) {
        const { rows } = await sql<{ ms: number | null }>`
          select max(extract(epoch from now() - query_start) * 1000)::float8 as ms from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query ilike 'select%'`.execute(db);
        maxLockWaitMs = Math.max(maxLockWaitMs, rows[0]?.ms ?? 0);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    const watcher = lockWatch();
    await new Promise((r) => setTimeout(r, BASELINE_MS));

    during = true;
    t = Date.now();
    scheduler = ServiceProcess.start('scheduler', 'services/scheduler/dist/main.js', {
      DATABASE_URL: dbUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      RETENTION_INTERVAL_MS: '3600000',
      RECONCILE_INTERVAL_MS: '60000',
    });
    const remaining = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from job where project_id = ${purged.projectId} and (results_purged_at is null or results_purge_pending) and finished_at < now() - interval '30 days'`.execute(
          db,
        )
      ).rows[0]!.n;
    while ((await remaining()) > 0) await new Promise((r) => setTimeout(r, 100));
    const purgeSeconds = (Date.now() - t) / 1000;
    during = false;
    stop = true;
    await Promise.all([...clients, watcher]);

    const left = (await sql<{ n: number }>`select count(*)::int as n from result_item where job_id = any(${expired}::text[])`.execute(db))
      .rows[0]!.n;
    const kept = (
      await sql<{ n: number }>`select count(*)::int as n from result_item where job_id in (${recentSame}, ${recentOther})`.execute(db)
    ).rows[0]!.n;
    const before = samples.filter((s) => !s.during).map((s) => s.ms);
    const inPurge = samples.filter((s) => s.during).map((s) => s.ms);
    const row = (phase: string, xs: number[]) => ({
      phase,
      requests: xs.length,
      'p50 ms': quantile(xs, 0.5).toFixed(1),
      'p99 ms': quantile(xs, 0.99).toFixed(1),
      'max ms': Math.max(0, ...xs).toFixed(1),
    });
    console.log(
      `\nretention benchmark: ${ROWS.toLocaleString('en')} expired result rows (${expired.length} jobs, starter, 40 days old) seeded in ${seedSeconds.toFixed(1)} s;`,
    );
    console.log(`${CLIENTS} clients on GET job / results of the same project and of another project\n`);
    console.log(table([row(`before the purge (${BASELINE_MS / 1000} s)`, before), row('during the purge', inPurge)]));
    console.log(
      `\npurge: ${purgeSeconds.toFixed(1)} s for ${expired.length} jobs (${(ROWS / purgeSeconds).toFixed(0)} rows/s, batches of 5,000); rows left ${left}, recent rows kept ${kept}`,
    );
    console.log(`responses: ${[...statuses].map(([s, n]) => `${s} x${n}`).join(', ')}`);
    console.log(`longest lock wait of an API query seen: ${maxLockWaitMs.toFixed(1)} ms`);
    console.log(
      `target: no API request waits ${TARGET_MS} ms or more on a lock: ${maxLockWaitMs < TARGET_MS ? 'met' : 'MISSED'} (${maxLockWaitMs.toFixed(1)} ms)`,
    );
    console.log(
      `target: max API request latency during the purge under ${TARGET_MS} ms: ${Math.max(0, ...inPurge) < TARGET_MS ? 'met' : 'MISSED'} (${Math.max(0, ...inPurge).toFixed(1)} ms, p99 ${quantile(inPurge, 0.99).toFixed(1)} ms)`,
    );
  } finally {
    await scheduler?.stop();
    await gateway.stop();
    await deleteRedisPrefix(redisUrl, prefix);
    await db.destroy();
  }
}
