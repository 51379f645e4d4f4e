import { type Kysely, sql } from 'kysely';

/**
 * Retention of results and webhook delivery logs, per plan.
 *
 * - `job.results_purged_at`: when the job's results were deleted (DELETE /jobs/{id}) or purged
 *   by retention; results and export answer 410 from then on. The job row stays (the ledger
 *   points at it).
 * - `job.results_purge_pending`: set with `results_purged_at`, cleared once the last result
 *   row is gone. Rows are deleted in small batches after the mark, so a crash between batches
 *   leaves a pending job that the next sweep finishes.
 *
 * Indexes keep each sweep's scans to what is due: finished jobs not purged yet per
 * organization in finish order, pending purges, and attempt logs per project in time order
 * (the existing attempt index is by id, which does not bound a time range). Deliveries per
 * project in time order use `webhook_delivery_project_created_idx` (202611231100).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('job')
    .addColumn('results_purged_at', 'timestamptz')
    .addColumn('results_purge_pending', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex('job_retention_due_idx')
    .on('job')
    .columns(['organization_id', 'finished_at'])
    .where(sql<boolean>`finished_at is not null and results_purged_at is null`)
    .execute();
  await db.schema
    .createIndex('job_results_purge_pending_idx')
    .on('job')
    .column('id')
    .where(sql<boolean>`results_purge_pending`)
    .execute();
  await db.schema.createIndex('webhook_attempt_project_time_idx').on('webhook_attempt').columns(['project_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_attempt_project_time_idx').ifExists().execute();
  await db.schema.dropIndex('job_results_purge_pending_idx').ifExists().execute();
  await db.schema.dropIndex('job_retention_due_idx').ifExists().execute();
  await db.schema.alterTable('job').dropColumn('results_purge_pending').dropColumn('results_purged_at').execute();
}
