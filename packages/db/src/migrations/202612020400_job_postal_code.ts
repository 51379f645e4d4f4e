import type { Kysely } from 'kysely';

/**
 * A job's delivery location (`config.postalCode`, normalised for its marketplace): null for jobs
 * that asked for none and for every job before it existed (docs/crawling.md, "Delivery location").
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job').addColumn('postal_code', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job').dropColumn('postal_code').execute();
}
