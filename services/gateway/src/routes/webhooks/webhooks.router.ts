import { AppError } from '@crawl/core';
import type { IdempotencyRepository } from '@crawl/db';
import { Router } from 'express';
import { requireOwnProject } from '../../middleware/auth';
import { withIdempotency } from '../../middleware/idempotency';
import { parseOrThrow } from '../../validation';
import type { WebhookDeliveryService } from './deliveries.service';
import { deliveriesQuery, deliveryIdParams, patchWebhooksBody, replayBody, resendBody, testWebhookBody, webhooksQuery } from './webhooks.schemas';
import type { WebhookService } from './webhooks.service';

export interface WebhooksRouterDeps {
  webhookService: WebhookService;
  webhookDeliveries: WebhookDeliveryService;
  idempotency: IdempotencyRepository;
}

/** Webhook configurations of the key's project, their delivery log, test deliveries; plus resend and replay. */
export function webhooksRouter(deps: WebhooksRouterDeps): Router {
  const router = Router();
  const service = deps.webhookService;

  router.get('/projects/:projectId/webhooks', requireOwnProject, async (req, res) => {
    const { limit } = parseOrThrow(webhooksQuery, req.query, 'query');
    res.json({ data: await service.get(req.principal.projectId, limit) });
  });

  router.patch('/projects/:projectId/webhooks', requireOwnProject, async (req, res) => {
    const body = parseOrThrow(patchWebhooksBody, req.body, 'body');
    res.json({ data: { configs: await service.replace(req.principal.projectId, body) } });
  });

  router.post('/projects/:projectId/webhooks/test', requireOwnProject, async (req, res) => {
    const body = parseOrThrow(testWebhookBody, req.body, 'body');
    res.json({ data: await service.test(req.principal.projectId, body.webhookId, body.triggerAction) });
  });

  router.get('/projects/:projectId/webhooks/deliveries', requireOwnProject, async (req, res) => {
    const query = parseOrThrow(deliveriesQuery, req.query, 'query');
    const { data, total } = await deps.webhookDeliveries.list(req.principal.projectId, query);
    res.json({ data, pagination: { total, limit: query.limit, offset: query.offset, hasMore: query.offset + query.limit < total } });
  });

  router.post('/projects/:projectId/webhooks/deliveries/:deliveryId/resend', requireOwnProject, async (req, res) => {
    const params = deliveryIdParams.safeParse(req.params);
    if (!params.success) throw new AppError('NOT_FOUND', `Delivery ${String(req.params.deliveryId)} not found.`);
    parseOrThrow(resendBody, req.body, 'body');
    res.status(202).json({ data: await deps.webhookDeliveries.resend(req.principal.projectId, params.data.deliveryId) });
  });

  router.post('/projects/:projectId/webhooks/replay', requireOwnProject, async (req, res) => {
    const body = parseOrThrow(replayBody, req.body, 'body');
    // Replay creates no resource to recover: a key whose first request died is simply in progress.
    const result = await withIdempotency(deps.idempotency, req, res, { recover: async () => undefined }, async () => ({
      status: 202,
      body: { data: await deps.webhookDeliveries.replay(req.principal.projectId, body) },
    })).catch((err: unknown) => {
      // The hourly replay budget is spent: say when part of it comes back.
      const retryAfter = err instanceof AppError && err.code === 'RATE_LIMITED' ? (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds : undefined;
      if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
      throw err;
    });
    res.status(result.status).json(result.body);
  });

  return router;
}
