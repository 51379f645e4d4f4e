import {
  AppError,
  type ApiKeyResource,
  type CreatedApiKeyResource,
  effectiveKeyScope,
  generateApiKey,
  type KeyMeResource,
  type KeyScope,
  roleAllows,
} from '@crawl/core';
import type { ApiKeyRow, KeyRecord } from '@crawl/db';
import type { AccountDeps } from '../../accounts/account-deps';
import { requireRole } from '../../access/roles';
import type { AccountSession } from '../../access/sessions';
import type { RequestContext } from '../account/account.service';

/** Far above any real need; it keeps a project's key list (and a runaway script) bounded. */
export const MAX_LIVE_KEYS_PER_PROJECT = 100;

export const toApiKeyResource = (k: ApiKeyRow): ApiKeyResource => ({
  id: k.id,
  projectId: k.projectId,
  label: k.label,
  prefix: k.prefix,
  scope: k.scope,
  // a creator who left the organization: their keys are refused (and were revoked on removal)
  effectiveScope: effectiveKeyScope(k) ?? 'read',
  createdAt: k.createdAt.toISOString(),
  createdBy: k.createdBy,
  createdByEmail: k.createdByEmail,
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  expiresAt: k.expiresAt?.toISOString() ?? null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

export const toKeyMe = (k: KeyRecord): KeyMeResource => ({
  keyId: k.keyId,
  label: k.label,
  scope: k.scope,
  // authentication refuses a key whose owner left its organization: never null here
  effectiveScope: effectiveKeyScope(k) ?? 'read',
  projectId: k.projectId,
  organizationId: k.organizationId,
  userId: k.userId,
});

/**
 * A project's API keys through the account API (docs/accounts.md): developers make keys and
 * manage their own, owners and admins every key of the organization; viewers make none, but see
 * and revoke the ones they made before a demotion. A key's secret is returned once, at creation
 * or rotation; only its hash is kept.
 */
export class KeysService {
  constructor(private readonly deps: AccountDeps) {}

  async list(session: AccountSession, projectId: string): Promise<ApiKeyResource[]> {
    const project = await this.project(session, projectId);
    const all = roleAllows(requireRole(session, project.organizationId, 'keys.mine', `Project ${projectId}`), 'keys.all');
    return (await this.deps.keys.list(projectId, all ? undefined : session.userId)).map(toApiKeyResource);
  }

  async create(
    session: AccountSession,
    projectId: string,
    input: { label: string; scope: KeyScope; expiresAt?: Date | null },
    ctx: RequestContext,
  ): Promise<CreatedApiKeyResource> {
    const project = await this.project(session, projectId);
    requireRole(session, project.organizationId, 'keys.own', `Project ${projectId}`);
    if (project.archivedAt) throw new AppError('INVALID_STATE', 'This project is archived: it takes no new keys.');
    return this.issue(session, project.organizationId, { projectId, ...input, expiresAt: input.expiresAt ?? null }, ctx);
  }

  /**
   * A new key with the old one's label, scope and expiry; the old key keeps working for
   * `overlapSeconds` (so deployed clients can switch), then is revoked.
   */
  async rotate(session: AccountSession, keyId: string, overlapSeconds: number, ctx: RequestContext): Promise<CreatedApiKeyResource> {
    const key = await this.manageable(session, keyId);
    const until = new Date(Date.now() + overlapSeconds * 1000);
    const created = await this.issue(
      session,
      key.organizationId,
      { projectId: key.projectId, label: key.label, scope: key.scope, expiresAt: key.expiresAt, rotatedFrom: key.id, overlapEnds: until },
      ctx,
    );
    await this.deps.directory.changed([`key:${key.id}`]);
    return created;
  }

  async revoke(session: AccountSession, keyId: string, ctx: RequestContext): Promise<void> {
    const key = await this.manageable(session, keyId, { allowRevoked: true, permission: 'keys.mine' });
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.keys.revoke(key.id, new Date(), trx))) return;
      await this.deps.audit.record(
        {
          organizationId: key.organizationId,
          actorUserId: session.userId,
          action: 'key.revoked',
          subject: { type: 'key', id: key.id },
          details: { label: key.label, prefix: key.prefix },
          clientAddress: ctx.clientAddress,
        },
        trx,
      );
    });
    await this.deps.directory.changed([`key:${key.id}`]);
  }

  /**
   * Inserts the key, counting the project's live keys in the same transaction under a lock on the
   * project's row, so concurrent creates cannot pass the cap together (nor an archive slip in
   * between). A rotation without an overlap replaces a live key; with one it adds one until the
   * overlap ends, so it counts like a create.
   */
  private async issue(
    session: AccountSession,
    organizationId: string,
    input: { projectId: string; label: string; scope: KeyScope; expiresAt: Date | null; rotatedFrom?: string; overlapEnds?: Date },
    ctx: RequestContext,
  ): Promise<CreatedApiKeyResource> {
    const secret = generateApiKey();
    const addsLiveKey = !input.rotatedFrom || input.overlapEnds!.getTime() > Date.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.projects.lock(input.projectId, trx);
      if ((await this.deps.projects.find(input.projectId, trx))?.archivedAt) {
        throw new AppError('INVALID_STATE', 'This project is archived: it takes no new keys.');
      }
      if (addsLiveKey && (await this.deps.keys.countLive(input.projectId, trx)) >= MAX_LIVE_KEYS_PER_PROJECT) {
        throw new AppError(
          'INVALID_STATE',
          `A project holds at most ${MAX_LIVE_KEYS_PER_PROJECT} live keys: revoke unused ones first${input.rotatedFrom ? ', or rotate without an overlap' : ''}.`,
        );
      }
      const id = await this.deps.keys.insert(
        {
          projectId: input.projectId,
          userId: session.userId,
          keyPrefix: secret.keyPrefix,
          keyHash: secret.keyHash,
          label: input.label,
          scope: input.scope,
          expiresAt: input.expiresAt,
          rotatedFrom: input.rotatedFrom,
        },
        trx,
      );
      if (input.rotatedFrom) await this.deps.keys.revoke(input.rotatedFrom, input.overlapEnds!, trx);
      await this.deps.audit.record(
        {
          organizationId,
          actorUserId: session.userId,
          action: input.rotatedFrom ? 'key.rotated' : 'key.created',
          subject: { type: 'key', id: input.rotatedFrom ?? id },
          details: input.rotatedFrom
            ? { newKeyId: id, prefix: secret.keyPrefix, overlapEndsAt: input.overlapEnds!.toISOString() }
            : { label: input.label, scope: input.scope, prefix: secret.keyPrefix },
          clientAddress: ctx.clientAddress,
        },
        trx,
      );
      return (await this.deps.keys.find(id, trx))!;
    });
    return { ...toApiKeyResource(row), secret: secret.apiKey };
  }

  private async project(session: AccountSession, projectId: string) {
    const project = await this.deps.projects.find(projectId);
    if (!project || !session.memberships.some((m) => m.organizationId === project.organizationId)) {
      throw new AppError('NOT_FOUND', `Project ${projectId} not found.`);
    }
    return project;
  }

  /**
   * A key the user may rotate (`keys.own`) or revoke (`keys.mine`): any key of the organization
   * for owners and admins, their own for the others.
   */
  private async manageable(
    session: AccountSession,
    keyId: string,
    options: { allowRevoked?: boolean; permission?: 'keys.own' | 'keys.mine' } = {},
  ): Promise<ApiKeyRow> {
    const key = await this.deps.keys.find(keyId);
    if (!key || !session.memberships.some((m) => m.organizationId === key.organizationId))
      throw new AppError('NOT_FOUND', `API key ${keyId} not found.`);
    const role = requireRole(session, key.organizationId, options.permission ?? 'keys.own', `API key ${keyId}`);
    if (!roleAllows(role, 'keys.all') && key.createdBy !== session.userId) {
      throw new AppError('FORBIDDEN', `Your role in this organization (${role}) manages only the keys you created.`);
    }
    if (!options.allowRevoked && key.revokedAt && key.revokedAt <= new Date())
      throw new AppError('INVALID_STATE', 'This API key is revoked.');
    return key;
  }
}
