import { newId } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

export interface AccountUserRow {
  id: string;
  email: string;
  passwordHash: string;
  emailVerifiedAt: Date | null;
  disabledAt: Date | null;
}

/**
 * Users: the only writer of `app_user`. Users who sign in (docs/accounts.md), and the users the
 * admin CLI makes to own keys: those have no email, no password and no membership, and only
 * `createOperatorMade`, `findAny` and `findFirstOfOrganization` see them.
 */
export class UserRepository {
  constructor(private readonly db: Db) {}

  /** A new user whose first organization is `organizationId`; the email must be free (unique index). */
  async create(
    input: { email: string; passwordHash: string; organizationId: string; verified: boolean },
    executor: Executor = this.db,
  ): Promise<string> {
    const id = newId('usr');
    await executor
      .insertInto('app_user')
      .values({
        id,
        organization_id: input.organizationId,
        email: input.email,
        password_hash: input.passwordHash,
        email_verified_at: input.verified ? new Date() : null,
      })
      .execute();
    return id;
  }

  /** A user who only owns the admin CLI's keys of `organizationId`: no email, so never one who signs in. */
  async createOperatorMade(organizationId: string, executor: Executor = this.db): Promise<string> {
    const id = newId('usr');
    await executor.insertInto('app_user').values({ id, organization_id: organizationId }).execute();
    return id;
  }

  /** Any user, operator-made ones too, with the organization it was made in. */
  async findAny(id: string) {
    return this.db.selectFrom('app_user').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst();
  }

  /** The first user made in the organization: the default owner of the admin CLI's new keys. */
  async findFirstOfOrganization(organizationId: string) {
    return this.db
      .selectFrom('app_user')
      .select('id')
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
  }

  /** Case-insensitive: the index is on `lower(email)`. */
  async findByEmail(email: string, executor: Executor = this.db): Promise<AccountUserRow | undefined> {
    const row = await this.select(executor)
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
    return row && toAccountUser(row);
  }

  async findById(id: string, executor: Executor = this.db): Promise<AccountUserRow | undefined> {
    const row = await this.select(executor).where('id', '=', id).executeTakeFirst();
    return row && toAccountUser(row);
  }

  async setPassword(userId: string, passwordHash: string, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('app_user').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  }

  /** Idempotent: the first verification's time is kept. True when this call verified the address (it was not yet). */
  async markVerified(userId: string, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('app_user')
      .set({ email_verified_at: sql`now()` })
      .where('id', '=', userId)
      .where('email_verified_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Operators: a disabled user cannot sign in, and its sessions are revoked by the caller. */
  async setDisabled(userId: string, disabled: boolean, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('app_user')
      .set({ disabled_at: disabled ? sql`coalesce(disabled_at, now())` : null })
      .where('id', '=', userId)
      .where('email', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Operators: users who sign in, newest first, optionally those whose email contains `search`. */
  async list(options: { search?: string; limit: number }) {
    let query = this.db
      .selectFrom('app_user as u')
      .select([
        'u.id',
        'u.email',
        'u.email_verified_at',
        'u.disabled_at',
        'u.created_at',
        sql<number>`(select count(*) from membership m where m.user_id = u.id)`.as('organizations'),
      ])
      .where('u.email', 'is not', null)
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(options.limit);
    if (options.search) query = query.where(sql`strpos(lower(u.email), ${options.search.toLowerCase()})`, '>', 0);
    return query.execute();
  }

  private select(executor: Executor) {
    return executor
      .selectFrom('app_user')
      .select(['id', 'email', 'password_hash', 'email_verified_at', 'disabled_at'])
      .where('email', 'is not', null);
  }
}

function toAccountUser(row: {
  id: string;
  email: string | null;
  password_hash: string | null;
  email_verified_at: Date | null;
  disabled_at: Date | null;
}): AccountUserRow {
  return {
    id: row.id,
    email: row.email!,
    passwordHash: row.password_hash ?? '',
    emailVerifiedAt: row.email_verified_at,
    disabledAt: row.disabled_at,
  };
}
