import { type Kysely, sql } from 'kysely';

/** Change tracking: the latest known state per (project, marketplace, ASIN) and every snapshot with its changes. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tracked_target')
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('marketplace', 'text', (c) => c.notNull())
    .addColumn('asin', 'text', (c) => c.notNull())
    .addColumn('latest_snapshot', 'jsonb')
    .addColumn('change_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_changed_at', 'timestamptz')
    .addPrimaryKeyConstraint('tracked_target_pk', ['project_id', 'marketplace', 'asin'])
    .execute();
  await db.schema.createIndex('tracked_target_changed_idx').on('tracked_target').columns(['project_id', 'last_changed_at']).execute();

  await db.schema
    .createTable('product_snapshot')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('marketplace', 'text', (c) => c.notNull())
    .addColumn('asin', 'text', (c) => c.notNull())
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'jsonb', (c) => c.notNull())
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .addColumn('change_count', 'integer', (c) => c.notNull())
    .addColumn('captured_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('product_snapshot_target_idx')
    .on('product_snapshot')
    .columns(['project_id', 'marketplace', 'asin', 'id desc'])
    .execute();
  await db.schema.createIndex('product_snapshot_project_time_idx').on('product_snapshot').columns(['project_id', 'captured_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('product_snapshot').ifExists().execute();
  await db.schema.dropTable('tracked_target').ifExists().execute();
}
