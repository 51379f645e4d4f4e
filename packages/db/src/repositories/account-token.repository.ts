import { newId } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

export type AccountTokenPurpose = 'verify_email' | 'password_reset';

/** Single-use mail tokens (email verification, password reset), stored as hashes. */
export class AccountTokenRepository {
  constructor(private readonly db: Db) {}

  async create(
    input: { purpose: AccountTokenPurpose; userId: string; tokenHash: string; expiresAt: Date },
    executor: Executor = this.db,
  ): Promise<void> {
    await executor
      .insertInto('account_token')
      .values({ id: newId('tok'), purpose: input.purpose, user_id: input.userId, token_hash: input.tokenHash, expires_at: input.expiresAt })
      .execute();
  }

  /**
   * Uses the token: one conditional UPDATE, so two concurrent uses cannot both succeed. The
   * user id when the token was valid (right purpose, unused, unexpired); undefined otherwise.
   */
  async consume(purpose: AccountTokenPurpose, tokenHash: string, executor: Executor = this.db): Promise<string | undefined> {
    const row = await executor
      .updateTable('account_token')
      .set({ used_at: new Date() })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  /**
   * The user of a token that was issued for `purpose` and has been used (or made useless by a
   * newer one), expired or not: what lets a link opened again say what became of it, to whoever
   * holds the link, and to nobody else. Undefined for a token never issued.
   */
  async findUsed(purpose: AccountTokenPurpose, tokenHash: string, executor: Executor = this.db): Promise<string | undefined> {
    const row = await executor
      .selectFrom('account_token')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is not', null)
      .executeTakeFirst();
    return row?.user_id;
  }

  /** A new reset link makes the older ones useless, and a reset ends every outstanding one. */
  async expireOutstanding(userId: string, purpose: AccountTokenPurpose, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable('account_token')
      .set({ used_at: new Date() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }
}
