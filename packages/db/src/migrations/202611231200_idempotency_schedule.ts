import type { Kysely } from 'kysely';

/**
 * The schedule an in-flight idempotent `POST …/schedules` created, written in the same
 * transaction as the schedule (like `job_id` for jobs): if the gateway dies before storing its
 * answer, a retry with the same key answers with that schedule instead of making a second one
 * that fires too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_key').addColumn('schedule_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_key').dropColumn('schedule_id').execute();
}
