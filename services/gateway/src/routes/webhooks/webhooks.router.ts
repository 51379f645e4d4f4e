import { Router } from 'express';
import { requireOwnProject } from '../../middleware/auth';
import { parseOrThrow } from '../../validation';
import { patchWebhooksBody, testWebhookBody, webhooksQuery } from './webhooks.schemas';
import type { WebhookService } from './webhooks.service';

/** Spec 4.5: webhook configurations of the key's project, their delivery log, test deliveries. */
export function webhooksRouter(service: WebhookService): Router {
  const router = Router();

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

  return router;
}
