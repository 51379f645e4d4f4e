import { newId, type KeyScope, type Role } from '@crawl/core';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../connection';
import type { Database } from '../schema';
import { OWNER_SIGNS_IN } from './key-owner';
import { ORGANIZATION_LIMITS, type OrganizationLimits } from './organization.repository';

type Executor = Db | Transaction<Database>;

export interface ApiKeyRow {
  id: string;
  projectId: string;
  organizationId: string;
  label: string;
  prefix: string;
  keyHash: string;
  scope: KeyScope;
  createdAt: Date;
  createdBy: string;
  createdByEmail: string | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** The creator's current role in the key's organization (null: no membership), for `effectiveKeyScope`. */
  ownerRole: Role | null;
  ownerSignsIn: boolean;
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

/**
 * API keys: the only writer of `api_key`, for the account API, the admin CLI and tests alike,
 * and the read authentication makes of a key by its hash.
 */
export class ApiKeyRepository {
  constructor(private readonly db: Db) {}

  async insert(
    input: {
      projectId: string;
      userId: string;
      keyPrefix: string;
      keyHash: string;
      label: string;
      scope: KeyScope;
      expiresAt: Date | null;
      rotatedFrom?: string;
    },
    executor: Executor = this.db,
  ): Promise<string> {
    const id = newId('key');
    await executor
      .insertInto('api_key')
      .values({
        id,
        project_id: input.projectId,
        user_id: input.userId,
        key_prefix: input.keyPrefix,
        key_hash: input.keyHash,
        label: input.label,
        scope: input.scope,
        expires_at: input.expiresAt,
        rotated_from: input.rotatedFrom ?? null,
      })
      .execute();
    return id;
  }

  /** One indexed lookup (then cached by the gateway): the key, its owner's standing, its project and the organization's plan. */
  async findByHash(keyHash: string): Promise<KeyRecord | undefined> {
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

  /** A project's keys, newest first; only those `createdBy` made when given. */
  async list(projectId: string, createdBy?: string): Promise<ApiKeyRow[]> {
    let query = this.select(this.db).where('k.project_id', '=', projectId);
    if (createdBy) query = query.where('k.user_id', '=', createdBy);
    return (await query.orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute()) as ApiKeyRow[];
  }

  /** A project's live keys: not revoked, or revoked in the future (a rotated key in its overlap). */
  async countLive(projectId: string, executor: Executor = this.db): Promise<number> {
    const row = await executor
      .selectFrom('api_key')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', projectId)
      .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', sql<Date>`now()`)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(keyId: string, executor: Executor = this.db): Promise<ApiKeyRow | undefined> {
    return (await this.select(executor).where('k.id', '=', keyId).executeTakeFirst()) as ApiKeyRow | undefined;
  }

  /**
   * Revokes the key at `at` (now, or the end of a rotation's overlap), unless it already stops
   * earlier. Its hash, for the gateways' caches, when the key was live.
   */
  async revoke(keyId: string, at: Date, executor: Executor = this.db): Promise<string | undefined> {
    const row = await executor
      .updateTable('api_key')
      .set({ revoked_at: at })
      .where('id', '=', keyId)
      .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', at)]))
      .returning('key_hash')
      .executeTakeFirst();
    return row?.key_hash;
  }

  /**
   * The key with this prefix (undefined when none), revoked now unless it already stopped; a
   * rotated key still in its overlap stops now too. `revoked`: by this call.
   */
  async revokeByPrefix(
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

  /** An archived project's keys, revoked at once; their ids. */
  async revokeAllOfProject(projectId: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('project_id', '=', projectId)
      .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', sql<Date>`now()`)]))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** The keys a removed member made in the organization's projects, revoked at once; their ids. */
  async revokeAllOfMember(organizationId: string, userId: string, executor: Executor = this.db): Promise<string[]> {
    const rows = await executor
      .updateTable('api_key')
      .set({ revoked_at: new Date() })
      .where('user_id', '=', userId)
      .where('project_id', 'in', (eb) => eb.selectFrom('project').select('id').where('organization_id', '=', organizationId))
      .where((eb) => eb.or([eb('revoked_at', 'is', null), eb('revoked_at', '>', sql<Date>`now()`)]))
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * `lastUsedAt` for every key used since the last flush, in one statement; a key written less
   * than a minute ago (by any gateway) is left alone.
   */
  async touchLastUsed(used: Array<{ id: string; at: Date }>): Promise<void> {
    if (!used.length) return;
    await sql`
      update api_key k set last_used_at = v.at
      from (select unnest(${sql.val(used.map((u) => u.id))}::text[]) as id, unnest(${sql.val(used.map((u) => u.at.toISOString()))}::timestamptz[]) as at) v
      where k.id = v.id and (k.last_used_at is null or k.last_used_at < v.at - interval '60 seconds')`.execute(this.db);
  }

  private select(executor: Executor) {
    return executor
      .selectFrom('api_key as k')
      .innerJoin('project as p', 'p.id', 'k.project_id')
      .leftJoin('app_user as u', 'u.id', 'k.user_id')
      .leftJoin('membership as m', (join) => join.onRef('m.user_id', '=', 'k.user_id').onRef('m.organization_id', '=', 'p.organization_id'))
      .select(OWNER_SIGNS_IN)
      .select([
        'k.id',
        'k.project_id as projectId',
        'p.organization_id as organizationId',
        'k.label',
        'k.key_prefix as prefix',
        'k.key_hash as keyHash',
        'k.scope',
        'k.created_at as createdAt',
        'k.user_id as createdBy',
        'u.email as createdByEmail',
        'k.last_used_at as lastUsedAt',
        'k.expires_at as expiresAt',
        'k.revoked_at as revokedAt',
        'm.role as ownerRole',
      ]);
  }
}
