import { effectiveKeyScope, type Role, roleAllows } from '@crawl/core';
import type { KeyRecord, ProjectPrincipal, ProjectRecord } from '@crawl/db';

/** Who a `/v1/key` request acts as: an API key, or a signed-in user with their role in the project's organization. */
export type Caller = { via: 'key'; key: KeyRecord } | { via: 'session'; userId: string; project: ProjectRecord; role: Role };

/**
 * The principal of a `/v1/key` request, built the same way for a key and a session. `canWrite`
 * is the key's effective scope (the lesser of its scope and its owner's current role) or the
 * user's role: a viewer and a demoted developer's key read only.
 */
export function principalOf(caller: Caller): ProjectPrincipal {
  const [source, keyId, userId, canWrite] =
    caller.via === 'key'
      ? [caller.key, caller.key.keyId, caller.key.userId, effectiveKeyScope(caller.key) === 'full']
      : [caller.project, null, caller.userId, roleAllows(caller.role, 'data.write')];
  return {
    via: caller.via,
    keyId,
    projectId: source.projectId,
    userId,
    organizationId: source.organizationId,
    plan: source.plan,
    perMinuteLimit: source.perMinuteLimit,
    maxSchedulesPerProject: source.maxSchedulesPerProject,
    minScheduleIntervalSeconds: source.minScheduleIntervalSeconds,
    canWrite,
  };
}
