import { type Kysely, sql } from 'kysely';

/** Schedules and one row per (schedule, fire time): the database itself forbids a double fire. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedule')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('cron', 'text', (c) => c.notNull())
    .addColumn('crawl_config', 'jsonb', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('next_run_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_run_at', 'timestamptz')
    .addColumn('last_run_status', 'text')
    .addColumn('last_job_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('schedule_project_idx').on('schedule').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('schedule_due_idx').on('schedule').column('next_run_at').where(sql.ref('enabled'), '=', true).execute();

  await db.schema
    .createTable('schedule_run')
    .addColumn('schedule_id', 'text', (c) => c.notNull().references('schedule.id').onDelete('cascade'))
    .addColumn('fire_time', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .addPrimaryKeyConstraint('schedule_run_pk', ['schedule_id', 'fire_time'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('schedule_run').ifExists().execute();
  await db.schema.dropTable('schedule').ifExists().execute();
}
