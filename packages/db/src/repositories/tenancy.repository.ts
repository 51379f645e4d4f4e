import { newId, type KeyScope, type Plan, type Role } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';
import { OWNER_SIGNS_IN } from './key-owner';

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

/** A key as authentication sees it; revocation and expiry are judged per request (a rotated key's end lies ahead). */
export interface KeyRecord extends OrganizationLimits {
  keyId: string;
  keyPrefix: string;
  label: string;
  scope: KeyScope;
  projectId: string;
  userId: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  /** When an operator disabled the key's owner (`admin disable-user`): a disabled user's keys are refused. */
  ownerDisabledAt: Date | null;
  /** The owner's current role in the key's organization (null: no membership); with `ownerSignsIn`, what `effectiveKeyScope` judges. */
  ownerRole: Role | null;
  ownerSignsIn: boolean;
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

const ORGANIZATION_LIMITS = [
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

  async createUser(organizationId: string): Promise<string> {
    const id = newId('usr');
    await this.db.insertInto('app_user').values({ id, organization_id: organizationId }).execute();
    return id;
  }

  async findUser(id: string) {
    return this.db.selectFrom('app_user').select(['id', 'organization_id']).where('id', '=', id).executeTakeFirst();
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

  /** The first user created for the project's organization: the default owner of new keys. */
  async findFirstUserOfOrganization(organizationId: string) {
    return this.db
      .selectFrom('app_user')
      .select('id')
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
  }

  async insertApiKey(input: { projectId: string; userId: string; keyPrefix: string; keyHash: string }): Promise<string> {
    const id = newId('key');
    await this.db
      .insertInto('api_key')
      .values({ id, project_id: input.projectId, user_id: input.userId, key_prefix: input.keyPrefix, key_hash: input.keyHash })
      .execute();
    return id;
  }

  /** One indexed lookup (then cached by the gateway): the key, its owner's standing, its project and the organization's plan. */
  async findKeyByHash(keyHash: string): Promise<KeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_key as k')
      .innerJoin('project as p', 'p.id', 'k.project_id')
      .innerJoin('organization as o', 'o.id', 'p.organization_id')
      .innerJoin('app_user as u', 'u.id', 'k.user_id')
      .leftJoin('membership as m', (join) => join.onRef('m.user_id', '=', 'k.user_id').onRef('m.organization_id', '=', 'p.organization_id'))
      .select([
        'k.id as keyId',
        'k.key_prefix as keyPrefix',
        'k.label',
        'k.scope',
        'k.project_id as projectId',
        'k.user_id as userId',
        'k.revoked_at as revokedAt',
        'k.expires_at as expiresAt',
        'u.disabled_at as ownerDisabledAt',
        'm.role as ownerRole',
        ...ORGANIZATION_LIMITS,
      ])
      .select(OWNER_SIGNS_IN)
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
    return row as KeyRecord | undefined;
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

  /**
   * The key (undefined when no key has the prefix), revoked now unless it already stopped; a
   * rotated key still in its overlap stops now too. `revoked`: by this call.
   */
  async revokeKeyByPrefix(
    keyPrefix: string,
    executor: Executor = this.db,
  ): Promise<{ keyId: string; organizationId: string; revoked: boolean } | undefined> {
    const result = await executor
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('key_prefix', '=', keyPrefix)
      .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', sql<Date>`now()`)]))
      .executeTakeFirst();
    const key = await executor
      .selectFrom('api_key as k')
      .innerJoin('project as p', 'p.id', 'k.project_id')
      .select(['k.id as keyId', 'p.organization_id as organizationId'])
      .where('k.key_prefix', '=', keyPrefix)
      .executeTakeFirst();
    return key && { ...key, revoked: Number(result.numUpdatedRows) > 0 };
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
