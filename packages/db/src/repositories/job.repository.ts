import { type Selectable, type Transaction, sql } from 'kysely';
import { type JobSpec, readJobOptions } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, JobErrorRow, JobNoteRow, JobTable } from '../schema';

/** A job row, every column as `select *` / `returning *` give it. */
export type JobRow = Selectable<JobTable>;
type Executor = Db | Transaction<Database>;

/** A job to record: what it crawls, whose it is, what it reserves and why it exists. */
export interface NewJob {
  id: string;
  projectId: string;
  organizationId: string;
  spec: JobSpec;
  creditsReserved: number;
  retryOf?: string | null;
  scheduleId?: string | null;
  /** The Idempotency-Key of the request creating the job: the job id is recorded on it atomically. */
  idempotencyKey?: { projectId: string; key: string } | null;
}

/**
 * The job columns a spec is kept in, and back (`jobSpecOf`, `crawlSpecOf`): the one mapping
 * between a JobSpec and the job table. Pages and sort are null where they do not apply; a
 * multi-page job stored before its type had pages has null pages too, which `readJobOptions`
 * reads as one page.
 */
function specColumns(spec: JobSpec) {
  const { type, marketplace, lang, targets, pages, sort, postalCode } = spec;
  return { type, marketplace, lang, targets, pages, sort, postal_code: postalCode };
}

/** The job columns of its spec but `targets`: what a task crawling one target selects (findTargetContext). */
export const CRAWL_SPEC_COLUMNS = ['type', 'marketplace', 'lang', 'pages', 'sort', 'postal_code'] as const;
type CrawlSpecRow = Pick<JobRow, (typeof CRAWL_SPEC_COLUMNS)[number]>;

/** A job's spec without its targets (the one target a task crawls comes with it). */
export function crawlSpecOf(row: CrawlSpecRow): Omit<JobSpec, 'targets'> {
  return { type: row.type, ...readJobOptions(row.type, storedOptionsOf(row)) };
}

/** The job row's option columns as stored options (the columns are snake_case). */
function storedOptionsOf(row: CrawlSpecRow) {
  return { marketplace: row.marketplace, lang: row.lang, pages: row.pages, sort: row.sort, postalCode: row.postal_code };
}

/** The spec of a recorded job (what a retry crawls again, what the job resource shows). */
export function jobSpecOf(row: CrawlSpecRow & Pick<JobRow, 'targets'>): JobSpec {
  return { type: row.type, targets: row.targets, ...readJobOptions(row.type, storedOptionsOf(row)) };
}

export interface JobListFilter {
  projectId: string;
  status?: JobRow['status'];
  type?: JobRow['type'];
  q?: string;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
  /** A column and direction; newest first without one. Ties always break by id, in the same direction. */
  sort?: { column: 'created_at' | 'status' | 'type'; direction: 'asc' | 'desc' };
}

/** Escapes LIKE wildcards so that a user's "%" or "_" match themselves. */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Jobs: creation with its credit reservation, reads scoped by project, row locks, state
 * transitions and the job's counters. Targets are JobTargetRepository's, releases into the queue
 * ReleaseWindowRepository's. Every read by a tenant is scoped by project: ids of another
 * project are "not found".
 */
export class JobRepository {
  constructor(private readonly db: Db) {}

