import type { Kysely } from 'kysely';

/**
 * Per-organization overrides of the plan's schedule limits: null means the plan's
 * default (`schedulePolicy` in core). Set with `admin set-schedule-limits`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('organization')
    .addColumn('max_schedules_per_project', 'integer')
    .addColumn('min_schedule_interval_seconds', 'integer')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organization').dropColumn('max_schedules_per_project').dropColumn('min_schedule_interval_seconds').execute();
}
