import { newId, type Plan } from '@crawl/core';
import type { Db } from '../connection';

export interface KeyPrincipal {
  keyId: string;
  keyPrefix: string;
  projectId: string;
  userId: string;
  organizationId: string;
  plan: Plan;
  perMinuteLimit: number | null;
  maxSchedulesPerProject: number | null;
  minScheduleIntervalSeconds: number | null;
  revoked: boolean;
}

/** Organizations, users, projects and API keys: the tenancy tree of docs/tenancy-and-credits.md. */
export class TenancyRepository {
  constructor(private readonly db: Db) {}

  async createOrganization(input: { name: string; plan: Plan; perMinuteLimit?: number | null }): Promise<string> {
    const id = newId('org');
    await this.db
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

  async createProject(input: { organizationId: string; name: string }): Promise<string> {
    const id = newId('prj');
    await this.db.insertInto('project').values({ id, organization_id: input.organizationId, name: input.name }).execute();
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

  /** One indexed lookup per authenticated request: key, its project, user and organization plan. */
  async findPrincipalByKeyHash(keyHash: string): Promise<KeyPrincipal | undefined> {
    const row = await this.db
      .selectFrom('api_key as k')
      .innerJoin('app_user as u', 'u.id', 'k.user_id')
      .innerJoin('organization as o', 'o.id', 'u.organization_id')
      .select([
        'k.id as keyId',
        'k.key_prefix as keyPrefix',
        'k.project_id as projectId',
        'k.user_id as userId',
        'o.id as organizationId',
        'o.plan as plan',
        'o.per_minute_limit as perMinuteLimit',
        'o.max_schedules_per_project as maxSchedulesPerProject',
        'o.min_schedule_interval_seconds as minScheduleIntervalSeconds',
        'k.revoked_at as revokedAt',
      ])
      .where('k.key_hash', '=', keyHash)
      .executeTakeFirst();
    if (!row) return undefined;
    const { revokedAt, ...rest } = row;
    return { ...rest, revoked: revokedAt !== null };
  }

  async revokeKeyByPrefix(keyPrefix: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('key_prefix', '=', keyPrefix)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return true;
    const existing = await this.db.selectFrom('api_key').select('id').where('key_prefix', '=', keyPrefix).executeTakeFirst();
    return !!existing;
  }

  async setPlan(organizationId: string, plan: Plan, perMinuteLimit: number | null): Promise<boolean> {
    const result = await this.db
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
  ): Promise<boolean> {
    const result = await this.db
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
