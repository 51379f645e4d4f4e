import {
  alertRulePreviewSchema as AlertRulePreview,
  alertRuleSchema as AlertRule,
  alertSchema as Alert,
  AppError,
  ID_PATTERN,
} from '@crawl/core';
import type { Request } from 'express';
import { data, list, LOCATION } from '../operation';
import { projectActor } from '../project-audit';
import { parseOrThrow } from '../../validation';
import { type Resource, routesOf } from '../route';
import { alertRulesQuery, alertsQuery, CreateAlertRuleBody, emptyBody, PreviewAlertRuleBody, UpdateAlertRuleBody } from './alerts.schemas';
import { type AlertRuleService, createAlertRuleService } from './alerts.service';

function ruleId(req: Request): string {
  const id = String(req.params.ruleId);
  if (!ID_PATTERN.test(id)) throw new AppError('NOT_FOUND', `Alert rule ${id} not found.`);
  return id;
}

const route = routesOf<AlertRuleService>();

/** Alert rules: create, preview, list, GET, PATCH and DELETE of one; and the alerts they fired (docs/alerts.md). */
export const alertsRoutes = [
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/alert-rules',
    tag: 'Alerts',
    summary: 'Create an alert rule',
    description:
      "A rule watches the project's tracked products (all, or its `asins`, `marketplace` and `postalCode`) and sends `product.alert` when its condition turns true on a new snapshot; at most 100 rules per project.",
    body: CreateAlertRuleBody,
    status: 201,
    response: data(AlertRule),
    responseHeaders: LOCATION('alert rule'),
    errors: [403],
    handler: async ({ req, service, body }) => {
      const rule = await service.create(projectActor(req), body());
      return { status: 201, body: { data: rule }, headers: { Location: `/v1/key/alert-rules/${rule.id}` } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/key/projects/{projectId}/alert-rules/preview',
    tag: 'Alerts',
    summary: 'Preview an alert rule',
    description:
      "What a rule with this body would have fired over the project's stored snapshots of the last 30 days, replayed as evaluation would have run (first snapshot, re-arm, cooldown, maxPerDay, baselines); nothing is stored. Needs the role that creates a rule; reads at most 500 products and 20,000 snapshots (`truncated`).",
    body: PreviewAlertRuleBody,
    status: 200,
    response: data(AlertRulePreview),
    errors: [403],
    handler: async ({ req, service, body }) => {
      return { status: 200, body: { data: await service.preview(req.principal.projectId, body()) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/alert-rules',
    tag: 'Alerts',
    summary: 'List alert rules',
    description: "The project's alert rules, oldest first, each with its state (products firing or cooling down, today's alerts).",
    query: alertRulesQuery,
    status: 200,
    response: list(AlertRule),
    errors: [403],
    handler: async ({ req, service, query }) => {
      const { limit, offset } = query();
      return { status: 200, body: await service.list(req.principal.projectId, limit, offset) };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/alert-rules/{ruleId}',
    tag: 'Alerts',
    summary: 'Get an alert rule',
    description: 'One alert rule with its state.',
    status: 200,
    response: data(AlertRule),
    errors: [404],
    handler: async ({ req, service }) => {
      return { status: 200, body: { data: await service.get(ruleId(req), req.principal.projectId) } };
    },
  }),
  route({
    method: 'patch',
    path: '/v1/key/alert-rules/{ruleId}',
    tag: 'Alerts',
    summary: 'Update an alert rule',
    description: "Change any field of a rule; null clears a scope. A new `condition` starts the rule's products afresh.",
    body: UpdateAlertRuleBody,
    status: 200,
    response: data(AlertRule),
    errors: [404],
    handler: async ({ req, service, body }) => {
      const id = ruleId(req);
      return { status: 200, body: { data: await service.update(id, projectActor(req), body()) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/key/alert-rules/{ruleId}',
    tag: 'Alerts',
    summary: 'Delete an alert rule',
    description: 'Delete a rule; the alerts it fired stay in the list of alerts.',
    status: 204,
    responseDescription: 'Deleted',
    errors: [404],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.delete(ruleId(req), projectActor(req));
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/key/projects/{projectId}/alerts',
    tag: 'Alerts',
    summary: 'List alerts',
    description:
      'Alerts the rules fired, newest first: `sent` (a product.alert event went to the subscribed webhooks) or `suppressed` (past the rule’s maxPerDay).',
    query: alertsQuery,
    status: 200,
    response: list(Alert),
    errors: [403],
    handler: async ({ req, service, query }) => {
      return { status: 200, body: await service.alerts({ projectId: req.principal.projectId, ...query() }) };
    },
  }),
];

export const alertsResource: Resource<AlertRuleService> = {
  routes: alertsRoutes,
  service: createAlertRuleService,
};
