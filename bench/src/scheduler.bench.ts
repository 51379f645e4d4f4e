import fs from 'node:fs';
import { sql } from '@crawl/db';
import { createTenant, ServiceProcess } from '@crawl/testing';
import { deleteRedisPrefix, table, openBenchStore } from './processes';

/** utime + stime of a process in seconds, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};

/**
 * `pnpm bench scheduler`: 10,000 enabled schedules firing every minute, spread over the
 * seconds of the minute, on one scheduler process: fire lag (job creation minus fire time),
 * missed and duplicate fires, and the scheduler's CPU share.
 */
export async function benchScheduler(): Promise<void> {
  const N = Number(process.env.BENCH_SCHEDULES ?? 10_000);
  const seconds = Number(process.env.BENCH_SCHEDULER_SECONDS ?? 75);
  const { dbUrl, redisUrl, prefix, db } = await openBenchStore();
  const tenant = await createTenant(db, { name: 'bench scheduler', credits: 100_000_000 });
  const config = JSON.stringify({ type: 'details', targets: ['B0DR8G428S'], marketplace: 'US', lang: null });
  // Every schedule fires once a minute, at second i % 60; the first fire is in the next minute.
  const start = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000);
  await sql`
    insert into schedule (id, project_id, organization_id, cron, crawl_config, enabled, next_run_at)
    select 'sch_bench' || lpad(g::text, 11, '0'), ${tenant.projectId}, ${tenant.organizationId}, (g % 60)::text || ' * * * * *',
           ${config}::jsonb, true, ${start}::timestamptz + make_interval(secs => g % 60)
    from generate_series(0, ${N - 1}) g`.execute(db);
  const scheduler = ServiceProcess.start('scheduler', 'services/scheduler/dist/main.js', {
    DATABASE_URL: dbUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    RECONCILE_INTERVAL_MS: '600000',
  });
  try {
    console.log(`waiting for ${start.toISOString()}, then measuring ${seconds} s ...`);
    await new Promise((r) => setTimeout(r, start.getTime() - Date.now()));
    const cpu0 = cpuSeconds(scheduler.pid!);
    const wall0 = Date.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const cpu = cpuSeconds(scheduler.pid!) - cpu0;
    const wall = (Date.now() - wall0) / 1000;
    const end = new Date(start.getTime() + (seconds - 2) * 1000);
    const runs = await sql<{ schedule_id: string; fire_time: Date; lag_ms: number }>`
      select r.schedule_id, r.fire_time, extract(epoch from (r.created_at - r.fire_time)) * 1000 as lag_ms
      from schedule_run r join schedule s on s.id = r.schedule_id
      where s.project_id = ${tenant.projectId} and r.fire_time >= ${start} and r.fire_time < ${end}`.execute(db);
    // Expected fires: each schedule's second-of-minute, every minute in [start, end).
    let expected = 0;
    for (let t = start.getTime(); t < end.getTime(); t += 1000) expected += Math.floor(N / 60) + ((t / 1000) % 60 < N % 60 ? 1 : 0);
    const lags = runs.rows.map((r) => Number(r.lag_ms));
    const keys = new Set(runs.rows.map((r) => `${r.schedule_id}@${r.fire_time.toISOString()}`));
    console.log(`\nscheduler benchmark: ${N} schedules firing every minute, one scheduler process, ${wall.toFixed(0)} s measured\n`);
    console.log(
      table([
        {
          'fires expected': expected,
          'fires recorded': runs.rows.length,
          missed: Math.max(0, expected - keys.size),
          duplicates: runs.rows.length - keys.size,
          'lag p50 ms': quantile(lags, 0.5).toFixed(0),
          'lag p99 ms': quantile(lags, 0.99).toFixed(0),
          'lag max ms': Math.max(...lags).toFixed(0),
          'scheduler CPU': `${((cpu / wall) * 100).toFixed(1)} % of one core`,
        },
      ]),
    );
    const ok = quantile(lags, 0.99) < 1000 && expected === keys.size && runs.rows.length === keys.size;
    console.log(`\ntarget: p99 lag < 1 s, no missed or duplicate fire: ${ok ? 'met' : 'MISSED'}`);
  } finally {
    await scheduler.stop();
    await sql`delete from schedule where project_id = ${tenant.projectId}`.execute(db);
    await sql`delete from job where project_id = ${tenant.projectId}`.execute(db);
    await deleteRedisPrefix(redisUrl, prefix);
    await db.destroy();
  }
}
