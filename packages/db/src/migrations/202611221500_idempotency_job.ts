import type { Kysely } from 'kysely';

/**
 * The job an in-flight idempotent request created, written in the same statement as the job:
 * if the gateway dies before storing its answer, a retry with the same key replays that job
 * instead of creating (and charging) a second one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_key').addColumn('job_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('idempotency_key').dropColumn('job_id').execute();
}
