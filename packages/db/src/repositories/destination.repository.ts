import { type ExportFormat, newId } from '@crawl/core';
import { type Selectable, sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database, DestinationDeliveryStatus, DestinationDeliveryTable, DestinationTable } from '../schema';

export type DestinationRow = Selectable<DestinationTable>;
export type DestinationDeliveryRow = Selectable<DestinationDeliveryTable>;

/** What the API sets on a destination (the secret already encrypted). */
export interface DestinationValues {
  name: string;
  bucket: string;
  region: string;
  endpoint: string | null;
  prefix: string;
  accessKeyId: string;
  secretAccessKeyEncrypted: string;
  format: ExportFormat;
  gzip: boolean;
  scheduleIds: string[] | null;
}

type Hook<T> = (trx: Transaction<Database>, value: T) => Promise<void>;

const toColumns = (v: Partial<DestinationValues>) => ({
  ...(v.name !== undefined ? { name: v.name } : {}),
  ...(v.bucket !== undefined ? { bucket: v.bucket } : {}),
  ...(v.region !== undefined ? { region: v.region } : {}),
  ...(v.endpoint !== undefined ? { endpoint: v.endpoint } : {}),
  ...(v.prefix !== undefined ? { prefix: v.prefix } : {}),
  ...(v.accessKeyId !== undefined ? { access_key_id: v.accessKeyId } : {}),
  ...(v.secretAccessKeyEncrypted !== undefined ? { secret_access_key_encrypted: v.secretAccessKeyEncrypted } : {}),
  ...(v.format !== undefined ? { format: v.format } : {}),
  ...(v.gzip !== undefined ? { gzip: v.gzip } : {}),
  ...(v.scheduleIds !== undefined ? { schedule_ids: v.scheduleIds } : {}),
});

export interface DestinationDeliveryFilter {
  status?: DestinationDeliveryStatus;
  jobId?: string;
  limit: number;
  offset: number;
}

/**
 * Queues a completed job's export for every destination of its project that takes the job (all
 * jobs, or the jobs of its schedules), in the transaction that completes the job: a job that
 * completed has its deliveries recorded, whatever crashes after. `keyOf` names each object.
 * Returns what was queued, for the job.completed event.
 */
export async function queueExportDeliveries(
  trx: Transaction<Database>,
  job: { id: string; project_id: string; schedule_id: string | null; finished_at: Date | null },
  keyOf: (parts: { prefix: string; projectId: string; jobId: string; finishedAt: Date; format: ExportFormat; gzip: boolean }) => string,
): Promise<{ destinationId: string; key: string }[]> {
  let query = trx.selectFrom('destination').select(['id', 'prefix', 'format', 'gzip']).where('project_id', '=', job.project_id);
  query = job.schedule_id
    ? query.where((eb) => eb.or([eb('schedule_ids', 'is', null), sql<boolean>`${job.schedule_id} = any(schedule_ids)`]))
    : query.where('schedule_ids', 'is', null);
  const destinations = await query.orderBy('created_at').orderBy('id').execute();
  if (!destinations.length) return [];
  const finishedAt = job.finished_at ?? new Date();
  const rows = destinations.map((d) => ({
    destination_id: d.id,
    job_id: job.id,
    project_id: job.project_id,
    key: keyOf({ prefix: d.prefix, projectId: job.project_id, jobId: job.id, finishedAt, format: d.format, gzip: d.gzip }),
  }));
  await trx
    .insertInto('destination_delivery')
    .values(rows)
    .onConflict((oc) => oc.doNothing())
    .execute();
  return rows.map((r) => ({ destinationId: r.destination_id, key: r.key }));
}

/** A project's storage destinations and their delivery records (docs/destinations.md). */
export class DestinationRepository {
  constructor(private readonly db: Db) {}

  /** Creates a destination unless the project holds `maxPerProject` already (the project row locked first). */
  async create(
    owner: { projectId: string; organizationId: string },
    values: DestinationValues,
    maxPerProject: number,
    beforeCommit?: Hook<DestinationRow>,
  ): Promise<DestinationRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      await trx.selectFrom('project').select('id').where('id', '=', owner.projectId).forUpdate().execute();
      const { count } = await trx
        .selectFrom('destination')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('project_id', '=', owner.projectId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxPerProject) return undefined;
      const created = await trx
        .insertInto('destination')
        .values({
          id: newId('dst'),
          project_id: owner.projectId,
          organization_id: owner.organizationId,
          type: 's3',
          ...toColumns(values),
        } as never)
        .returningAll()
        .executeTakeFirstOrThrow();
      await beforeCommit?.(trx, created);
      return created;
    });
  }

  async list(projectId: string): Promise<DestinationRow[]> {
    return this.db.selectFrom('destination').selectAll().where('project_id', '=', projectId).orderBy('created_at').orderBy('id').execute();
  }

  async findById(id: string): Promise<DestinationRow | undefined> {
    return this.db.selectFrom('destination').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Changes a destination under a row lock; `beforeCommit` gets the row before and after. */
  async update(
    id: string,
    values: Partial<DestinationValues>,
    beforeCommit?: Hook<{ before: DestinationRow; after: DestinationRow }>,
  ): Promise<DestinationRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('destination').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) return undefined;
      const after = await trx
        .updateTable('destination')
        .set({ ...toColumns(values), updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await beforeCommit?.(trx, { before, after });
      return after;
    });
  }

  /** Deletes a destination and its delivery records (what was delivered stays in the bucket). */
  async delete(id: string, beforeCommit?: Hook<DestinationRow>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx.deleteFrom('destination').where('id', '=', id).returningAll().executeTakeFirst();
      if (deleted) await beforeCommit?.(trx, deleted);
      return deleted !== undefined;
    });
  }

  /** The ids among `scheduleIds` that are not schedules of the project (the caller answers 400). */
  async foreignSchedules(projectId: string, scheduleIds: string[]): Promise<string[]> {
    if (!scheduleIds.length) return [];
    const own = await this.db
      .selectFrom('schedule')
      .select('id')
      .where('project_id', '=', projectId)
      .where('id', 'in', scheduleIds)
      .execute();
    const owned = new Set(own.map((r) => r.id));
    return scheduleIds.filter((id) => !owned.has(id));
  }

  /** The project a destination belongs to (a console session acting on it by id). */
  async projectOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('destination').select('project_id').where('id', '=', id).executeTakeFirst();
    return row?.project_id;
  }

  async deliveries(destinationId: string, filter: DestinationDeliveryFilter): Promise<{ rows: DestinationDeliveryRow[]; total: number }> {
    let base = this.db.selectFrom('destination_delivery').where('destination_id', '=', destinationId);
    if (filter.status) base = base.where('status', '=', filter.status);
    if (filter.jobId) base = base.where('job_id', '=', filter.jobId);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('created_at', 'desc').orderBy('job_id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  }

  /** Sends a delivery again at once (a retry by hand): undefined when there is no such delivery. */
  async retry(destinationId: string, jobId: string): Promise<DestinationDeliveryRow | undefined> {
    return this.db
      .updateTable('destination_delivery')
      .set({ status: 'pending', next_attempt_at: sql`now()`, updated_at: sql`now()` })
      .where('destination_id', '=', destinationId)
      .where('job_id', '=', jobId)
      .returningAll()
      .executeTakeFirst();
  }
}
