import { type Selectable, type Transaction, sql } from 'kysely';
import type { Db } from '../connection';
import type { Database, JobErrorRow, JobTable } from '../schema';

export type JobRow = Selectable<JobTable>;
type Executor = Db | Transaction<Database>;

export interface NewJob {
  id: string;
  projectId: string;
  organizationId: string;
  type: JobRow['type'];
  marketplace: string;
  lang: string | null;
  targets: string[];
  creditsReserved: number;
  retryOf?: string | null;
  scheduleId?: string | null;
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
                         credits_reserved, retry_of, schedule_id)
        select ${job.id}, ${job.projectId}, ${job.organizationId}, ${job.type}, 'queued', ${job.marketplace}, ${job.lang},
               ${JSON.stringify(job.targets)}::jsonb, ${job.targets.length}, ${job.creditsReserved},
               ${job.retryOf ?? null}, ${job.scheduleId ?? null}
        from reserved
        returning *
      ), targets as (
        insert into job_target (job_id, idx, target)
        select inserted.id, t.ord - 1, t.value
        from inserted, jsonb_array_elements_text(${JSON.stringify(job.targets)}::jsonb) with ordinality as t(value, ord)
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

  async lock(trx: Transaction<Database>, id: string): Promise<JobRow | undefined> {
    return trx.selectFrom('job').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
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

  async appendErrors(trx: Transaction<Database>, jobId: string, errors: JobErrorRow[]): Promise<void> {
    if (!errors.length) return;
    await trx
      .updateTable('job')
      .set({ errors: sql`errors || ${JSON.stringify(errors)}::jsonb` as never })
      .where('id', '=', jobId)
      .execute();
  }
}
