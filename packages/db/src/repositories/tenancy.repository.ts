import { newId, type Plan } from '@crawl/core';
import type { Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';

type Executor = Db | Transaction<Database>;

/**
 * Who a project API request (`/v1/key/...`) acts as, and in which project: an API key, or a
 * console session in a project of one of its user's organizations (docs/accounts.md).
 */
export interface ProjectPrincipal {
  via: 'key' | 'session';
  /** null for a session. */
  keyId: string | null;
  projectId: string;
  /** Rate limits count per user, whichever way the user came in. */
  userId: string;
  organizationId: string;
  plan: Plan;
  perMinuteLimit: number | null;
  maxSchedulesPerProject: number | null;
  minScheduleIntervalSeconds: number | null;
  /** false for a `read` key and a viewer's session: GET only. */
  canWrite: boolean;
}

/** The organization fields a principal carries (plan and limits). */
export interface OrganizationLimits {
  organizationId: string;
  plan: Plan;
  perMinuteLimit: number | null;
  maxSchedulesPerProject: number | null;
  minScheduleIntervalSeconds: number | null;
}

/** A project and its organization's limits: what a session needs to act in it. */
export interface ProjectRecord extends OrganizationLimits {
  projectId: string;
  name: string;
  archivedAt: Date | null;
}

export interface ProjectRow {
  id: string;
  organizationId: string;
  name: string;
  createdAt: Date;
  archivedAt: Date | null;
}

export const ORGANIZATION_LIMITS = [
  'o.id as organizationId',
  'o.plan as plan',
  'o.per_minute_limit as perMinuteLimit',
  'o.max_schedules_per_project as maxSchedulesPerProject',
  'o.min_schedule_interval_seconds as minScheduleIntervalSeconds',
] as const;

/** Organizations, users, projects and API keys: the tenancy tree of docs/tenancy-and-credits.md. */
export class TenancyRepository {
  constructor(private readonly db: Db) {}

  async createOrganization(
    input: { name: string; plan: Plan; perMinuteLimit?: number | null },
    executor: Executor = this.db,
  ): Promise<string> {
    const id = newId('org');
    await executor
      .insertInto('organization')
      .values({ id, name: input.name, plan: input.plan, per_minute_limit: input.perMinuteLimit ?? null })
      .execute();
    return id;
  }

  async organizationExists(id: string): Promise<boolean> {
    const row = await this.db.selectFrom('organization').select('id').where('id', '=', id).executeTakeFirst();
    return !!row;
  }

  /** False on a fresh database (no tenant yet): `pnpm start` then creates a demo project. */
  async hasAnyOrganization(): Promise<boolean> {
    const row = await this.db.selectFrom('organization').select('id').limit(1).executeTakeFirst();
    return !!row;
  }

  /**
   * Locks the organization's row until the caller's transaction ends, and answers what a new
   * project is judged by: its plan, its own limit (null: the plan's) and its live projects.
   * Concurrent creates queue on the lock, so two cannot both take the last place. Undefined
   * when the organization does not exist.
   */
  async lockProjectRoom(
    organizationId: string,
    trx: Transaction<Database>,
  ): Promise<{ plan: Plan; maxProjects: number | null; liveProjects: number } | undefined> {
    const org = await trx
      .selectFrom('organization')
      .select(['plan', 'max_projects as maxProjects'])
      .where('id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!org) return undefined;
    const live = await trx
      .selectFrom('project')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('archived_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { plan: org.plan, maxProjects: org.maxProjects, liveProjects: Number(live.n) };
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

  /** Runs `work` in one transaction (the admin CLI: a change, its checks and its audit entry commit together). */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async createProject(input: { organizationId: string; name: string }, executor: Executor = this.db): Promise<string> {
    const id = newId('prj');
    await executor.insertInto('project').values({ id, organization_id: input.organizationId, name: input.name }).execute();
    return id;
  }

  async findProject(id: string) {
    return this.db.selectFrom('project').select(['id', 'organization_id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  /** A project with its organization's plan and limits (a session acting in it). */
  async findProjectRecord(projectId: string): Promise<ProjectRecord | undefined> {
    const row = await this.db
      .selectFrom('project as p')
      .innerJoin('organization as o', 'o.id', 'p.organization_id')
      .select(['p.id as projectId', 'p.name', 'p.archived_at as archivedAt', ...ORGANIZATION_LIMITS])
      .where('p.id', '=', projectId)
      .executeTakeFirst();
    return row as ProjectRecord | undefined;
  }

  async listProjects(organizationId: string): Promise<ProjectRow[]> {
    return this.db
      .selectFrom('project')
      .select(['id', 'organization_id as organizationId', 'name', 'created_at as createdAt', 'archived_at as archivedAt'])
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async projectRow(projectId: string, executor: Executor = this.db): Promise<ProjectRow | undefined> {
    return executor
      .selectFrom('project')
      .select(['id', 'organization_id as organizationId', 'name', 'created_at as createdAt', 'archived_at as archivedAt'])
      .where('id', '=', projectId)
      .executeTakeFirst();
  }

  async renameProject(projectId: string, name: string, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('project').set({ name }).where('id', '=', projectId).execute();
  }

  /** Locks the project's row until the caller's transaction ends (an archive against a concurrent one). */
  async lockProject(projectId: string, trx: Transaction<Database>): Promise<void> {
    await trx.selectFrom('project').select('id').where('id', '=', projectId).forUpdate().execute();
  }

  /** Marks the project archived and disables its schedules: an archived project starts no job. */
  async archiveProject(projectId: string, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('schedule').set({ enabled: false }).where('project_id', '=', projectId).execute();
    await executor
      .updateTable('project')
      .set({ archived_at: new Date() })
      .where('id', '=', projectId)
      .where('archived_at', 'is', null)
      .execute();
  }

  /** Whether a project has jobs still queued or running (an archive waits for them). */
  async hasActiveJobs(projectId: string, executor: Executor = this.db): Promise<boolean> {
    const row = await executor
      .selectFrom('job')
      .select('id')
      .where('project_id', '=', projectId)
      .where('status', 'in', ['queued', 'running'])
      .limit(1)
      .executeTakeFirst();
    return !!row;
  }

  async findOrganization(organizationId: string, executor: Executor = this.db) {
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
}
