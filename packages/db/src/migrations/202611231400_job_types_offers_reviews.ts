import { type Kysely, sql } from 'kysely';

/**
 * Three new job types: `offers`, `bestsellers` and `reviews`.
 * - `job.type` accepts them.
 * - `job.pages` is also a reviews job's `config.pages` (review pages per product, 1..10).
 * - `job.sort`: a reviews job's `config.sort` (`recent` or `helpful`; null when not asked and
 *   for other types).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table job drop constraint job_type_check`.execute(db);
  await sql`alter table job add constraint job_type_check check (type in ('search', 'details', 'offers', 'bestsellers', 'reviews'))`.execute(
    db,
  );
  await sql`alter table job drop constraint job_pages_check`.execute(db);
  await sql`alter table job add constraint job_pages_check check (pages between 1 and 10)`.execute(db);
  await db.schema
    .alterTable('job')
    .addColumn('sort', 'text', (c) => c.check(sql`sort in ('recent', 'helpful')`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from job where type in ('offers', 'bestsellers', 'reviews')`.execute(db);
  await db.schema.alterTable('job').dropColumn('sort').execute();
  await sql`alter table job drop constraint job_pages_check`.execute(db);
  await sql`alter table job add constraint job_pages_check check (pages between 1 and 7)`.execute(db);
  await sql`alter table job drop constraint job_type_check`.execute(db);
  await sql`alter table job add constraint job_type_check check (type in ('search', 'details'))`.execute(db);
}
