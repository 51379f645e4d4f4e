import { type Transaction, sql } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

/** A target just released into the queue, with the BullMQ priority its task gets. */
export interface ReleasedTarget {
  jobId: string;
  idx: number;
  organizationId: string;
  priority: number;
}

/** First key of the two-key advisory lock that serialises one organization's releases. */
const RELEASE_LOCK_CLASS = 726_351_002;

/**
 * Each organization's release window: how many of its targets are in the crawl queue at once,
 * which are released next, and who has room for more. Queries only; the window's size and the
 * decay of recent service are the caller's (packages/jobs, release-window.ts).
 */
export class ReleaseWindowRepository {
  constructor(private readonly db: Db) {}

  /**
   * Serialises the releases of one organization until the transaction ends. Taken as the last
   * lock of a transaction (after any job, target or organization row), and a release never
   * waits on a row lock while holding it (SKIP LOCKED), so it cannot close a deadlock cycle.
   * The release itself must be a later statement: under READ COMMITTED only a statement that
   * starts after the lock sees the releases committed by the previous holder.
   */
  async lock(trx: Transaction<Database>, organizationId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(${RELEASE_LOCK_CLASS}::int, hashtext(${organizationId}))`.execute(trx);
  }

  /**
   * Releases up to `window` minus the organization's released-and-pending targets (its window
   * occupancy: queued, in flight or in retry backoff), in round-robin order over its running
   * jobs: lowest target index first, the older job first on ties. Returns them in release
   * order, each with priority = occupancy before it + 1 + the organization's recent service,
   * at most `window`. `served` (1 after a target outcome) adds to the recent service, which
   * decays by e every `decaySeconds`. Call after `lock` in the same transaction.
   *
   * One statement: per running job of the organization, one probe of each partial index
   * (job_target_released_idx for the count, job_target_unreleased_idx for at most `free`
   * candidates); rows a concurrent cancel holds are skipped, never waited on.
   */
  async releaseTargets(
    trx: Transaction<Database>,
    organizationId: string,
    options: { window: number; served: 0 | 1; decaySeconds: number },
  ): Promise<ReleasedTarget[]> {
    const result = await sql<ReleasedTarget>`
      with running as (
        select j.id, j.created_at from job j
        where j.organization_id = ${organizationId} and j.status = 'running'
      ), used as (
        select count(*)::int as n
        from running r join job_target t on t.job_id = r.id
        where t.status = 'pending' and t.released_at is not null
      ), share as (
        select coalesce((
          select s.service * exp(-least(extract(epoch from (now() - s.service_at)) / ${options.decaySeconds}::float8, 50))
          from organization_crawl_share s where s.organization_id = ${organizationId}
        ), 0) + ${options.served}::int as service
      ), served as (
        insert into organization_crawl_share (organization_id, service, service_at)
        select ${organizationId}, service, now() from share where ${options.served}::int > 0
        on conflict (organization_id) do update set service = excluded.service, service_at = excluded.service_at
      ), free as (
        select n, greatest(${options.window}::int - n, 0) as k, round(least((select service from share), 1e9))::int as recent from used
      ), picked as (
        select c.job_id, c.idx, row_number() over (order by c.idx, r.created_at, r.id) as rank
        from running r
        cross join free f
        cross join lateral (
          select t.job_id, t.idx from job_target t
          where t.job_id = r.id and t.status = 'pending' and t.released_at is null
          order by t.idx
          limit f.k
          for update of t skip locked
        ) c
        order by rank
        limit (select k from free)
      ), released as (
        update job_target t set released_at = now()
        from picked p
        where t.job_id = p.job_id and t.idx = p.idx
        returning t.job_id, t.idx
      )
      select r.job_id as "jobId", r.idx, ${organizationId}::text as "organizationId",
             least(${options.window}::int, f.n + p.rank + least(f.recent, ${options.window}::int))::int as priority
      from released r
      join picked p on p.job_id = r.job_id and p.idx = r.idx
      cross join free f
      order by p.rank`.execute(trx);
    return result.rows;
  }

  /**
   * Organizations with a free slot in their window and unreleased targets in a running job:
   * after a cancel (whose released targets stop counting), or a release that never happened.
   */
  async organizationsToTopUp(window: number, limit: number): Promise<string[]> {
    const result = await sql<{ organization_id: string }>`
      select o.organization_id from (
        select distinct j.organization_id from job j
        where j.status = 'running'
          and exists (select 1 from job_target t where t.job_id = j.id and t.status = 'pending' and t.released_at is null)
      ) o
      where (select count(*) from job j join job_target t on t.job_id = j.id
             where j.organization_id = o.organization_id and j.status = 'running'
               and t.status = 'pending' and t.released_at is not null) < ${window}::int
      limit ${limit}::int`.execute(this.db);
    return result.rows.map((r) => r.organization_id);
  }
}
