import {
  AppError,
  webhookConfigsSchema as WebhookConfigs,
  webhookDeliveryResourceSchema as WebhookDelivery,
  webhookReplayResultSchema as WebhookReplayResult,
  webhooksSchema as Webhooks,
  webhookTestResultSchema as WebhookTestResult,
} from '@crawl/core';
import { data, idempotencyHeader, list, REPLAYED } from '../operation';
import { projectActor } from '../project-audit';
import { parseOrThrow } from '../../validation';
import { type Resource, routesOf } from '../route';
import { createWebhookDeliveryService, type WebhookDeliveryService } from './deliveries.service';
import {
  deliveriesQuery,
  deliveryIdParams,
  ReplaceWebhooksBody,
  ReplayWebhooksBody,
  resendBody,
  TestWebhookBody,
  webhooksQuery,
} from './webhooks.schemas';
import { createWebhookService, type WebhookService } from './webhooks.service';

/** The webhooks resource's services: the configurations, and the delivery log with resend and replay. */
export interface WebhooksServices {
  configs: WebhookService;
  deliveries: WebhookDeliveryService;
}

const route = routesOf<WebhooksServices>();

/** `whsec_` and two characters, enough to tell secrets apart, never to sign with. */
const maskSecret = (secret: string) => `${secret.slice(0, 8)}${'•'.repeat(8)}`;

/** Webhook configurations of the key's project, their delivery log, test deliveries; plus resend and replay. */
export const webhooksRoutes = [
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/webhooks',
    tag: 'Webhooks',
    summary: 'Get the webhook configurations',
    description:
      "The project's webhook configurations (with their secrets, masked for a `read` key or a viewer) and the recent delivery attempts.",
    query: webhooksQuery,
    status: 200,
    response: data(Webhooks),
    errors: [403],
    handler: async ({ req, service, query }) => {
      const { limit } = query();
      const webhooks = await service.configs.get(req.principal.projectId, limit);
      // a signing secret lets its holder forge deliveries: only principals that may change the
      // webhooks see it (not a `read` key, not a viewer's session)
      const shown = req.principal.canWrite
        ? webhooks
        : { ...webhooks, configs: webhooks.configs.map((c) => ({ ...c, secret: maskSecret(c.secret) })) };
      return { status: 200, body: { data: shown } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/key/projects/{projectId}/webhooks',
    tag: 'Webhooks',
    operationId: 'replaceWebhooks',
    summary: 'Replace the webhook configurations',
    description: "Replace all of the project's webhook configurations (at most 20) in one request.",
    body: ReplaceWebhooksBody,
    status: 200,
    response: data(WebhookConfigs),
    errors: [403],
    handler: async ({ req, service, body }) => {
      return { status: 200, body: { data: { configs: await service.configs.replace(projectActor(req), body()) } } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/webhooks/test',
    tag: 'Webhooks',
    summary: 'Send a test delivery',
    description: 'Send one signed test delivery of an event to a webhook now and report its answer.',
    body: TestWebhookBody,
    status: 200,
    response: data(WebhookTestResult),
    errors: [403, 404],
    handler: async ({ req, service, body }) => {
      const { webhookId, triggerAction } = body();
      return { status: 200, body: { data: await service.configs.test(req.principal.projectId, webhookId, triggerAction) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/webhooks/deliveries',
    tag: 'Webhooks',
    summary: 'List webhook deliveries',
    description: 'Deliveries, newest first, each with its last attempts; filters: status, event, webhookId, from, to.',
    query: deliveriesQuery,
    status: 200,
    response: list(WebhookDelivery),
    errors: [403],
    handler: async ({ req, service, query }) => {
      const q = query();
      const { data: deliveries, total } = await service.deliveries.list(req.principal.projectId, q);
      return {
        status: 200,
        body: { data: deliveries, pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + q.limit < total } },
      };
    },
  }),
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/webhooks/deliveries/{deliveryId}/resend',
    tag: 'Webhooks',
    summary: 'Resend a webhook delivery',
    description:
      'One more attempt of a delivered or failed delivery: same id and body, signed anew (409 while pending, with its webhook disabled or removed, or after its 5 manual attempts).',
    status: 202,
    response: data(WebhookDelivery),
    errors: [403, 404, 409],
    handler: async ({ req, service }) => {
      const params = deliveryIdParams.safeParse(req.params);
      if (!params.success) throw new AppError('NOT_FOUND', `Delivery ${String(req.params.deliveryId)} not found.`);
      parseOrThrow(resendBody, req.body, 'body');
      return { status: 202, body: { data: await service.deliveries.resend(req.principal.projectId, params.data.deliveryId) } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/webhooks/replay',
    tag: 'Webhooks',
    operationId: 'replayWebhookDeliveries',
    summary: 'Replay failed webhook deliveries',
    description:
      'One more attempt of every failed delivery created in a time range (at most 1,000 per call; call again while hasMore). Skips deliveries that had 5 manual attempts or were re-armed in the last minute; 409 while another replay of the project runs; 429 with Retry-After once the replays of the project re-armed its hourly budget of deliveries (WEBHOOK_REPLAY_BUDGET_PER_HOUR, default 2,000).',
    body: ReplayWebhooksBody,
    headers: idempotencyHeader,
    status: 202,
    response: data(WebhookReplayResult),
    responseHeaders: REPLAYED,
    errors: [403, 409, 422],
    handler: async ({ req, service, body, idempotent }) => {
      const replay = body();
      // Replay creates no resource to recover: a key whose first request died is simply in progress.
      // A spent hourly budget is a RATE_LIMITED error whose details say when part of it comes back.
      return idempotent({ recover: async () => undefined }, async () => ({
        status: 202,
        body: { data: await service.deliveries.replay(req.principal.projectId, replay) },
      }));
    },
  }),
];

export const webhooksResource: Resource<WebhooksServices> = {
  routes: webhooksRoutes,
  service: (ctx) => ({ configs: createWebhookService(ctx), deliveries: createWebhookDeliveryService(ctx) }),
};
