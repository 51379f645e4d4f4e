import { type Selectable, type Transaction, sql } from 'kysely';
import type { Db } from '../connection';
import type { Database, JobErrorRow, JobNoteRow, JobTable, PageCheckpoint } from '../schema';

/**
 * A job row. The page-depth columns (`pages`, `pages_crawled`, `notes`, `sort`) are optional in the
 * type, like the retention state: every query returns them, and rows built by hand (samples,
 * tests) stay valid without them (read them with their defaults: null, 0, [], null).
 */
type JobDepthColumns = 'pages' | 'pages_crawled' | 'notes' | 'sort';
export type JobRow = Selectable<Omit<JobTable, JobDepthColumns>> & Partial<Pick<Selectable<JobTable>, JobDepthColumns>>;
type Executor = Db | Transaction<Database>;

/** A target just released into the queue, with the BullMQ priority its task gets. */
export interface ReleasedTarget {
  jobId: string;
  idx: number;
  organizationId: string;
  priority: number;
}

/** First key of the two-key advisory lock that serialises one organization's releases. */
const RELEASE_LOCK_CLASS = 726_351_002;

export interface NewJob {
  id: string;
  projectId: string;
  organizationId: string;
  type: JobRow['type'];
  marketplace: string;
  lang: string | null;
  targets: string[];
  /** Search and reviews: pages per target (`config.pages`); null (the default) for other types. */
  pages?: number | null;
  /** Reviews: `config.sort`; null (the default) when not asked and for other types. */
  sort?: JobRow['sort'];
  creditsReserved: number;
  retryOf?: string | null;
  scheduleId?: string | null;
  /** The Idempotency-Key of the request creating the job: the job id is recorded on it atomically. */
  idempotencyKey?: { projectId: string; key: string } | null;
}

export interface JobListFilter {
  projectId: string;
  status?: JobRow['status'];
  q?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

/** Escapes LIKE wildcards so that a user's "%" or "_" match themselves. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Jobs and their per-target rows. Every read is scoped by project: ids of another project are "not found". */
export class JobRepository {
  constructor(private readonly db: Db) {}

  /**
   * Reserves the job's credits and records the job and its targets in ONE statement (data-
   * modifying CTEs): a single round trip and an atomic unit. The conditional UPDATE locks the
   * organization row, so concurrent creations serialize on it and re-check the balance, which
   * therefore never goes negative. Returns undefined when the balance does not cover the cost.
   */
  async insertWithReservation(job: NewJob, executor: Executor = this.db): Promise<JobRow | undefined> {
    const result = await sql<JobRow>`
      with reserved as (
        update organization set credit_balance = credit_balance - ${job.creditsReserved}
        where id = ${job.organizationId} and credit_balance >= ${job.creditsReserved}
        returning credit_balance
      ), ledger as (
        insert into credit_ledger (organization_id, job_id, kind, amount, balance_after)
        select ${job.organizationId}, ${job.id}, 'reserve', ${job.creditsReserved}, credit_balance from reserved
      ), inserted as (
        insert into job (id, project_id, organization_id, type, status, marketplace, lang, targets, target_count,
                         pages, sort, credits_reserved, retry_of, schedule_id)
        select ${job.id}, ${job.projectId}, ${job.organizationId}, ${job.type}, 'queued', ${job.marketplace}, ${job.lang},
               ${JSON.stringify(job.targets)}::jsonb, ${job.targets.length}, ${job.pages ?? null}::int, ${job.sort ?? null}, ${job.creditsReserved},
               ${job.retryOf ?? null}, ${job.scheduleId ?? null}
        from reserved
        returning *
      ), targets as (
        insert into job_target (job_id, idx, target)
        select inserted.id, t.ord - 1, t.value
        from inserted, jsonb_array_elements_text(${JSON.stringify(job.targets)}::jsonb) with ordinality as t(value, ord)
      ), keyed as (
        update idempotency_key set job_id = inserted.id
        from inserted
        where idempotency_key.project_id = ${job.idempotencyKey?.projectId ?? null}
          and idempotency_key.key = ${job.idempotencyKey?.key ?? null}
      )
      select * from inserted`.execute(executor);
    return result.rows[0];
  }

  async findInProject(id: string, projectId: string, executor: Executor = this.db): Promise<JobRow | undefined> {
    return executor.selectFrom('job').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  }

