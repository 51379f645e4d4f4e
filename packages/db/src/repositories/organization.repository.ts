import { newId, type Plan } from '@crawl/core';
import type { Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

/** The organization fields a principal carries (plan and limits). */
export interface OrganizationLimits {
  organizationId: string;
  plan: Plan;
  perMinuteLimit: number | null;
  maxSchedulesPerProject: number | null;
  minScheduleIntervalSeconds: number | null;
}

/** `OrganizationLimits`' columns, for a query joining the organization as `o`. */
export const ORGANIZATION_LIMITS = [
  'o.id as organizationId',
  'o.plan as plan',
  'o.per_minute_limit as perMinuteLimit',
  'o.max_schedules_per_project as maxSchedulesPerProject',
  'o.min_schedule_interval_seconds as minScheduleIntervalSeconds',
] as const;

/**
 * Organizations, the top of the tenancy tree (docs/tenancy-and-credits.md): their plan and the
 * limits an operator sets. Credits are credit.repository.ts's.
 */
export class OrganizationRepository {
  constructor(private readonly db: Db) {}

  async create(input: { name: string; plan: Plan; perMinuteLimit?: number | null }, executor: Executor = this.db): Promise<string> {
    const id = newId('org');
    await executor
      .insertInto('organization')
      .values({ id, name: input.name, plan: input.plan, per_minute_limit: input.perMinuteLimit ?? null })
      .execute();
    return id;
  }

  async exists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('organization').select('id').where('id', '=', id).executeTakeFirst();
    return !!row;
  }

  /** False on a fresh database (no tenant yet): `pnpm start` then creates a demo project. */
  async hasAny(): Promise<boolean> {
    const row = await this.db.selectFrom('organization').select('id').limit(1).executeTakeFirst();
    return !!row;
  }

  async find(organizationId: string, executor: Executor = this.db) {
    return executor
      .selectFrom('organization as o')
      .select(['o.name', 'o.credit_balance as creditBalance', ...ORGANIZATION_LIMITS])
      .where('o.id', '=', organizationId)
      .executeTakeFirst();
  }

  async setPlan(organizationId: string, plan: Plan, perMinuteLimit: number | null, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('organization')
      .set({ plan, per_minute_limit: perMinuteLimit })
      .where('id', '=', organizationId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Per-organization schedule limits; a null keeps (or returns to) the plan's default. */
  async setScheduleLimits(
    organizationId: string,
    limits: { maxPerProject?: number | null; minIntervalSeconds?: number | null },
    executor: Executor = this.db,
  ): Promise<boolean> {
    const result = await executor
      .updateTable('organization')
      .set({
        ...(limits.maxPerProject !== undefined ? { max_schedules_per_project: limits.maxPerProject } : {}),
        ...(limits.minIntervalSeconds !== undefined ? { min_schedule_interval_seconds: limits.minIntervalSeconds } : {}),
      })
      .where('id', '=', organizationId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The organization's own live-project limit; null returns it to the plan's. False when the organization does not exist. */
  async setProjectLimit(organizationId: string, maxProjects: number | null, executor: Executor = this.db): Promise<boolean> {
    const result = await executor
      .updateTable('organization')
      .set({ max_projects: maxProjects })
      .where('id', '=', organizationId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
