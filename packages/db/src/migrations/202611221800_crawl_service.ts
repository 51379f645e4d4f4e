import { type Kysely, sql } from 'kysely';

/**
 * Recent crawl service per organization (packages/jobs/src/release-window.ts): a counter of
 * the organization's finished targets that decays exponentially with time, updated by the
 * release that follows each outcome. It keeps an organization that submits small jobs one
 * after another from being a "newcomer" (served ahead of everyone) at every job. A table of its
 * own: the organization row is locked by credit reservations, which must not wait on crawls.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organization_crawl_share')
    .addColumn('organization_id', 'text', (c) => c.primaryKey().references('organization.id'))
    .addColumn('service', 'float8', (c) => c.notNull().defaultTo(0))
    .addColumn('service_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('organization_crawl_share').ifExists().execute();
}
