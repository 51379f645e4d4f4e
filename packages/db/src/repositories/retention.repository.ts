import type { Plan } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

/**
 * Retention of results and webhook delivery logs, per plan, in statements that each
 * touch at most `limit` rows and commit on their own (autocommit), so that no statement holds
 * locks long enough for an API request to wait on it:
 *
 * - results go in two steps: `markExpiredJobs` / `markDeleted` set `results_purged_at` (the API
 *   answers 410 from then on) and `results_purge_pending`; `deleteResultBatch` then removes the
 *   rows a batch at a time and `finishPurge` clears the flag once none are left. A crash between
 *   batches leaves a pending job that `pendingPurges` hands to the next sweep.
 * - attempt and delivery logs are deleted a batch at a time by age.
 *
 * Deleting result rows locks only those rows: readers are never blocked (MVCC), and the job
 * rows are only touched by the marking UPDATE, one short statement on terminal jobs that no
 * worker writes any more. Organizations are scanned per plan (a small table); everything else
 * goes through the indexes of migration 202611231000.
 */
export class RetentionRepository {
  constructor(private readonly db: Db) {}

  /**
   * Marks up to `limit` finished jobs of organizations on `plan` whose results are older than
   * `retentionDays` (by finish time). Returns the marked job ids.
   */
  async markExpiredJobs(plan: Plan, retentionDays: number, limit: number): Promise<string[]> {
    const result = await sql<{ id: string }>`
      with due as (
        select j.id
        from organization o
        cross join lateral (
          select id from job
          where organization_id = o.id and finished_at is not null and results_purged_at is null
            and finished_at < now() - make_interval(days => ${retentionDays})
          order by finished_at
          limit ${limit}
        ) j
        where o.plan = ${plan}
        limit ${limit}
      )
      update job set results_purged_at = now(), results_purge_pending = true
      from due
      where job.id = due.id and job.results_purged_at is null
      returning job.id`.execute(this.db);
    return result.rows.map((r) => r.id);
  }

  /**
   * `DELETE /jobs/{id}`: marks one finished job of the project as purged. Returns the purge
   * time (the first one for a job already purged), or undefined when the job is not finished.
   */
  async markDeleted(jobId: string, projectId: string, executor: Executor = this.db): Promise<Date | undefined> {
    const result = await sql<{ results_purged_at: Date }>`
      update job
      set results_purged_at = coalesce(results_purged_at, now()),
          results_purge_pending = results_purge_pending or results_purged_at is null
      where id = ${jobId} and project_id = ${projectId} and finished_at is not null
      returning results_purged_at`.execute(executor);
    return result.rows[0]?.results_purged_at;
  }

  /** When the job's results were purged, or null; undefined when the job is not the project's. */
  async purgedAt(jobId: string, projectId: string): Promise<Date | null | undefined> {
    const result = await sql<{ results_purged_at: Date | null }>`
      select results_purged_at from job where id = ${jobId} and project_id = ${projectId}`.execute(this.db);
    return result.rows[0]?.results_purged_at;
  }

  /** Jobs marked purged whose result rows may remain (oldest marks are not preferred: any order). */
  async pendingPurges(limit: number): Promise<string[]> {
    const result = await sql<{ id: string }>`select id from job where results_purge_pending limit ${limit}`.execute(this.db);
    return result.rows.map((r) => r.id);
  }

  /** Deletes up to `limit` result rows of a purged job; returns how many went. */
  async deleteResultBatch(jobId: string, limit: number): Promise<number> {
    const result = await sql`
      delete from result_item
      where id in (select id from result_item where job_id = ${jobId} limit ${limit})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** Clears the pending flag once no result row is left (re-checked here, not trusted from the caller). */
  async finishPurge(jobId: string): Promise<boolean> {
    const result = await sql`
      update job set results_purge_pending = false
      where id = ${jobId} and results_purge_pending
        and not exists (select 1 from result_item where job_id = ${jobId})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** Deletes up to `limit` delivery attempts older than `retentionDays` of projects on `plan`. */
  async deleteExpiredAttempts(plan: Plan, retentionDays: number, limit: number): Promise<number> {
    const result = await sql`
      delete from webhook_attempt
      where id in (
        select a.id
        from organization o
        join project p on p.organization_id = o.id
        cross join lateral (
          select id from webhook_attempt
          where project_id = p.id and created_at < now() - make_interval(days => ${retentionDays})
          limit ${limit}
        ) a
        where o.plan = ${plan}
        limit ${limit}
      )`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * Deletes up to `limit` finished deliveries (delivered or failed, not pending: a delivery
   * still being attempted or resent stays) created and finished more than `retentionDays` ago.
   * A failed delivery stays replayable until then.
   */
  async deleteExpiredDeliveries(plan: Plan, retentionDays: number, limit: number): Promise<number> {
    const result = await sql`
      delete from webhook_delivery
      where id in (
        select d.id
        from organization o
        join project p on p.organization_id = o.id
        cross join lateral (
          select id from webhook_delivery
          where project_id = p.id and created_at < now() - make_interval(days => ${retentionDays})
            and status <> 'pending' and coalesce(finished_at, created_at) < now() - make_interval(days => ${retentionDays})
          limit ${limit}
        ) d
        where o.plan = ${plan}
        limit ${limit}
      )`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }
}
