import { type Db, sql } from '@crawl/db';

const n = (v: unknown) => Number(v ?? 0);

/**
 * Project analytics over a creation-time range (spec 4.2). Jobs count on the UTC day they were
 * created (a job running over midnight is not counted twice); a retry is its own job with
 * source `retry`. Every query is one indexed scan of the project's range.
 *
 * One definition of "targets" everywhere (`targets.crawled` and `daily[].targets`): a target
 * counts once it was crawled to an outcome, i.e. the job's `succeeded + failed` counters. Targets
 * a cancel stopped before they were crawled, and targets still pending, are not counted (they
 * cost nothing: their credits are in `credits.refunded` or still reserved). So the daily series
 * always sums to the totals; `target_count` (targets requested) is deliberately not used.
 */
export class AnalyticsService {
  constructor(private readonly db: Db) {}

  async forProject(projectId: string, from: Date, to: Date) {
    const [jobs, failures, changes, deliveries, daily] = await Promise.all([
      sql<Record<string, unknown>>`
        select count(*) as total,
          count(*) filter (where status = 'queued') as queued, count(*) filter (where status = 'running') as running,
          count(*) filter (where status = 'completed') as completed, count(*) filter (where status = 'failed') as failed_jobs,
          count(*) filter (where status = 'cancelled') as cancelled,
          count(*) filter (where type = 'search') as search, count(*) filter (where type = 'details') as details,
          count(*) filter (where retry_of is not null) as retry,
          count(*) filter (where retry_of is null and schedule_id is not null) as schedule,
          count(*) filter (where retry_of is null and schedule_id is null) as api,
          coalesce(sum(succeeded), 0) as succeeded, coalesce(sum(failed), 0) as failed,
          coalesce(sum(credits_reserved), 0) as reserved, coalesce(sum(credits_consumed), 0) as consumed,
          coalesce(sum(credits_refunded), 0) as refunded, coalesce(sum(results_count), 0) as results,
          percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) filter (where finished_at is not null and started_at is not null) as p50,
          percentile_cont(0.95) within group (order by extract(epoch from finished_at - started_at)) filter (where finished_at is not null and started_at is not null) as p95
        from job where project_id = ${projectId} and created_at >= ${from} and created_at <= ${to}`.execute(this.db),
      // Per-target failures are on the job row (`errors`): no scan of job_target.
      sql<{ code: string; count: number }>`
        select e->>'code' as code, count(*) as count
        from job j, jsonb_array_elements(j.errors) e
        where j.project_id = ${projectId} and j.created_at >= ${from} and j.created_at <= ${to}
        group by 1 order by count desc`.execute(this.db),
      sql<{ changes: number }>`
        select coalesce(sum(change_count), 0) as changes from product_snapshot
        where project_id = ${projectId} and captured_at >= ${from} and captured_at <= ${to}`.execute(this.db),
      sql<{ status: string; count: number }>`
        select status, count(*) as count from webhook_delivery
        where project_id = ${projectId} and created_at >= ${from} and created_at <= ${to} group by status`.execute(this.db),
      sql<{ day: string; jobs: number; targets: number; reserved: number; consumed: number; refunded: number }>`
        with per_day as (
          select (created_at at time zone 'UTC')::date as day, count(*) as jobs, sum(succeeded + failed) as targets,
                 sum(credits_reserved) as reserved, sum(credits_consumed) as consumed, sum(credits_refunded) as refunded
          from job where project_id = ${projectId} and created_at >= ${from} and created_at <= ${to}
          group by 1
        )
        select to_char(d, 'YYYY-MM-DD') as day, coalesce(p.jobs, 0) as jobs, coalesce(p.targets, 0) as targets,
               coalesce(p.reserved, 0) as reserved, coalesce(p.consumed, 0) as consumed, coalesce(p.refunded, 0) as refunded
        from generate_series((${from}::timestamptz at time zone 'UTC')::date, (${to}::timestamptz at time zone 'UTC')::date, interval '1 day') d
        left join per_day p on p.day = d::date
        order by d`.execute(this.db),
    ]);
    const j = jobs.rows[0]!;
    const crawled = n(j.succeeded) + n(j.failed);
    const byStatus = (status: string) => deliveries.rows.find((r) => r.status === status)?.count ?? 0;
    return {
      range: { from: from.toISOString(), to: to.toISOString() },
      jobs: {
        total: n(j.total),
        byStatus: { queued: n(j.queued), running: n(j.running), completed: n(j.completed), failed: n(j.failed_jobs), cancelled: n(j.cancelled) },
        byType: { search: n(j.search), details: n(j.details) },
        bySource: { api: n(j.api), schedule: n(j.schedule), retry: n(j.retry) },
      },
      targets: { crawled, succeeded: n(j.succeeded), failed: n(j.failed), successRate: crawled ? n(j.succeeded) / crawled : null },
      failuresByCode: Object.fromEntries(failures.rows.map((r) => [r.code ?? 'UNKNOWN', n(r.count)])),
      credits: { reserved: n(j.reserved), consumed: n(j.consumed), refunded: n(j.refunded) },
      results: n(j.results),
      jobDurationSeconds: { p50: j.p50 === null ? null : n(j.p50), p95: j.p95 === null ? null : n(j.p95) },
      changesDetected: n(changes.rows[0]?.changes),
      webhookDeliveries: { succeeded: n(byStatus('delivered')), failed: n(byStatus('failed')), pending: n(byStatus('pending')) },
      daily: daily.rows.map((d) => ({
        date: d.day,
        jobs: n(d.jobs),
        targets: n(d.targets),
        credits: { reserved: n(d.reserved), consumed: n(d.consumed), refunded: n(d.refunded) },
      })),
    };
  }
}
