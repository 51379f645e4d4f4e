import { sql } from 'kysely';
import type { Db } from '../connection';

/** A project's jobs created in a range, counted and summed (counts are numbers, not pg bigint strings). */
export interface JobRangeTotals {
  total: number;
  queued: number;
  running: number;
  completed: number;
  /** Jobs whose status is `failed` (not to be confused with `failed`, the failed-target counter). */
  failedJobs: number;
  cancelled: number;
  fromApi: number;
  fromSchedule: number;
  fromRetry: number;
  /** Sums of the jobs' target counters. */
  succeeded: number;
  failed: number;
  creditsReserved: number;
  creditsConsumed: number;
  creditsRefunded: number;
  results: number;
  /** Run time (finished_at − started_at) percentiles in seconds; null when no job in range finished. */
  p50Seconds: number | null;
  p95Seconds: number | null;
}

export interface FailureCodeCount {
  /** The error's `code`; null when an error entry has none. */
  code: string | null;
  count: number;
}

export interface DeliveryStatusCount {
  status: string;
  count: number;
}

/** One UTC day of the range; days without jobs are present with zeros. */
export interface DailyJobTotals {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  jobs: number;
  /** Targets crawled to an outcome (`succeeded + failed`). */
  targets: number;
  creditsReserved: number;
  creditsConsumed: number;
  creditsRefunded: number;
}

const num = (v: unknown): number => Number(v ?? 0);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * Read-only aggregates over a project's creation-time range (GET …/analytics). Every query is one
 * indexed scan of the project's range (`project_id`, then `created_at`/`captured_at`); both
 * bounds are inclusive.
 */
export class AnalyticsRepository {
  constructor(private readonly db: Db) {}

  /** Jobs created in the range per job type; a type without jobs is absent. */
  async jobCountsByType(projectId: string, from: Date, to: Date): Promise<Map<string, number>> {
    const { rows } = await sql<{ type: string; count: unknown }>`
      select type, count(*) as count from job
      where project_id = ${projectId} and created_at >= ${from} and created_at <= ${to}
      group by type`.execute(this.db);
    return new Map(rows.map((r) => [r.type, num(r.count)]));
  }

  async jobTotals(projectId: string, from: Date, to: Date): Promise<JobRangeTotals> {
    const { rows } = await sql<Record<string, unknown>>`
      select count(*) as total,
        count(*) filter (where status = 'queued') as queued, count(*) filter (where status = 'running') as running,
        count(*) filter (where status = 'completed') as completed, count(*) filter (where status = 'failed') as failed_jobs,
        count(*) filter (where status = 'cancelled') as cancelled,
        count(*) filter (where retry_of is not null) as retry,
        count(*) filter (where retry_of is null and schedule_id is not null) as schedule,
        count(*) filter (where retry_of is null and schedule_id is null) as api,
        coalesce(sum(succeeded), 0) as succeeded, coalesce(sum(failed), 0) as failed,
        coalesce(sum(credits_reserved), 0) as reserved, coalesce(sum(credits_consumed), 0) as consumed,
        coalesce(sum(credits_refunded), 0) as refunded, coalesce(sum(results_count), 0) as results,
        percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) filter (where finished_at is not null and started_at is not null) as p50,
        percentile_cont(0.95) within group (order by extract(epoch from finished_at - started_at)) filter (where finished_at is not null and started_at is not null) as p95
      from job where project_id = ${projectId} and created_at >= ${from} and created_at <= ${to}`.execute(this.db);
    const j = rows[0] ?? {};
    return {
      total: num(j.total),
      queued: num(j.queued),
      running: num(j.running),
      completed: num(j.completed),
      failedJobs: num(j.failed_jobs),
      cancelled: num(j.cancelled),
      fromApi: num(j.api),
      fromSchedule: num(j.schedule),
      fromRetry: num(j.retry),
      succeeded: num(j.succeeded),
      failed: num(j.failed),
      creditsReserved: num(j.reserved),
      creditsConsumed: num(j.consumed),
      creditsRefunded: num(j.refunded),
      results: num(j.results),
      p50Seconds: numOrNull(j.p50),
      p95Seconds: numOrNull(j.p95),
    };
  }

  /** Per-target failures by error code, most frequent first. Read from the job rows' `errors`: no scan of job_target. */
  async failuresByCode(projectId: string, from: Date, to: Date): Promise<FailureCodeCount[]> {
    const { rows } = await sql<{ code: string | null; count: unknown }>`
      select e->>'code' as code, count(*) as count
      from job j, jsonb_array_elements(j.errors) e
      where j.project_id = ${projectId} and j.created_at >= ${from} and j.created_at <= ${to}
      group by 1 order by count desc`.execute(this.db);
    return rows.map((r) => ({ code: r.code, count: num(r.count) }));
  }

  /** Monitored-field changes recorded by snapshots captured in the range. */
  async changesDetected(projectId: string, from: Date, to: Date): Promise<number> {
    const { rows } = await sql<{ changes: unknown }>`
      select coalesce(sum(change_count), 0) as changes from product_snapshot
      where project_id = ${projectId} and captured_at >= ${from} and captured_at <= ${to}`.execute(this.db);
    return num(rows[0]?.changes);
  }

  /** Webhook deliveries created in the range, per status (statuses without deliveries are absent). */
  async deliveriesByStatus(projectId: string, from: Date, to: Date): Promise<DeliveryStatusCount[]> {
    const { rows } = await sql<{ status: string; count: unknown }>`
      select status, count(*) as count from webhook_delivery
      where project_id = ${projectId} and created_at >= ${from} and created_at <= ${to} group by status`.execute(this.db);
    return rows.map((r) => ({ status: r.status, count: num(r.count) }));
  }

  /** One row per UTC day from `from`'s day to `to`'s day, in order; a job counts on the UTC day it was created. */
  async dailyJobTotals(projectId: string, from: Date, to: Date): Promise<DailyJobTotals[]> {
    const { rows } = await sql<Record<string, unknown> & { day: string }>`
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
      order by d`.execute(this.db);
    return rows.map((d) => ({
      day: d.day,
      jobs: num(d.jobs),
      targets: num(d.targets),
      creditsReserved: num(d.reserved),
      creditsConsumed: num(d.consumed),
      creditsRefunded: num(d.refunded),
    }));
  }
}
