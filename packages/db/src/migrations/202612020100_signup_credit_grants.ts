import { type Kysely, sql } from 'kysely';

/**
 * Sign-up credits are granted when an email is verified, to at most a set number of new
 * organizations a day (docs/accounts.md, "Limits"); the count is read from the audit log's
 * `email.verified` entries of the day, which this partial index keeps to an index range.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index audit_log_email_verified_idx on audit_log (created_at) where action = 'email.verified'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists audit_log_email_verified_idx`.execute(db);
}
