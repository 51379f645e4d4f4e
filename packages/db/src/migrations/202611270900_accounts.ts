import { type Kysely, sql } from 'kysely';

/**
 * Self-serve accounts (docs/accounts.md): users who sign in, their memberships and roles,
 * console sessions, single-use mail tokens, invitations, labelled and scoped API keys, archived
 * projects and the audit log.
 *
 * - `app_user` gains an email (unique case-insensitively, through an index on `lower(email)`),
 *   an argon2id password hash and the time the email was verified. Users made by the admin CLI
 *   keep both null: they own keys and never sign in. `organization_id` stays the user's first
 *   organization; what a user may reach is decided by `membership` alone.
 * - Every secret (session token, mail token, invitation token) is stored as its SHA-256 hash:
 *   the tokens are 256-bit random, so a fast hash is enough, and a database leak yields nothing
 *   usable.
 * - `api_key.revoked_at` may lie in the future: a rotated key keeps working until then.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('app_user')
    .addColumn('email', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('email_verified_at', 'timestamptz')
    .addColumn('disabled_at', 'timestamptz')
    .execute();
  await sql`create unique index app_user_email_idx on app_user (lower(email)) where email is not null`.execute(db);

  await db.schema
    .createTable('membership')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('app_user.id'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'developer', 'viewer')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('membership_pkey', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('membership_user_idx').on('membership').column('user_id').execute();

  await db.schema
    .createTable('user_session')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('app_user.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('client_address', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('user_session_user_idx').on('user_session').column('user_id').execute();

  await db.schema
    .createTable('account_token')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('verify_email', 'password_reset')`))
    .addColumn('user_id', 'text', (c) => c.notNull().references('app_user.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('account_token_user_idx').on('account_token').columns(['user_id', 'purpose']).execute();

  await db.schema
    .createTable('invitation')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'developer', 'viewer')`))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.references('app_user.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('invitation_org_idx').on('invitation').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .alterTable('api_key')
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scope', 'text', (c) =>
      c
        .notNull()
        .defaultTo('full')
        .check(sql`scope in ('full', 'read')`),
    )
    .addColumn('expires_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('rotated_from', 'text')
    .execute();
  await db.schema.createIndex('api_key_project_idx').on('api_key').columns(['project_id', 'created_at']).execute();

  await db.schema.alterTable('project').addColumn('archived_at', 'timestamptz').execute();
  await db.schema.createIndex('project_org_idx').on('project').columns(['organization_id', 'created_at']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organization.id'))
    .addColumn('actor_user_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text')
    .addColumn('subject_id', 'text')
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('client_address', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('audit_log_org_idx').on('audit_log').columns(['organization_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropIndex('project_org_idx').execute();
  await db.schema.alterTable('project').dropColumn('archived_at').execute();
  await db.schema.dropIndex('api_key_project_idx').execute();
  await db.schema
    .alterTable('api_key')
    .dropColumn('rotated_from')
    .dropColumn('last_used_at')
    .dropColumn('expires_at')
    .dropColumn('scope')
    .dropColumn('label')
    .execute();
  await db.schema.dropTable('invitation').execute();
  await db.schema.dropTable('account_token').execute();
  await db.schema.dropTable('user_session').execute();
  await db.schema.dropTable('membership').execute();
  await sql`drop index app_user_email_idx`.execute(db);
  await db.schema
    .alterTable('app_user')
    .dropColumn('disabled_at')
    .dropColumn('email_verified_at')
    .dropColumn('password_hash')
    .dropColumn('email')
    .execute();
}
