import { type Kysely, sql } from 'kysely';

/**
 * Storage destinations (docs/destinations.md): a project's S3-compatible buckets, their
 * credentials encrypted at rest (the secret key as SecretBox ciphertext, never in clear), and one
 * delivery row per destination and completed job: the durable record of what was sent where,
 * claimed by one deliverer at a time under a lease, so a job's export is written once per
 * destination across crashes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('destination')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('s3')`))
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text')
    .addColumn('prefix', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('access_key_id', 'text', (c) => c.notNull())
    .addColumn('secret_access_key_encrypted', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('json', 'jsonl', 'csv', 'llm')`))
    .addColumn('gzip', 'boolean', (c) => c.notNull().defaultTo(false))
    // null: every completed job of the project; else only the jobs these schedules started
    .addColumn('schedule_ids', sql`text[]`)
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('destination_project_idx').on('destination').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('destination_delivery')
    .addColumn('destination_id', 'text', (c) => c.notNull().references('destination.id').onDelete('cascade'))
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'delivered', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes', 'bigint')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // a deliverer holds the row while it uploads; a lease run out (a killed process) frees it
    .addColumn('lease_until', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addPrimaryKeyConstraint('destination_delivery_pk', ['destination_id', 'job_id'])
    .execute();
  await sql`create index destination_delivery_due_idx on destination_delivery (next_attempt_at) where status = 'pending'`.execute(db);
  await db.schema
    .createIndex('destination_delivery_list_idx')
    .on('destination_delivery')
    .columns(['destination_id', 'created_at desc', 'job_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('destination_delivery').execute();
  await db.schema.dropTable('destination').execute();
}
