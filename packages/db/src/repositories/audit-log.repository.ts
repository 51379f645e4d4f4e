import type { AuditAction } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

export interface AuditEntryInput {
  organizationId: string;
  actorUserId: string | null;
  action: AuditAction;
  subject?: { type: string; id: string };
  details?: Record<string, unknown>;
  clientAddress: string | null;
}

export interface AuditEntryRow {
  id: number;
  action: AuditAction;
  actorUserId: string | null;
  actorEmail: string | null;
  subjectType: string | null;
  subjectId: string | null;
  details: Record<string, unknown>;
  clientAddress: string | null;
  createdAt: Date;
}

/** Account changes, append-only, written in the transaction of the change they record. */
export class AuditLogRepository {
  constructor(private readonly db: Db) {}

  async record(entries: AuditEntryInput | AuditEntryInput[], executor: Executor = this.db): Promise<void> {
    const list = Array.isArray(entries) ? entries : [entries];
    if (!list.length) return;
    await executor
      .insertInto('audit_log')
      .values(
        list.map((e) => ({
          organization_id: e.organizationId,
          actor_user_id: e.actorUserId,
          action: e.action,
          subject_type: e.subject?.type ?? null,
          subject_id: e.subject?.id ?? null,
          details: JSON.stringify(e.details ?? {}),
          client_address: e.clientAddress,
        })),
      )
      .execute();
  }

  /** Newest first. */
  async page(organizationId: string, limit: number, offset: number): Promise<{ rows: AuditEntryRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db
        .selectFrom('audit_log as a')
        .leftJoin('app_user as u', 'u.id', 'a.actor_user_id')
        .select([
          'a.id',
          'a.action',
          'a.actor_user_id as actorUserId',
          'u.email as actorEmail',
          'a.subject_type as subjectType',
          'a.subject_id as subjectId',
          'a.details',
          'a.client_address as clientAddress',
          'a.created_at as createdAt',
        ])
        .where('a.organization_id', '=', organizationId)
        .orderBy('a.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as AuditEntryRow[], total: Number(total.n) };
  }

  /** Whether `userId` made `organizationId` by signing up (its `signup` entry). */
  async signedUp(organizationId: string, userId: string, executor: Executor = this.db): Promise<boolean> {
    const row = await executor
      .selectFrom('audit_log')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('actor_user_id', '=', userId)
      .where('action', '=', 'signup')
      .executeTakeFirst();
    return !!row;
  }

  /**
   * Verified sign-ups granted their credits since the start of the day (UTC), counted under a
   * transaction-scoped lock that serializes the grants, so that the day's cap is exact.
   */
  async lockAndCountSignupGrantsToday(trx: Transaction<Database>): Promise<number> {
    await sql`select pg_advisory_xact_lock(hashtext('signup-credit-grants'))`.execute(trx);
    const row = await trx
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'email.verified')
      .where('created_at', '>=', sql<Date>`date_trunc('day', now() at time zone 'utc') at time zone 'utc'`)
      .where(sql<boolean>`(details->>'signupCredits')::int > 0`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
