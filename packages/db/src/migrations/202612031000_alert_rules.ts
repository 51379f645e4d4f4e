import { type Kysely, sql } from 'kysely';

/**
 * Alert rules (docs/alerts.md): the rules of a project, their state per product series (armed or
 * firing, last alert), their alerts per UTC day (maxPerDay) and every alert, sent or suppressed.
 *
 * Tracking keeps what rules read: `tracked_target.page_state`, the product's last known state
 * as product pages (details, offers, reviews) showed it, so a search card's price never moves a
 * rule; and `product_snapshot.page_price`, the price a details or offers crawl saw, with an
 * index bounded by time for the 7- and 30-day medians.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alert_rule')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('project.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('condition', 'jsonb', (c) => c.notNull())
    .addColumn('asins', sql`text[]`)
    .addColumn('marketplace', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('cooldown_seconds', 'integer', (c) => c.notNull())
    .addColumn('max_per_day', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('notify_members', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('alert_rule_project_idx').on('alert_rule').columns(['project_id', 'created_at']).execute();

  await db.schema
    .createTable('alert_rule_state')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rule.id').onDelete('cascade'))
    .addColumn('marketplace', 'text', (c) => c.notNull())
    .addColumn('asin', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('firing', 'boolean', (c) => c.notNull())
    .addColumn('last_alert_at', 'timestamptz')
    .addPrimaryKeyConstraint('alert_rule_state_pk', ['rule_id', 'marketplace', 'asin', 'postal_code'])
    .execute();

  await db.schema
    .createTable('alert_rule_day')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rule.id').onDelete('cascade'))
    .addColumn('day', 'date', (c) => c.notNull())
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('suppressed', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('alert_rule_day_pk', ['rule_id', 'day'])
    .execute();

  // no foreign key to the rule: an alert stays in the project's history after its rule is deleted
  await db.schema
    .createTable('alert')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('rule_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('sent', 'suppressed')`))
    .addColumn('marketplace', 'text', (c) => c.notNull())
    .addColumn('asin', 'text', (c) => c.notNull())
    .addColumn('postal_code', 'text', (c) => c.notNull())
    .addColumn('condition', 'jsonb', (c) => c.notNull())
    .addColumn('value', 'jsonb', (c) => c.notNull())
    .addColumn('previous', 'jsonb', (c) => c.notNull())
    .addColumn('baseline', 'double precision')
    .addColumn('job_id', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('alert_project_time_idx').on('alert').columns(['project_id', 'created_at desc', 'id desc']).execute();
  await db.schema.createIndex('alert_rule_time_idx').on('alert').columns(['rule_id', 'created_at desc']).execute();
  await db.schema.createIndex('alert_asin_time_idx').on('alert').columns(['project_id', 'asin', 'created_at desc']).execute();

  // The mails of `notify.members`, one row per alert and member, written with the alert (an outbox
  // of its own: a crash between the alert and its mail delays the mail, never loses it).
  await db.schema
    .createTable('alert_mail')
    .addColumn('alert_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('pending')
        .check(sql`status in ('pending', 'sent', 'skipped', 'failed')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('alert_mail_pk', ['alert_id', 'user_id'])
    .execute();
  await sql`create index alert_mail_due_idx on alert_mail (next_attempt_at) where status = 'pending'`.execute(db);

  await db.schema.alterTable('tracked_target').addColumn('page_state', 'jsonb').execute();
  await db.schema.alterTable('product_snapshot').addColumn('page_price', 'double precision').execute();
  // The medians read one series' product-page prices of the last 7 or 30 days: a range of this
  // index, whatever the length of the series' history.
  await sql`create index product_snapshot_page_price_idx on product_snapshot
    (project_id, marketplace, asin, postal_code, captured_at) include (page_price) where page_price is not null`.execute(db);
  // what the medians read is at most 30 days old: older observations need no page price
  await sql`update product_snapshot set page_price = (snapshot->>'price')::double precision
    where source in ('details', 'offers') and snapshot->>'price' is not null and captured_at > now() - interval '31 days'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists product_snapshot_page_price_idx`.execute(db);
  await db.schema.alterTable('product_snapshot').dropColumn('page_price').execute();
  await db.schema.alterTable('tracked_target').dropColumn('page_state').execute();
  for (const table of ['alert_mail', 'alert', 'alert_rule_day', 'alert_rule_state', 'alert_rule'])
    await db.schema.dropTable(table).ifExists().execute();
}
