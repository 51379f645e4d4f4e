import { type Kysely, sql } from 'kysely';

/**
 * Webhook deliveries that can no longer be sent, and limits on asking for more attempts:
 * - `status` accepts `cancelled`: the delivery's webhook configuration was deleted before the
 *   delivery was made. Existing pending deliveries of deleted configurations are cancelled now.
 * - `manual_attempts`: resends and replays granted so far (capped per delivery);
 *   `rearmed_at`: the last time a resend or replay re-armed the delivery (a replay skips a
 *   delivery re-armed within the cooldown).
 * - `webhook_replay`: what each replay call re-armed, for the per-project hourly budget.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_delivery drop constraint webhook_delivery_status_check`.execute(db);
  await sql`alter table webhook_delivery add constraint webhook_delivery_status_check check (status in ('pending', 'delivered', 'failed', 'cancelled'))`.execute(
    db,
  );
  await db.schema
    .alterTable('webhook_delivery')
    .addColumn('manual_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rearmed_at', 'timestamptz')
    .execute();
  await sql`
    update webhook_delivery d set status = 'cancelled', finished_at = now(), locked_until = null
    where d.status = 'pending' and not exists (select 1 from webhook_config c where c.id = d.webhook_id)`.execute(db);
  await db.schema
    .createTable('webhook_replay')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('deliveries', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('webhook_replay_project_idx').on('webhook_replay').columns(['project_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_replay').ifExists().execute();
  await db.schema.alterTable('webhook_delivery').dropColumn('rearmed_at').dropColumn('manual_attempts').execute();
  await sql`update webhook_delivery set status = 'failed' where status = 'cancelled'`.execute(db);
  await sql`alter table webhook_delivery drop constraint webhook_delivery_status_check`.execute(db);
  await sql`alter table webhook_delivery add constraint webhook_delivery_status_check check (status in ('pending', 'delivered', 'failed'))`.execute(
    db,
  );
}
