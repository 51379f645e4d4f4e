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

  async insert(trx: Transaction<Database>, job: NewJob): Promise<JobRow> {
    const row = await trx
      .insertInto('job')
      .values({
        id: job.id,
        project_id: job.projectId,
        organization_id: job.organizationId,
        type: job.type,
        status: 'queued',
        marketplace: job.marketplace,
        lang: job.lang,
        targets: JSON.stringify(job.targets),
        target_count: job.targets.length,
        credits_reserved: job.creditsReserved,
        retry_of: job.retryOf ?? null,
        schedule_id: job.scheduleId ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('job_target')
      .values(job.targets.map((target, idx) => ({ job_id: job.id, idx, target })))
      .execute();
    return row;
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
