import type { Kysely } from 'kysely';

/**
 * A per-organization override of the plan's live-project limit: null means the plan's default
 * (`projectLimit` in core). Set with `admin set-project-limit`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').addColumn('max_projects', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('max_projects').execute();
}
