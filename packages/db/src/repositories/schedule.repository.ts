import { type Selectable, sql, type Transaction } from 'kysely';
import { type JobSpec, newId, type RunStatus, toStoredJobSpec } from '@crawl/core';
import type { Db } from '../connection';
import type { Database, ScheduleTable } from '../schema';

export type ScheduleRow = Selectable<ScheduleTable>;

/** Postgres NOTIFY channel raised when a schedule is created or changed: wakes the schedulers. */
export const SCHEDULES_CHANNEL = 'crawl_schedules';

/** Schedules of a project, and the due-time claims of the scheduler. */
export class ScheduleRepository {
  constructor(private readonly db: Db) {}

  /** The project a schedule belongs to (a console session acting on it by id). */
  async projectOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('schedule').select('project_id').where('id', '=', id).executeTakeFirst();
    return row?.project_id;
  }

  /**
   * Creates a schedule unless the project already holds `maxPerProject`: the project row is
   * locked first, so concurrent creations cannot each see room for one more. Returns
   * undefined when the project is full.
   */
  async create(
    input: { projectId: string; organizationId: string; cron: string; crawlConfig: JobSpec; enabled: boolean; nextRunAt: Date },
    maxPerProject: number,
    /** The request's Idempotency-Key: the schedule's id is recorded on it in the same transaction. */
    idempotencyKey?: string,
    /** Runs in the creating transaction (the audit entry commits with the schedule). */
    beforeCommit?: (trx: Transaction<Database>, created: ScheduleRow) => Promise<void>,
  ): Promise<ScheduleRow | undefined> {
    const row = await this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('project').select('id').where('id', '=', input.projectId).forUpdate().execute();
      const { count } = await trx
        .selectFrom('schedule')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('project_id', '=', input.projectId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxPerProject) return undefined;
      const created = await trx
        .insertInto('schedule')
        .values({
          id: newId('sch'),
          project_id: input.projectId,
          organization_id: input.organizationId,
          cron: input.cron,
          crawl_config: JSON.stringify(toStoredJobSpec(input.crawlConfig)),
          enabled: input.enabled,
          next_run_at: input.nextRunAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      if (idempotencyKey !== undefined) {
        await trx
          .updateTable('idempotency_key')
          .set({ schedule_id: created.id })
          .where('project_id', '=', input.projectId)
          .where('key', '=', idempotencyKey)
          .execute();
      }
      await beforeCommit?.(trx, created);
      return created;
    });
    if (row) await this.notify();
    return row;
  }

  async list(projectId: string, limit: number, offset: number): Promise<{ rows: ScheduleRow[]; total: number }> {
    const base = this.db.selectFrom('schedule').where('project_id', '=', projectId);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  async findInProject(id: string, projectId: string): Promise<ScheduleRow | undefined> {
    return this.db.selectFrom('schedule').selectAll().where('id', '=', id).where('project_id', '=', projectId).executeTakeFirst();
  }

  /**
   * Changes a schedule under a row lock; `beforeCommit` runs in the transaction with the row as
   * it was and as it is (the audit entry commits with the change).
   */
  async update(
    id: string,
    projectId: string,
    changes: { enabled?: boolean; cron?: string; crawlConfig?: JobSpec; nextRunAt?: Date },
    beforeCommit?: (trx: Transaction<Database>, change: { before: ScheduleRow; after: ScheduleRow }) => Promise<void>,
  ): Promise<ScheduleRow | undefined> {
    const row = await this.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('schedule')
        .selectAll()
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .forUpdate()
        .executeTakeFirst();
      if (!before) return undefined;
      const after = await trx
        .updateTable('schedule')
        .set({
          ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
          ...(changes.cron !== undefined ? { cron: changes.cron } : {}),
          ...(changes.crawlConfig !== undefined ? { crawl_config: JSON.stringify(toStoredJobSpec(changes.crawlConfig)) } : {}),
          ...(changes.nextRunAt !== undefined ? { next_run_at: changes.nextRunAt } : {}),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await beforeCommit?.(trx, { before, after });
      return after;
    });
    await this.notify();
    return row;
  }

  /** Deletes a schedule; `beforeCommit` runs in the deleting transaction with the deleted row. */
  async delete(
    id: string,
    projectId: string,
    beforeCommit?: (trx: Transaction<Database>, deleted: ScheduleRow) => Promise<void>,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('schedule')
        .where('id', '=', id)
        .where('project_id', '=', projectId)
        .returningAll()
        .executeTakeFirst();
      if (deleted) await beforeCommit?.(trx, deleted);
      return deleted !== undefined;
    });
  }

  /**
   * Locks up to `limit` enabled schedules whose next fire time has come. SKIP LOCKED lets
   * several scheduler replicas work at once without taking the same schedule.
   */
  async lockDue(trx: Transaction<Database>, limit: number): Promise<ScheduleRow[]> {
    return trx
      .selectFrom('schedule')
      .selectAll()
      .where('enabled', '=', true)
      .where('next_run_at', '<=', sql<Date>`now()`)
      .orderBy('next_run_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
  }

  /** Records the fire (unique per schedule and fire time); false when it was already recorded. */
  /** Whether this fire time of the schedule already has its run (the schedule row is locked by the caller). */
  async hasRun(trx: Transaction<Database>, scheduleId: string, fireTime: Date): Promise<boolean> {
    const row = await trx
      .selectFrom('schedule_run')
      .select('schedule_id')
      .where('schedule_id', '=', scheduleId)
      .where('fire_time', '=', fireTime)
      .executeTakeFirst();
    return row !== undefined;
  }

  async recordRun(
    trx: Transaction<Database>,
    run: { scheduleId: string; fireTime: Date; status: string; jobId: string | null },
  ): Promise<boolean> {
    const inserted = await trx
      .insertInto('schedule_run')
      .values({ schedule_id: run.scheduleId, fire_time: run.fireTime, status: run.status, job_id: run.jobId })
      .onConflict((oc) => oc.columns(['schedule_id', 'fire_time']).doNothing())
      .returning('schedule_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async advance(
    trx: Transaction<Database>,
    id: string,
    run: { nextRunAt: Date; lastRunAt: Date; status: RunStatus; jobId: string | null },
  ): Promise<void> {
    await trx
      .updateTable('schedule')
      // lastJobId stays the last job the schedule created when a run is skipped
      .set({
        next_run_at: run.nextRunAt,
        last_run_at: run.lastRunAt,
        last_run_status: run.status,
        last_job_id: run.jobId ?? sql<string | null>`last_job_id`,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** The earliest next fire time of any enabled schedule, so the scheduler sleeps until then. */
  async earliestNextRun(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('schedule')
      .select((eb) => eb.fn.min('next_run_at').as('next'))
      .where('enabled', '=', true)
      .executeTakeFirst();
    return (row?.next as Date | null) ?? null;
  }

  private async notify(): Promise<void> {
    await sql`select pg_notify(${SCHEDULES_CHANNEL}, '')`.execute(this.db);
  }
}
