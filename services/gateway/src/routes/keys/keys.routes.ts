import { apiKeySchema as ApiKey, createdApiKeySchema as CreatedApiKey, keyMeSchema as KeyMe } from '@crawl/core';
import { z } from 'zod';
import { sessionOf } from '../../access/account-guards';
import { context } from '../account/account.routes';
import { emptyBody } from '../schedules/schedules.schemas';
import { data } from '../operation';
import { parseOrThrow } from '../../validation';
import { type Resource, routesOf } from '../route';
import { CreateKeyBody, RotateKeyBody } from './keys.schemas';
import { KeysService, toKeyMe } from './keys.service';

const route = routesOf<KeysService>();
const param = (value: string | string[] | undefined) => String(value);

/** A project's API keys, managed by signed-in users (docs/accounts.md). */
export const keysRoutes = [
  route({
    method: 'get',
    path: '/v1/account/projects/{projectId}/keys',
    operationId: 'listApiKeys',
    access: 'session',
    tag: 'API keys',
    summary: 'List API keys',
    description:
      'Owners and admins see every key of the project, developers and viewers the keys they created; revoked keys included. Secrets are never shown again.',
    status: 200,
    response: data(z.array(ApiKey)),
    errors: [403, 404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: await service.list(sessionOf(req), param(req.params.projectId)) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/projects/{projectId}/keys',
    operationId: 'createApiKey',
    access: 'session',
    tag: 'API keys',
    summary: 'Create an API key',
    description: 'Answers the key with its `secret`, the only time it is shown. Owners, admins and developers.',
    body: CreateKeyBody,
    status: 201,
    response: data(CreatedApiKey),
    errors: [403, 404, 409],
    handler: async ({ req, service, body }) => {
      return { status: 201, body: { data: await service.create(sessionOf(req), param(req.params.projectId), body(), context(req)) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/keys/{keyId}/rotate',
    operationId: 'rotateApiKey',
    access: 'session',
    tag: 'API keys',
    summary: 'Rotate an API key',
    description:
      'Answers a new key (with its `secret`) of the same label, scope and expiry. The old key keeps working for `overlapSeconds`, then is revoked on every gateway.',
    body: RotateKeyBody,
    bodyOptional: true,
    status: 201,
    response: data(CreatedApiKey),
    errors: [403, 404, 409],
    handler: async ({ req, service }) => {
      const { overlapSeconds } = parseOrThrow(RotateKeyBody, req.body ?? {}, 'body');
      return { status: 201, body: { data: await service.rotate(sessionOf(req), param(req.params.keyId), overlapSeconds, context(req)) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/account/keys/{keyId}',
    operationId: 'revokeApiKey',
    access: 'session',
    tag: 'API keys',
    summary: 'Revoke an API key',
    description:
      'Revoked at once, on every gateway. Revoking a revoked key changes nothing. Owners and admins revoke any key of the organization, other members (viewers too) the keys they created.',
    status: 204,
    responseDescription: 'Revoked',
    errors: [403, 404],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.revoke(sessionOf(req), param(req.params.keyId), context(req));
      return { status: 204 };
    },
  }),
];

/** `/v1/key/me`: which key is calling, for clients that hold only the key. */
export const keyIdentityResource: Resource<null> = {
  routes: [
    routesOf<null>()({
      method: 'get',
      path: '/v1/key/me',
      operationId: 'getCurrentApiKey',
      tag: 'API keys',
      summary: 'The calling API key',
      description:
        "The key's id, label, scope and effective scope (the lesser of its scope and its owner's current role), its project, organization and owner. Needs an API key (a console session has `GET /v1/account/me`).",
      status: 200,
      response: data(KeyMe),
      errors: [403],
      handler: ({ req }) => ({ status: 200, body: { data: toKeyMe(req.apiKey!) } }),
    }),
  ],
  service: () => null,
};

export const keysResource: Resource<KeysService> = {
  routes: keysRoutes,
  service: (ctx) => new KeysService(ctx.accounts),
};
