import { type Kysely, sql } from 'kysely';

/**
 * Search depth: a search job crawls `pages` result pages per keyword (1..7) and is
 * charged per page crawled.
 * - `job.pages`: the job's `config.pages` (search jobs; null for other types). Jobs before this
 *   crawled one page.
 * - `job_target.pages_crawled`: pages a finished target was charged for (0 when it failed or
 *   found nothing); `job.pages_crawled` is their sum over the job's finished targets, kept in the
 *   same transaction, so a running job's `credits.consumed` is read without a scan.
 * - `job_target.page_checkpoint`: the pages a target crawled so far while it is still pending,
 *   so a retried crawl task goes on from the next page instead of fetching the first ones again.
 * - `job.notes`: per-target notes of targets that succeeded (`NO_RESULTS`).
 * - Stored search cards gain `page` (all were page 1).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('job')
    .addColumn('pages', 'integer', (c) => c.check(sql`pages between 1 and 7`))
    .addColumn('pages_crawled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema
    .alterTable('job_target')
    .addColumn('pages_crawled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('page_checkpoint', 'jsonb')
    .execute();
  await sql`update job set pages = 1 where type = 'search'`.execute(db);
  await sql`update job set pages_crawled = succeeded where succeeded > 0`.execute(db);
  await sql`update job_target set pages_crawled = 1 where status = 'succeeded'`.execute(db);
  await sql`update result_item set data = jsonb_set(data, '{page}', '1'::jsonb) where data ? 'keyword' and not data ? 'page'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`update result_item set data = data - 'page' where data ? 'keyword'`.execute(db);
  await db.schema.alterTable('job_target').dropColumn('page_checkpoint').dropColumn('pages_crawled').execute();
  await db.schema.alterTable('job').dropColumn('notes').dropColumn('pages_crawled').dropColumn('pages').execute();
}
