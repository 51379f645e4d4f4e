import { createDb, ensureDatabase, migrateToLatest, sql } from '@crawl/db';
import { createTenant, freePort, ServiceProcess, waitForHttp } from '@crawl/testing';
import { table } from './processes';

const PROJECTS = 50;
const JOBS = Number(process.env.BENCH_JOBS ?? 200_000);
const ROWS = Number(process.env.BENCH_ROWS ?? 2_000_000);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeIt(fn: () => Promise<unknown>, runs = 15): Promise<number> {
  await fn(); // warm
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(times);
}

/**
 * `pnpm bench analytics`: 200,000 jobs and 2,000,000 result rows over 50 projects (seeded
 * once into its own database): analytics of one project over 30 days and a 1,000-snapshot
 * timeline through the gateway, each against a plain indexed count over the same range.
 */
export async function benchAnalytics(): Promise<void> {
  const dbUrl = process.env.BENCH_ANALYTICS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crawl_bench_analytics';
  await ensureDatabase(dbUrl);
  const db = createDb({ url: dbUrl, poolSize: 4 });
  await migrateToLatest(db);
  const { rows: seeded } = await sql<{ n: number }>`select count(*)::int as n from job`.execute(db);
  if (seeded[0]!.n < JOBS) {
    console.log(`seeding ${JOBS} jobs, ${ROWS} result rows, 1,000 snapshots (once) ...`);
    const tenants = [];
    for (let p = 0; p < PROJECTS; p++) tenants.push(await createTenant(db, { name: `analytics ${p}`, credits: 0 }));
    await sql`create temporary table bench_project as select * from unnest(${tenants.map((t) => t.projectId)}::text[], ${tenants.map((t) => t.organizationId)}::text[]) with ordinality as p(project_id, organization_id, n)`.execute(
      db,
    );
    await sql`
      insert into job (id, project_id, organization_id, type, status, marketplace, targets, target_count, succeeded, failed,
                       results_count, credits_reserved, credits_consumed, credits_refunded, created_at, started_at, finished_at, retry_of, schedule_id, errors)
      select 'job_b' || lpad(g::text, 15, '0'), p.project_id, p.organization_id,
             case when g % 3 = 0 then 'search' else 'details' end,
             (array['completed','completed','completed','failed','cancelled'])[1 + g % 5], 'US', '["x"]'::jsonb, 10, 8, 2, 10, 20, 16, 4,
             now() - make_interval(mins => (g % 129600)), now() - make_interval(mins => (g % 129600)),
             now() - make_interval(mins => (g % 129600)) + make_interval(secs => 30 + g % 90),
             case when g % 11 = 0 then 'job_x' end, case when g % 7 = 0 then 'sch_x' end,
             '[{"target":"t","code":"BLOCKED","message":"robot check"},{"target":"t","code":"NOT_FOUND","message":"404"}]'::jsonb
      from generate_series(1, ${JOBS}) g join bench_project p on p.n = 1 + g % ${PROJECTS}`.execute(db);
    await sql`
      insert into job_target (job_id, idx, target, status, error_code)
      select 'job_b' || lpad(g::text, 15, '0'), i, 't', case when i < 8 then 'succeeded' else 'failed' end, case when i >= 8 then 'BLOCKED' end
      from generate_series(1, ${JOBS}) g, generate_series(0, 9) i`.execute(db);
    await sql`
      insert into result_item (job_id, target_idx, position, data)
      select 'job_b' || lpad((1 + g % ${JOBS})::text, 15, '0'), g / ${JOBS}, 1, '{"asin":"B0DR8G428S","title":"x","price":{"amount":9.99,"currency":"USD"}}'::jsonb
      from generate_series(0, ${ROWS - 1}) g`.execute(db);
    await sql`
      insert into tracked_target (project_id, marketplace, asin, latest_snapshot, change_count)
      select project_id, 'US', 'B0DR8G428S', '{}'::jsonb, 500 from bench_project where n = 1`.execute(db);
    await sql`
      insert into product_snapshot (project_id, marketplace, asin, job_id, source, snapshot, changes, change_count, captured_at)
      select p.project_id, 'US', 'B0DR8G428S', 'job_x', 'details', '{"price":9.99}'::jsonb, '[{"field":"price","from":9.99,"to":8.99}]'::jsonb, 1, now() - make_interval(hours => g)
      from generate_series(1, 1000) g join bench_project p on p.n = 1`.execute(db);
    await sql`analyze`.execute(db);
  }
  const project = await db
    .selectFrom('project')
    .select(['id', 'organization_id'])
    .where('name', '=', 'analytics 0')
    .executeTakeFirstOrThrow();
  const key = await (await import('@crawl/testing')).createKey(db, project.id);
  const port = await freePort();
  const gateway = ServiceProcess.start('gateway', 'services/gateway/dist/main.js', {
    DATABASE_URL: dbUrl,
    PORT: String(port),
    RATE_LIMIT_ENABLED: 'false',
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    const headers = { Authorization: `Bearer ${key.apiKey}` };
    const from = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    const to = new Date();
    const api = (path: string) =>
      fetch(`http://127.0.0.1:${port}/v1/key/projects/${project.id}${path}`, { headers }).then(async (r) => {
        if (!r.ok) throw new Error(`${path}: ${r.status}`);
        return r.json();
      });
    const count = await timeIt(() =>
      sql`select count(*) from job where project_id = ${project.id} and created_at >= ${from} and created_at <= ${to}`.execute(db),
    );
    const rssBefore = gateway.rss();
    const analytics = await timeIt(() => api(`/analytics?from=${from.toISOString()}&to=${to.toISOString()}`));
    const timeline = await timeIt(() => api('/tracked-targets/B0DR8G428S/timeline?marketplace=US&limit=1000'));
    const rssAfter = gateway.rss();
    const jobsInRange = (
      await sql<{ n: number }>`select count(*)::int as n from job where project_id = ${project.id} and created_at >= ${from}`.execute(db)
    ).rows[0]!.n;
    console.log(
      `\nanalytics benchmark: ${JOBS} jobs, ${ROWS} result rows, ${PROJECTS} projects; one project: ${jobsInRange} jobs in 30 days\n`,
    );
    console.log(
      table([
        { query: 'plain indexed count(*) of the range (direct SQL)', 'median ms': count.toFixed(1), 'x count': '1.0' },
        {
          query: 'GET analytics, 30 days (HTTP + all figures)',
          'median ms': analytics.toFixed(1),
          'x count': (analytics / count).toFixed(1),
        },
        { query: 'GET timeline, 1,000 snapshots (HTTP)', 'median ms': timeline.toFixed(1), 'x count': (timeline / count).toFixed(1) },
      ]),
    );
    console.log(
      `\ngateway RSS: ${(rssBefore / 1048576).toFixed(0)} MB before, ${(rssAfter / 1048576).toFixed(0)} MB after 32 analytics + timeline calls`,
    );
    console.log(
      `target: analytics <= 5x the count query: ${analytics / count <= 5 ? 'met' : 'MISSED'} (${(analytics / count).toFixed(1)}x)`,
    );
  } finally {
    await gateway.stop();
    await db.destroy();
  }
}
