import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';

export type AlertRule = Schemas['AlertRule'];
export type Alert = Schemas['Alert'];
export type AlertCondition = Schemas['AlertCondition'];
export type CreateAlertRuleBody = Schemas['CreateAlertRuleBody'];

/** Query keys of alerts: every key starts with `['alerts', projectId]`, so a write to a rule refreshes the rules and the alerts. */
export const alertKeys = {
  ofProject: (projectId: string) => ['alerts', projectId] as const,
  rules: (projectId: string) => ['alerts', projectId, 'rules'] as const,
  recent: (projectId: string, offset: number, limit: number) => ['alerts', projectId, 'recent', offset, limit] as const,
};

/** A project holds at most 100 rules (docs/alerts.md): one page of 100 is all of them. */
export const alertRulesQuery = (projectId: string) =>
  queryOptions({
    queryKey: alertKeys.rules(projectId),
    queryFn: () => unwrap(api.GET('/v1/key/projects/{projectId}/alert-rules', { params: { path: { projectId }, query: { limit: 100 } } })),
  });

/** The alerts the rules fired (sent or suppressed), newest first. */
export const recentAlertsQuery = (projectId: string, offset: number, limit: number) =>
  queryOptions({
    queryKey: alertKeys.recent(projectId, offset, limit),
    queryFn: () => unwrap(api.GET('/v1/key/projects/{projectId}/alerts', { params: { path: { projectId }, query: { offset, limit } } })),
  });

export const createAlertRule = (projectId: string, body: CreateAlertRuleBody) =>
  unwrap(api.POST('/v1/key/projects/{projectId}/alert-rules', { params: { path: { projectId } }, body }));

/** What a rule with this body would have fired over the last 30 days of stored snapshots; nothing is stored. */
export const previewAlertRule = (projectId: string, body: Schemas['PreviewAlertRuleBody']) =>
  unwrap(api.POST('/v1/key/projects/{projectId}/alert-rules/preview', { params: { path: { projectId } }, body }));

export const setAlertRuleEnabled = (ruleId: string, enabled: boolean) =>
  unwrap(api.PATCH('/v1/key/alert-rules/{ruleId}', { params: { path: { ruleId } }, body: { enabled } }));

export const deleteAlertRule = (ruleId: string) => unwrap(api.DELETE('/v1/key/alert-rules/{ruleId}', { params: { path: { ruleId } } }));
