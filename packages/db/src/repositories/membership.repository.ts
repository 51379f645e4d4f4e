import type { Role } from '@crawl/core';
import type { Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

export interface UserMembership {
  organizationId: string;
  organizationName: string;
  role: Role;
}

export interface MemberRow {
  userId: string;
  email: string;
  role: Role;
  joinedAt: Date;
}

/** Who belongs to which organization, with which role (docs/accounts.md). */
export class MembershipRepository {
  constructor(private readonly db: Db) {}

  async add(input: { organizationId: string; userId: string; role: Role }, executor: Executor = this.db): Promise<void> {
    await executor
      .insertInto('membership')
      .values({ organization_id: input.organizationId, user_id: input.userId, role: input.role })
      .onConflict((c) => c.columns(['organization_id', 'user_id']).doNothing())
      .execute();
  }

  async ofUser(userId: string, executor: Executor = this.db): Promise<UserMembership[]> {
    const rows = await executor
      .selectFrom('membership as m')
      .innerJoin('organization as o', 'o.id', 'm.organization_id')
      .select(['m.organization_id as organizationId', 'o.name as organizationName', 'm.role'])
      .where('m.user_id', '=', userId)
      .orderBy('m.created_at')
      .orderBy('m.organization_id')
      .execute();
    return rows as UserMembership[];
  }

  async roleOf(organizationId: string, userId: string, executor: Executor = this.db): Promise<Role | undefined> {
    const row = await executor
      .selectFrom('membership')
      .select('role')
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role as Role | undefined;
  }

  async members(organizationId: string): Promise<MemberRow[]> {
    const rows = await this.db
      .selectFrom('membership as m')
      .innerJoin('app_user as u', 'u.id', 'm.user_id')
      .select(['m.user_id as userId', 'u.email', 'm.role', 'm.created_at as joinedAt'])
      .where('m.organization_id', '=', organizationId)
      .where('u.email', 'is not', null)
      .orderBy('m.created_at')
      .orderBy('m.user_id')
      .execute();
    return rows as MemberRow[];
  }

  /**
   * The owners of an organization, their membership rows locked until the transaction ends:
   * two owners demoting each other at once cannot leave the organization without one.
   */
  async lockOwners(organizationId: string, trx: Transaction<Database>): Promise<string[]> {
    const rows = await trx
      .selectFrom('membership')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'owner')
      .forUpdate()
      .execute();
    return rows.map((r) => r.user_id);
  }

  async setRole(organizationId: string, userId: string, role: Role, executor: Executor = this.db): Promise<void> {
    await executor
      .updateTable('membership')
      .set({ role })
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .execute();
  }

  async remove(organizationId: string, userId: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('membership').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
  }
}
