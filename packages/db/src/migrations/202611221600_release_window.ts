import { type Kysely, sql } from 'kysely';

/**
 * Per-organization release window (packages/jobs/src/release-window.ts): a target is
 * `released` once its crawl task is put in the queue. Two partial indexes keep the release
 * query (once per target outcome) to index scans whatever the size of job_target:
 * - unreleased pending targets per job in index order: the round-robin candidates;
 * - released pending targets per job: the organization's window occupancy (at most W rows each).
 * And running jobs per organization, oldest first (the ties of the round-robin).
 *
 * Targets of jobs already running were all enqueued by the previous code (one task per
 * target): they count as released, so those organizations' windows start over-full and drain.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('job_target').addColumn('released_at', 'timestamptz').execute();
  await sql`
    update job_target t set released_at = coalesce(j.started_at, now())
    from job j
    where j.id = t.job_id and j.status = 'running' and t.status = 'pending'`.execute(db);
  await db.schema
    .createIndex('job_target_unreleased_idx')
    .on('job_target')
    .columns(['job_id', 'idx'])
    .where(sql<boolean>`status = 'pending' and released_at is null`)
    .execute();
  await db.schema
    .createIndex('job_target_released_idx')
    .on('job_target')
    .columns(['job_id', 'idx'])
    .where(sql<boolean>`status = 'pending' and released_at is not null`)
    .execute();
  await db.schema
    .createIndex('job_org_running_idx')
    .on('job')
    .columns(['organization_id', 'created_at', 'id'])
    .where(sql<boolean>`status = 'running'`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('job_org_running_idx').ifExists().execute();
  await db.schema.dropIndex('job_target_released_idx').ifExists().execute();
  await db.schema.dropIndex('job_target_unreleased_idx').ifExists().execute();
  await db.schema.alterTable('job_target').dropColumn('released_at').execute();
}
