import { newId, type Role } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

export interface InvitationRow {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

const COLUMNS = [
  'id',
  'organization_id as organizationId',
  'email',
  'role',
  'invited_by as invitedBy',
  'created_at as createdAt',
  'expires_at as expiresAt',
] as const;

/** Invitations to join an organization, accepted with a single-use mailed token. */
export class InvitationRepository {
  constructor(private readonly db: Db) {}

  async create(
    input: { organizationId: string; email: string; role: Role; tokenHash: string; invitedBy: string; expiresAt: Date },
    executor: Executor = this.db,
  ): Promise<InvitationRow> {
    const row = await executor
      .insertInto('invitation')
      .values({
        id: newId('inv'),
        organization_id: input.organizationId,
        email: input.email,
        role: input.role,
        token_hash: input.tokenHash,
        invited_by: input.invitedBy,
        expires_at: input.expiresAt,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return row as InvitationRow;
  }

  /** Invitations not accepted, revoked or expired, newest first. */
  async pending(organizationId: string): Promise<InvitationRow[]> {
    const rows = await this.db
      .selectFrom('invitation')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows as InvitationRow[];
  }

  /** Marks the invitation accepted: one conditional UPDATE, so a token works once. */
  async accept(tokenHash: string, executor: Executor = this.db): Promise<InvitationRow | undefined> {
    const row = await executor
      .updateTable('invitation')
      .set({ accepted_at: new Date() })
      .where('token_hash', '=', tokenHash)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row as InvitationRow | undefined;
  }

  async revoke(organizationId: string, invitationId: string, executor: Executor = this.db): Promise<InvitationRow | undefined> {
    const row = await executor
      .updateTable('invitation')
      .set({ revoked_at: new Date() })
      .where('id', '=', invitationId)
      .where('organization_id', '=', organizationId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row as InvitationRow | undefined;
  }
}
