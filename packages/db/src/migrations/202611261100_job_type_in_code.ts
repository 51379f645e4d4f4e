import { type Kysely, sql } from 'kysely';

/**
 * `job.type` is no longer limited by a check constraint. The job types are defined once, in
 * code (`packages/core/src/kinds/`), and every write goes through the job body's schema built
 * from them; a list kept again in SQL only meant one more migration per new type
 * (docs/adding-a-job-type.md).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table job drop constraint job_type_check`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table job add constraint job_type_check check (type in ('search', 'details', 'offers', 'bestsellers', 'reviews'))`.execute(
    db,
  );
}
