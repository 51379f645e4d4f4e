import { type Kysely, sql } from 'kysely';

/**
 * Webhook operations (delivery log, resend and replay, auto-disable, secret rotation):
 * - config: automatic disabling of an endpoint failing continuously (`failing_since` is the first
 *   failed attempt since the last success), and secret rotation (the previous secret, still used
 *   to sign next to the new one until `previous_secret_expires_at`).
 * - delivery: `max_attempts` is the attempt number a delivery may reach (5, the automatic
 *   schedule; a resend or replay raises it by one); `resend_requested_at` marks the next attempt
 *   as a manual one. The list index serves the deliveries API and the bulk replay; the leased
 *   index the deliverer's claim.
 * - attempt: the receiver's response body snippet and whether the attempt was manual.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('webhook_config')
    .addColumn('failing_since', 'timestamptz')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('disabled_reason', 'text')
    .addColumn('previous_secret_encrypted', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .execute();
  await db.schema
    .alterTable('webhook_delivery')
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('resend_requested_at', 'timestamptz')
    .execute();
  // The deliverer's claim counts the attempts in flight per endpoint (per-endpoint cap): only
  // leased rows are in this index (an attempt's outcome clears the lease).
  await db.schema
    .createIndex('webhook_delivery_leased_idx')
    .on('webhook_delivery')
    .column('webhook_id')
    .where(sql<boolean>`status = 'pending' and locked_until is not null`)
    .execute();
  await db.schema
    .createIndex('webhook_delivery_project_created_idx')
    .on('webhook_delivery')
    .columns(['project_id', 'created_at desc', 'id desc'])
    .execute();
  await db.schema
    .alterTable('webhook_attempt')
    .addColumn('response_body', 'text')
    .addColumn('manual', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex('webhook_attempt_delivery_idx').on('webhook_attempt').columns(['delivery_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_attempt_delivery_idx').ifExists().execute();
  await db.schema.alterTable('webhook_attempt').dropColumn('manual').dropColumn('response_body').execute();
  await db.schema.dropIndex('webhook_delivery_project_created_idx').ifExists().execute();
  await db.schema.dropIndex('webhook_delivery_leased_idx').ifExists().execute();
  await db.schema.alterTable('webhook_delivery').dropColumn('resend_requested_at').dropColumn('max_attempts').execute();
  await db.schema
    .alterTable('webhook_config')
    .dropColumn('previous_secret_expires_at')
    .dropColumn('previous_secret_encrypted')
    .dropColumn('disabled_reason')
    .dropColumn('disabled_at')
    .dropColumn('failing_since')
    .execute();
}