  async findById(id: string, executor: Executor = this.db): Promise<JobRow | undefined> {
    return executor.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Row lock for state transitions (cancel, finalize) so that they serialize per job. */
  async lockInProject(trx: Transaction<Database>, id: string, projectId: string): Promise<JobRow | undefined> {
    return trx.selectFrom('job').selectAll().where('id', '=', id).where('project_id', '=', projectId).forUpdate().executeTakeFirst();
  }



  /** Row lock on a job (any project): every state change of a job takes it first. */
  async lock(trx: Transaction<Database>, id: string): Promise<boolean> {
    const row = await trx.selectFrom('job').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    return row !== undefined;
  }

  async list(filter: JobListFilter): Promise<{ rows: JobRow[]; total: number }> {
    let query = this.db.selectFrom('job').where('project_id', '=', filter.projectId);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.from) query = query.where('created_at', '>=', filter.from);
    if (filter.to) query = query.where('created_at', '<=', filter.to);
    if (filter.q) {
      const q = filter.q;
      query = query.where((eb) =>
        eb.or([
          eb('id', '=', q),
          eb.exists(
            sql`(select 1 from jsonb_array_elements_text(${sql.ref('targets')}) as t(value) where t.value ilike ${likePattern(q)})`,
          ),
        ]),
      );
    }
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** Targets of a job that produced no result (failed, cancelled, or never crawled), in job order. */
  async targetsWithoutResult(jobId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('job_target')
      .select('target')
      .where('job_id', '=', jobId)
      .where('status', '!=', 'succeeded')
      .orderBy('idx')
      .execute();
    return rows.map((r) => r.target);
  }

  /** Marks every not-yet-finished target cancelled; returns how many were. */
  async cancelPendingTargets(trx: Transaction<Database>, jobId: string): Promise<number> {
    const result = await trx
      .updateTable('job_target')
      .set({ status: 'cancelled', error_code: 'CANCELLED', error_message: 'job cancelled before this target was crawled', finished_at: new Date() })
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Marks every not-yet-finished target failed with one code; returns the targets it failed. */
  async failPendingTargets(trx: Transaction<Database>, jobId: string, code: string, message: string): Promise<string[]> {
    const rows = await trx
      .updateTable('job_target')
      .set({ status: 'failed', error_code: code, error_message: message, finished_at: new Date() })
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .returning('target')
      .execute();
    return rows.map((r) => r.target);
  }

  async markTerminal(
    trx: Transaction<Database>,
    jobId: string,
    update: { status: 'completed' | 'failed' | 'cancelled'; creditsConsumed: number; creditsRefunded: number },
  ): Promise<JobRow> {
    return trx
      .updateTable('job')
      .set({
        status: update.status,
        finished_at: new Date(),
        credits_consumed: update.creditsConsumed,
        credits_refunded: update.creditsRefunded,
      })
      .where('id', '=', jobId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Jobs Postgres says are queued but that may be missing from the queue (enqueue failed, or
   * Redis lost its data): the reconciler re-adds them; the queue dedupes by job id.
   */
  async findQueuedBefore(before: Date, limit: number): Promise<Pick<JobRow, 'id' | 'project_id'>[]> {
    return this.db
      .selectFrom('job')
      .select(['id', 'project_id'])
      .where('status', '=', 'queued')
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** queued -> running (first start) or running -> running (a re-start after Redis lost the fan-out). */
  async markRunning(jobId: string): Promise<JobRow | undefined> {
    return this.db
      .updateTable('job')
      .set((eb) => ({ status: 'running', started_at: eb.fn.coalesce('started_at', sql<Date>`now()`) }))
      .where('id', '=', jobId)
      .where('status', 'in', ['queued', 'running'])
      .returningAll()
      .executeTakeFirst();
  }

  async pendingTargetIndexes(jobId: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('job_target')
      .select('idx')
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .orderBy('idx')
      .execute();
    return rows.map((r) => r.idx);
  }

  /** What a worker needs to crawl one target, or undefined when the job or target is gone. */
  async findTargetContext(jobId: string, idx: number) {
    return this.db
      .selectFrom('job_target as t')
      .innerJoin('job as j', 'j.id', 't.job_id')
      .select([
        'j.id as jobId',
        'j.project_id as projectId',
        'j.type',
        'j.status as jobStatus',
        'j.marketplace',
        'j.lang',
        'j.pages',
        'j.sort',
        't.idx',
        't.target',
        't.status as targetStatus',
        't.page_checkpoint as pageCheckpoint',
      ])
      .where('t.job_id', '=', jobId)
      .where('t.idx', '=', idx)
      .executeTakeFirst();
  }

  /** Whether a job is running (its status only: asked often, by the workers' exit turns). */
  async isRunning(jobId: string): Promise<boolean> {
    const row = await this.db.selectFrom('job').select('id').where('id', '=', jobId).where('status', '=', 'running').executeTakeFirst();
    return row !== undefined;
  }

  /** Whether a target is still to be crawled: pending, of a running job (a cheap check between pages). */
  async isTargetPending(jobId: string, idx: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('job_target as t')
      .innerJoin('job as j', 'j.id', 't.job_id')
      .select('t.idx')
      .where('t.job_id', '=', jobId)
      .where('t.idx', '=', idx)
      .where('t.status', '=', 'pending')
      .where('j.status', '=', 'running')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Records the pages a still pending target crawled so far (a retried task goes on from the
   * next page). False when the target is no longer pending (cancelled meanwhile).
   */
  async saveCheckpoint(jobId: string, idx: number, checkpoint: PageCheckpoint): Promise<boolean> {
    const result = await this.db
      .updateTable('job_target')
      .set({ page_checkpoint: JSON.stringify(checkpoint) })
      .where('job_id', '=', jobId)
      .where('idx', '=', idx)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * pending -> succeeded/failed for one target. Returns false when the target is no longer
   * pending (cancelled, or finished by an earlier run of a task that was redelivered after a
   * crash): the caller then discards its results, so no target is ever stored twice.
   */
  async finishTarget(
    trx: Transaction<Database>,
    jobId: string,
    idx: number,
    outcome: { status: 'succeeded' | 'failed'; attempts: number; pagesCrawled: number; errorCode?: string; errorMessage?: string },
  ): Promise<boolean> {
    const result = await trx
      .updateTable('job_target')
      .set({
        status: outcome.status,
        attempts: outcome.attempts,
        pages_crawled: outcome.pagesCrawled,
        page_checkpoint: null,
        error_code: outcome.errorCode ?? null,
        error_message: outcome.errorMessage ?? null,
        finished_at: new Date(),
      })
      .where('job_id', '=', jobId)
      .where('idx', '=', idx)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Adds one finished target to the job's counters (row-locked until the transaction ends).
   * `pages`: the pages the target is charged for (job.pages_crawled is their sum).
   */
  async addProgress(
    trx: Transaction<Database>,
    jobId: string,
    delta: { succeeded: number; failed: number; results: number; pages?: number; error?: JobErrorRow; errors?: JobErrorRow[]; note?: JobNoteRow },
  ): Promise<JobRow> {
    return trx
      .updateTable('job')
      .set((eb) => ({
        succeeded: eb('succeeded', '+', delta.succeeded),
        failed: eb('failed', '+', delta.failed),
        results_count: eb('results_count', '+', delta.results),
        pages_crawled: eb('pages_crawled', '+', delta.pages ?? 0),
        ...(delta.note ? { notes: sql`notes || ${JSON.stringify([delta.note])}::jsonb` as never } : {}),
        ...(delta.error || delta.errors?.length
          ? { errors: sql`errors || ${JSON.stringify(delta.errors ?? [delta.error])}::jsonb` as never }
          : {}),
      }))
      .where('id', '=', jobId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Running jobs with targets still pending and no progress for `idleMs`: their fan-out may
   * have been lost with Redis data; the reconciler restarts them (idempotent).
   */
  async findStalledRunning(idleMs: number, limit: number): Promise<Pick<JobRow, 'id'>[]> {
    return this.db
      .selectFrom('job')
      .select('id')
      .where('status', '=', 'running')
      .where('started_at', '<', new Date(Date.now() - idleMs))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('job_target')
              .select(sql`1`.as('one'))
              .whereRef('job_target.job_id', '=', 'job.id')
              .where('job_target.finished_at', '>', new Date(Date.now() - idleMs)),
          ),
        ),
      )
      .limit(limit)
      .execute();
  }

  /**
   * Serialises the releases of one organization until the transaction ends. Taken as the last
   * lock of a transaction (after any job, target or organization row), and a release never
   * waits on a row lock while holding it (SKIP LOCKED), so it cannot close a deadlock cycle.
   * The release itself must be a later statement: under READ COMMITTED only a statement that
   * starts after the lock sees the releases committed by the previous holder.
   */
  async lockReleaseWindow(trx: Transaction<Database>, organizationId: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(${RELEASE_LOCK_CLASS}::int, hashtext(${organizationId}))`.execute(trx);
  }

  /**
   * Releases up to `window` minus the organization's released-and-pending targets (its window
   * occupancy: queued, in flight or in retry backoff), in round-robin order over its running
   * jobs: lowest target index first, the older job first on ties. Returns them in release
   * order, each with priority = occupancy before it + 1 + the organization's recent service,
   * at most `window`. `served` (1 after a target outcome) adds to the recent service, which
   * decays by e every `decaySeconds`. Call after `lockReleaseWindow` in the same transaction.
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

  /** A job's targets released into the queue and not finished: what a restart re-adds when lost. */
  async releasedPendingTargetIndexes(jobId: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('job_target')
      .select('idx')
      .where('job_id', '=', jobId)
      .where('status', '=', 'pending')
      .where('released_at', 'is not', null)
      .orderBy('idx')
      .execute();
    return rows.map((r) => r.idx);
  }
}
