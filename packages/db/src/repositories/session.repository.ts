import { newId } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

export interface SessionRow {
  id: string;
  userId: string;
  email: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** Console sessions: the cookie's token is stored only as its hash (docs/accounts.md). */
export class SessionRepository {
  constructor(private readonly db: Db) {}

  async create(
    input: { userId: string; tokenHash: string; expiresAt: Date; clientAddress: string | null; userAgent: string | null },
    executor: Executor = this.db,
  ): Promise<string> {
    const id = newId('ses');
    await executor
      .insertInto('user_session')
      .values({
        id,
        user_id: input.userId,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        client_address: input.clientAddress,
        user_agent: input.userAgent?.slice(0, 256) ?? null,
      })
      .execute();
    return id;
  }

  /** The live session of a token: not revoked, not past its absolute expiry, its user enabled. Idle expiry is the caller's. */
  async findLive(tokenHash: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('user_session as s')
      .innerJoin('app_user as u', 'u.id', 's.user_id')
      .select([
        's.id',
        's.user_id as userId',
        'u.email',
        's.created_at as createdAt',
        's.last_seen_at as lastSeenAt',
        's.expires_at as expiresAt',
      ])
      .where('s.token_hash', '=', tokenHash)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', sql<Date>`now()`)
      .where('u.disabled_at', 'is', null)
      .$narrowType<{ email: string }>()
      .executeTakeFirst();
  }

  /** The user's sessions not revoked and not past their absolute expiry, newest first (idle expiry is the caller's). */
  async listLiveOfUser(userId: string): Promise<Array<Omit<SessionRow, 'email'> & { userAgent: string | null }>> {
    return this.db
      .selectFrom('user_session')
      .select([
        'id',
        'user_id as userId',
        'created_at as createdAt',
        'last_seen_at as lastSeenAt',
        'expires_at as expiresAt',
        'user_agent as userAgent',
      ])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Revokes one live session, only if it is the user's; false when the user has no such live session. */
  async revokeOfUser(userId: string, sessionId: string): Promise<boolean> {
    const rows = await this.db
      .updateTable('user_session')
      .set({ revoked_at: new Date() })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('id')
      .execute();
    return rows.length > 0;
  }

  async revoke(sessionId: string, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable('user_session')
      .set({ revoked_at: new Date() })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  /**
   * Keeps the user's `keep` newest live sessions (not revoked, not past their absolute expiry)
   * and revokes the older ones; returns the revoked ids, so caches can forget them.
   */
  async revokeOldestBeyond(userId: string, keep: number, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .updateTable('user_session')
      .set({ revoked_at: new Date() })
      .where(
        'id',
        'in',
        executor
          .selectFrom('user_session')
          .select('id')
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', sql<Date>`now()`)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .offset(keep),
      )
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Every live session of the user, but `exceptSessionId` (the one changing the password keeps working). */
  async revokeAllOfUser(userId: string, executor: Executor = this.db, exceptSessionId?: string): Promise<void> {
    let query = executor
      .updateTable('user_session')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptSessionId) query = query.where('id', '<>', exceptSessionId);
    await query.execute();
  }

  /** Batched idle-expiry bookkeeping: one statement for every session seen since the last flush. */
  async touch(seen: Array<{ id: string; at: Date }>): Promise<void> {
    if (!seen.length) return;
    await sql`
      update user_session s set last_seen_at = v.at
      from (select unnest(${sql.val(seen.map((s) => s.id))}::text[]) as id, unnest(${sql.val(seen.map((s) => s.at.toISOString()))}::timestamptz[]) as at) v
      where s.id = v.id and s.last_seen_at < v.at`.execute(this.db);
  }
}
