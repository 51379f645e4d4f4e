import { newId, type Plan } from '@crawl/core';
import type { Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';
import { ORGANIZATION_LIMITS, type OrganizationLimits } from './organization.repository';

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

const PROJECT_COLUMNS = [
  'id',
  'organization_id as organizationId',
  'name',
  'created_at as createdAt',
  'archived_at as archivedAt',
] as const;

/** Projects of an organization (docs/tenancy-and-credits.md); their keys are api-key.repository.ts's. */
export class ProjectRepository {
  constructor(private readonly db: Db) {}

  async create(input: { organizationId: string; name: string }, executor: Executor = this.db): Promise<string> {
    const id = newId('prj');
    await executor.insertInto('project').values({ id, organization_id: input.organizationId, name: input.name }).execute();
    return id;
  }

  async find(projectId: string, executor: Executor = this.db): Promise<ProjectRow | undefined> {
    return executor.selectFrom('project').select(PROJECT_COLUMNS).where('id', '=', projectId).executeTakeFirst();
  }

  /** A project with its organization's plan and limits (a session acting in it). */
  async findRecord(projectId: string): Promise<ProjectRecord | undefined> {
    const row = await this.db
      .selectFrom('project as p')
      .innerJoin('organization as o', 'o.id', 'p.organization_id')
      .select(['p.id as projectId', 'p.name', 'p.archived_at as archivedAt', ...ORGANIZATION_LIMITS])
      .where('p.id', '=', projectId)
      .executeTakeFirst();
    return row as ProjectRecord | undefined;
  }

  async list(organizationId: string): Promise<ProjectRow[]> {
    return this.db
      .selectFrom('project')
      .select(PROJECT_COLUMNS)
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /**
   * Locks the organization's row until the caller's transaction ends, and answers what a new
   * project is judged by: its plan, its own limit (null: the plan's) and its live projects.
   * Concurrent creates queue on the lock, so two cannot both take the last place. Undefined
   * when the organization does not exist.
   */
  async lockRoom(
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

  async rename(projectId: string, name: string, executor: Executor = this.db): Promise<void> {
    await executor.updateTable('project').set({ name }).where('id', '=', projectId).execute();
  }

  /** Locks the project's row until the caller's transaction ends (an archive against a concurrent one). */
  async lock(projectId: string, trx: Transaction<Database>): Promise<void> {
    await trx.selectFrom('project').select('id').where('id', '=', projectId).forUpdate().execute();
  }

  /** Marks the project archived and disables its schedules: an archived project starts no job. */
  async archive(projectId: string, executor: Executor = this.db): Promise<void> {
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
}
