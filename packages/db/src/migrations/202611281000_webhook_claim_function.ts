import { type Kysely, sql } from 'kysely';
import { WEBHOOK_CLAIM_DUE_SQL } from '../repositories/webhook-claim.sql';

/**
 * The webhook deliverer's claim as one function call, `webhook_claim_due`: its text, and what it
 * does and why, are in repositories/webhook-claim.sql.ts, beside the repository that calls it.
 * Claimants publish their loads in `webhook_claimant` and leases carry their owner
 * (`locked_by`). No claim reads the leased deliveries any more: the index that counted them is
 * dropped, and with it an index write of every claim and outcome.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('webhook_delivery').addColumn('locked_by', 'text').execute();
  await db.schema.dropIndex('webhook_delivery_leased_idx').ifExists().execute();
  // One row per deliverer process, rewritten by each of its claims: room for in-page updates.
  await sql`
    create table webhook_claimant (
      claimant_id text primary key,
      webhook_ids text[] not null,
      held int[] not null,
      expires_at timestamptz not null
    ) with (fillfactor = 50)`.execute(db);
  await sql.raw(WEBHOOK_CLAIM_DUE_SQL).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists webhook_claim_due(text, int, int, int, text[], int[], text[])`.execute(db);
  await sql`drop table if exists webhook_claimant`.execute(db);
  await sql`
    create index webhook_delivery_leased_idx on webhook_delivery (webhook_id)
    where status = 'pending' and locked_until is not null`.execute(db);
  await db.schema.alterTable('webhook_delivery').dropColumn('locked_by').execute();
}
