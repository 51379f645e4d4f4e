import { type Kysely, sql } from 'kysely';

/** Tenancy, keys, credits, jobs, per-target progress, results, event outbox, idempotency. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organization')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('starter', 'growth', 'enterprise')`))
    .addColumn('per_minute_limit', 'integer')
    .addColumn('credit_balance', 'bigint', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`credit_balance >= 0`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('app_user')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('project')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_key')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('app_user.id'))
    .addColumn('key_prefix', 'text', (c) => c.notNull().unique())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('job_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'reserve', 'refund', 'consume')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('credit_ledger_org_idx').on('credit_ledger').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('credit_ledger_job_idx').on('credit_ledger').column('job_id').execute();

  await db.schema
    .createTable('job')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('search', 'details')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'running', 'completed', 'failed', 'cancelled')`))
    .addColumn('marketplace', 'text', (c) => c.notNull())
    .addColumn('lang', 'text')
    .addColumn('targets', 'jsonb', (c) => c.notNull())
    .addColumn('target_count', 'integer', (c) => c.notNull())
    .addColumn('succeeded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('results_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('credits_reserved', 'integer', (c) => c.notNull())
    .addColumn('credits_consumed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retry_of', 'text')
    .addColumn('schedule_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('job_project_created_idx').on('job').columns(['project_id', 'created_at desc', 'id desc']).execute();
  await db.schema.createIndex('job_status_created_idx').on('job').columns(['status', 'created_at']).execute();

  await db.schema
    .createTable('job_target')
    .addColumn('job_id', 'text', (c) => c.notNull().references('job.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'succeeded', 'failed', 'cancelled')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('finished_at', 'timestamptz')
    .addPrimaryKeyConstraint('job_target_pk', ['job_id', 'idx'])
    .execute();

  await db.schema
    .createTable('result_item')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('job_id', 'text', (c) => c.notNull().references('job.id').onDelete('cascade'))
    .addColumn('target_idx', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('result_item_target_position_uq', ['job_id', 'target_idx', 'position'])
    .execute();

  await db.schema
    .createTable('event')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('dispatched_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('event_undispatched_idx')
    .on('event')
    .column('created_at')
    .where(sql.ref('dispatched_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('idempotency_key')
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_key_pk', ['project_id', 'key'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'idempotency_key',
    'event',
    'result_item',
    'job_target',
    'job',
    'credit_ledger',
    'api_key',
    'project',
    'app_user',
    'organization',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