  /** The project a job belongs to (a console session acting on it by id). */
  async projectOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('job').select('project_id').where('id', '=', id).executeTakeFirst();
    return row?.project_id;
  }

  /**
   * Reserves the job's credits and records the job and its targets in ONE statement (data-
   * modifying CTEs): a single round trip and an atomic unit. The conditional UPDATE locks the
   * organization row, so concurrent creations serialize on it and re-check the balance, which
   * therefore never goes negative. Returns undefined when the balance does not cover the cost.
   */
  async insertWithReservation(job: NewJob, executor: Executor = this.db): Promise<JobRow | undefined> {
    const spec = specColumns(job.spec);
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
                         pages, sort, postal_code, credits_reserved, retry_of, schedule_id)
        select ${job.id}, ${job.projectId}, ${job.organizationId}, ${spec.type}, 'queued', ${spec.marketplace}, ${spec.lang},
               ${JSON.stringify(spec.targets)}::jsonb, ${spec.targets.length}, ${spec.pages}::int, ${spec.sort}, ${spec.postal_code}, ${job.creditsReserved},
               ${job.retryOf ?? null}, ${job.scheduleId ?? null}
        from reserved
        returning *
      ), targets as (
        insert into job_target (job_id, idx, target)
        select inserted.id, t.ord - 1, t.value
        from inserted, jsonb_array_elements_text(${JSON.stringify(spec.targets)}::jsonb) with ordinality as t(value, ord)
      ), keyed as (
        update idempotency_key set job_id = inserted.id
        from inserted
        where idempotency_key.project_id = ${job.idempotencyKey?.projectId ?? null}
          and idempotency_key.key = ${job.idempotencyKey?.key ?? null}
      )
      select * from inserted`.execute(executor);
    return result.rows[0];
  }

  /**
   * `insertWithReservation` for several jobs of one organization in ONE statement, all or none:
   * one conditional UPDATE reserves their total, so the balance never goes negative, and
   * concurrent statements serialize on the organization row as one job's do. Each job gets its
   * ledger entry and the balance after its own reservation, as if they had been reserved one by
   * one in the given order. Returns the jobs in that order, or none when the balance does not
   * cover them all.
   */
  async insertManyWithReservation(organizationId: string, jobs: NewJob[]): Promise<(JobRow & { balance_after: number })[]> {
    if (jobs.some((job) => job.organizationId !== organizationId))
      throw new Error('insertManyWithReservation: jobs of one organization only');
    const total = jobs.reduce((sum, job) => sum + job.creditsReserved, 0);
    const input = jobs.map((job, ord) => ({
      ord,
      id: job.id,
      project_id: job.projectId,
      ...specColumns(job.spec),
      credits_reserved: job.creditsReserved,
      retry_of: job.retryOf ?? null,
      schedule_id: job.scheduleId ?? null,
      key_project_id: job.idempotencyKey?.projectId ?? null,
      key: job.idempotencyKey?.key ?? null,
    }));
    // Only when a job has an Idempotency-Key: the statement is then planned without the join.
    const keyed = jobs.some((job) => job.idempotencyKey)
      ? sql`, keyed as (
        update idempotency_key set job_id = p.id
        from priced p
        where idempotency_key.project_id = p.key_project_id and idempotency_key.key = p.key
      )`
      : sql``;
    const result = await sql<JobRow & { balance_after: number }>`
      with input as (
        select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb) as j(
          ord int, id text, project_id text, type text, marketplace text, lang text, targets jsonb, pages int, sort text, postal_code text,
          credits_reserved int, retry_of text, schedule_id text, key_project_id text, key text)
      ), reserved as (
        update organization set credit_balance = credit_balance - ${total}
        where id = ${organizationId} and credit_balance >= ${total}
        returning credit_balance
      ), priced as (
        select i.*, reserved.credit_balance + ${total} - sum(i.credits_reserved) over (order by i.ord) as balance_after
        from input i, reserved
      ), ledger as (
        insert into credit_ledger (organization_id, job_id, kind, amount, balance_after)
        select ${organizationId}, p.id, 'reserve', p.credits_reserved, p.balance_after from priced p order by p.ord
      ), inserted as (
        insert into job (id, project_id, organization_id, type, status, marketplace, lang, targets, target_count,
                         pages, sort, postal_code, credits_reserved, retry_of, schedule_id)
        select p.id, p.project_id, ${organizationId}, p.type, 'queued', p.marketplace, p.lang, p.targets, jsonb_array_length(p.targets),
               p.pages, p.sort, p.postal_code, p.credits_reserved, p.retry_of, p.schedule_id
        from priced p
        returning *
      ), targets as (
        insert into job_target (job_id, idx, target)
        select p.id, t.ord - 1, t.value
        from priced p, jsonb_array_elements_text(p.targets) with ordinality as t(value, ord)
      )${keyed}
      select inserted.*, p.balance_after::bigint as balance_after
      from inserted join priced p on p.id = inserted.id
      order by p.ord`.execute(this.db);
    return result.rows;
  }

  async findInProject(id: string, projectId: string, executor: Executor = this.db): Promise<JobRow | undefined> {
    return executor.selectFrom('job').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  }

  /**
   * The jobs among `keys` that exist in the project each key names, in one round trip (the
   * concurrent reads of a gateway, batched). A key whose job is of another project finds nothing.
   */
  async findManyInProjects(keys: { id: string; projectId: string }[]): Promise<JobRow[]> {
    if (!keys.length) return [];
    return this.db
      .selectFrom('job')
      .selectAll()
      .where((eb) =>
        eb(
          eb.refTuple('id', 'project_id'),
          'in',
          keys.map((k) => eb.tuple(k.id, k.projectId)),
        ),
      )
      .execute();
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
    if (filter.type) query = query.where('type', '=', filter.type);
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
      (filter.sort
        ? query
            .selectAll()
            .orderBy(filter.sort.column, filter.sort.direction)
            .orderBy('created_at', filter.sort.direction)
            .orderBy('id', filter.sort.direction)
        : query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc')
      )
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
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

  /**
   * Targets of queued and running jobs that have no outcome yet, over every organization: the
   * crawl work really waiting (the queue holds at most each organization's release window of
   * it). One index scan of the few active jobs (job_status_created_idx), whatever the history.
   */
  async unfinishedTargets(): Promise<number> {
    const row = await this.db
      .selectFrom('job')
      .select(sql<string>`coalesce(sum(target_count - succeeded - failed), 0)`.as('n'))
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether a job is running (its status only: asked often, by the workers' exit turns). */
  async isRunning(jobId: string): Promise<boolean> {
    const row = await this.db.selectFrom('job').select('id').where('id', '=', jobId).where('status', '=', 'running').executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Adds one finished target to the job's counters (row-locked until the transaction ends).
   * `pages`: the pages the target is charged for (job.pages_crawled is their sum).
   */
  async addProgress(
    trx: Transaction<Database>,
    jobId: string,
    delta: {
      succeeded: number;
      failed: number;
      results: number;
      pages?: number;
      error?: JobErrorRow;
      errors?: JobErrorRow[];
      note?: JobNoteRow;
    },
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
}
