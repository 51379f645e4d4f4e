import { type Kysely, sql } from 'kysely';

/**
 * Tracking per delivery location (docs/schedules-and-tracking.md, "Locations"): a product's
 * series is (project, marketplace, ASIN, postal code), the postal code a job asked for, '' for
 * jobs that asked for none (and every observation before it existed). A change is only ever a
 * change within one series.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['tracked_target', 'product_snapshot'])
    await db.schema
      .alterTable(table)
      .addColumn('postal_code', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  await sql`alter table tracked_target drop constraint tracked_target_pk`.execute(db);
  await db.schema
    .alterTable('tracked_target')
    .addPrimaryKeyConstraint('tracked_target_pk', ['project_id', 'marketplace', 'asin', 'postal_code'])
    .execute();
  await db.schema.dropIndex('product_snapshot_target_idx').execute();
  await db.schema
    .createIndex('product_snapshot_target_idx')
    .on('product_snapshot')
    .columns(['project_id', 'marketplace', 'asin', 'postal_code', 'id desc'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('product_snapshot_target_idx').execute();
  await db.schema
    .createIndex('product_snapshot_target_idx')
    .on('product_snapshot')
    .columns(['project_id', 'marketplace', 'asin', 'id desc'])
    .execute();
  // series of other locations than the default would collide under the old key: they go
  await sql`delete from tracked_target where postal_code <> ''`.execute(db);
  await sql`alter table tracked_target drop constraint tracked_target_pk`.execute(db);
  await db.schema
    .alterTable('tracked_target')
    .addPrimaryKeyConstraint('tracked_target_pk', ['project_id', 'marketplace', 'asin'])
    .execute();
  for (const table of ['tracked_target', 'product_snapshot']) await db.schema.alterTable(table).dropColumn('postal_code').execute();
}
