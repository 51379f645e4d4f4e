import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';

export type Key = Schemas['ApiKey'];

/** Query keys of API keys: one list per project. */
export const keyKeys = {
  ofProject: (projectId: string) => ['keys', projectId] as const,
};

export const keysQuery = (projectId: string) =>
  queryOptions({
    queryKey: keyKeys.ofProject(projectId),
    queryFn: async () => (await unwrap(api.GET('/v1/account/projects/{projectId}/keys', { params: { path: { projectId } } }))).data,
  });

export const createKey = (projectId: string, body: Schemas['CreateKeyBody']) =>
  unwrap(api.POST('/v1/account/projects/{projectId}/keys', { params: { path: { projectId } }, body }));

export const rotateKey = (keyId: string, overlapSeconds: number) =>
  unwrap(api.POST('/v1/account/keys/{keyId}/rotate', { params: { path: { keyId } }, body: { overlapSeconds } }));

export const revokeKey = (keyId: string) => unwrap(api.DELETE('/v1/account/keys/{keyId}', { params: { path: { keyId } } }));

/** A key still works: not revoked, or revoked at the end of a rotation's overlap still to come. */
export const isLive = (k: Key) => !k.revokedAt || new Date(k.revokedAt) > new Date();
