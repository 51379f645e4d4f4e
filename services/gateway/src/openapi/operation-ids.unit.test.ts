import { openApiDocument } from './document';
import { deriveOperationId } from './operation-ids';

type Doc = {
  paths: Record<string, Record<string, { operationId?: string }>>;
  webhooks: Record<string, Record<string, { operationId?: string }>>;
};

/** `METHOD path -> operationId` for every operation of the document, webhooks included. */
function operationIds(): Record<string, string | undefined> {
  const doc = openApiDocument() as Doc;
  const entries = [
    ...Object.entries(doc.paths),
    ...Object.entries(doc.webhooks).map(([event, item]) => [`webhook ${event}`, item] as const),
  ];
  return Object.fromEntries(
    entries.flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.operationId])),
  );
}

it('every operation has a unique camelCase operationId', () => {
  const ids = Object.values(operationIds());
  for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  expect(new Set(ids).size).toBe(ids.length);
});

it('the operationIds stay what generated clients were built with', () => {
  // a change here renames a method of every client generated from the document: add, never
  // rename (a route that is no longer served may leave the document)
  const published: Record<string, string> = {
    'POST /v1/key/projects/{projectId}/jobs': 'createJob',
    'POST /v1/key/projects/{projectId}/jobs/estimate': 'estimateJob',
    'GET /v1/key/projects/{projectId}/jobs': 'listJobs',
    'GET /v1/key/jobs/{jobId}': 'getJob',
    'GET /v1/key/jobs/{jobId}/results': 'listJobResults',
    'GET /v1/key/jobs/{jobId}/export': 'exportJob',
    'POST /v1/key/jobs/{jobId}/retry': 'retryJob',
    'DELETE /v1/key/jobs/{jobId}': 'deleteJob',
    'POST /v1/key/jobs/{jobId}/cancel': 'cancelJob',
    'POST /v1/key/projects/{projectId}/schedules': 'createSchedule',
    'GET /v1/key/projects/{projectId}/schedules': 'listSchedules',
    'GET /v1/key/schedules/{scheduleId}': 'getSchedule',
    'PATCH /v1/key/schedules/{scheduleId}': 'updateSchedule',
    'DELETE /v1/key/schedules/{scheduleId}': 'deleteSchedule',
    'GET /v1/key/projects/{projectId}/webhooks': 'getWebhooks',
    'PATCH /v1/key/projects/{projectId}/webhooks': 'replaceWebhooks',
    'POST /v1/key/projects/{projectId}/webhooks/test': 'testWebhook',
    'GET /v1/key/projects/{projectId}/webhooks/deliveries': 'listWebhookDeliveries',
    'POST /v1/key/projects/{projectId}/webhooks/deliveries/{deliveryId}/resend': 'resendWebhookDelivery',
    'POST /v1/key/projects/{projectId}/webhooks/replay': 'replayWebhookDeliveries',
    'GET /v1/key/projects/{projectId}/tracked-targets': 'listTrackedTargets',
    'GET /v1/key/projects/{projectId}/tracked-targets/{asin}/timeline': 'getTrackedTargetTimeline',
    'GET /v1/key/projects/{projectId}/compare': 'compareJobs',
    'POST /v1/key/projects/{projectId}/alert-rules': 'createAlertRule',
    'GET /v1/key/projects/{projectId}/alert-rules': 'listAlertRules',
    'POST /v1/key/projects/{projectId}/alert-rules/preview': 'previewAlertRule',
    'GET /v1/key/alert-rules/{ruleId}': 'getAlertRule',
    'PATCH /v1/key/alert-rules/{ruleId}': 'updateAlertRule',
    'DELETE /v1/key/alert-rules/{ruleId}': 'deleteAlertRule',
    'GET /v1/key/projects/{projectId}/alerts': 'listAlerts',
    'POST /v1/key/projects/{projectId}/destinations': 'createDestination',
    'GET /v1/key/projects/{projectId}/destinations': 'listDestinations',
    'GET /v1/key/destinations/{destinationId}': 'getDestination',
    'PATCH /v1/key/destinations/{destinationId}': 'updateDestination',
    'DELETE /v1/key/destinations/{destinationId}': 'deleteDestination',
    'GET /v1/key/destinations/{destinationId}/deliveries': 'listDestinationDeliveries',
    'POST /v1/key/destinations/{destinationId}/deliveries/{jobId}/retry': 'retryDestinationDelivery',
    'GET /v1/key/projects/{projectId}/usage': 'getUsage',
    'GET /v1/key/projects/{projectId}/analytics': 'getAnalytics',
    'GET /v1/key/me': 'getCurrentApiKey',
    'POST /v1/account/signup': 'signUp',
    'POST /v1/account/email-verification': 'verifyEmail',
    'POST /v1/account/email-verification/resend': 'resendVerificationEmail',
    'POST /v1/account/sessions': 'signIn',
    'DELETE /v1/account/sessions/current': 'signOut',
    'GET /v1/account/sessions': 'listSessions',
    'DELETE /v1/account/sessions': 'signOutEverywhere',
    'DELETE /v1/account/sessions/{sessionId}': 'endSession',
    'GET /v1/account/me': 'getAccount',
    'POST /v1/account/password': 'changePassword',
    'POST /v1/account/password-reset': 'requestPasswordReset',
    'POST /v1/account/password-reset/confirm': 'confirmPasswordReset',
    'GET /v1/account/organizations/{orgId}': 'getOrganization',
    'GET /v1/account/organizations/{orgId}/projects': 'listProjects',
    'POST /v1/account/organizations/{orgId}/projects': 'createProject',
    'PATCH /v1/account/projects/{projectId}': 'renameProject',
    'DELETE /v1/account/projects/{projectId}': 'archiveProject',
    'GET /v1/account/organizations/{orgId}/members': 'listMembers',
    'PATCH /v1/account/organizations/{orgId}/members/{userId}': 'updateMemberRole',
    'DELETE /v1/account/organizations/{orgId}/members/{userId}': 'removeMember',
    'GET /v1/account/organizations/{orgId}/invitations': 'listInvitations',
    'POST /v1/account/organizations/{orgId}/invitations': 'createInvitation',
    'DELETE /v1/account/organizations/{orgId}/invitations/{invitationId}': 'revokeInvitation',
    'POST /v1/account/invitations/accept': 'acceptInvitation',
    'GET /v1/account/organizations/{orgId}/audit-log': 'listAuditLog',
    'GET /v1/account/projects/{projectId}/keys': 'listApiKeys',
    'POST /v1/account/projects/{projectId}/keys': 'createApiKey',
    'POST /v1/account/keys/{keyId}/rotate': 'rotateApiKey',
    'DELETE /v1/account/keys/{keyId}': 'revokeApiKey',
    'GET /healthz': 'getLiveness',
    'GET /readyz': 'getReadiness',
    'GET /metrics': 'getMetrics',
    'GET /openapi.json': 'getOpenApiDocument',
    'GET /docs': 'getDocs',
    'POST webhook job.completed': 'jobCompleted',
    'POST webhook job.failed': 'jobFailed',
    'POST webhook schedule.triggered': 'scheduleTriggered',
    'POST webhook product.changed': 'productChanged',
    'POST webhook product.alert': 'productAlert',
  };
  const current = operationIds();
  expect(Object.fromEntries(Object.keys(current).map((op) => [op, published[op] ?? 'not in the published list above']))).toEqual(current);
  expect(Object.keys(current).length).toBeGreaterThanOrEqual(30);
});

it('derives readable names for routes not declared yet', () => {
  expect(deriveOperationId('get', '/v1/key/projects/{projectId}/webhooks/deliveries/{deliveryId}')).toBe('getWebhookDelivery');
  expect(deriveOperationId('post', '/v1/key/projects/{projectId}/api-keys')).toBe('createApiKey');
  expect(deriveOperationId('get', '/v1/key/projects/{projectId}/api-keys', { paginated: true })).toBe('listApiKeys');
  expect(deriveOperationId('delete', '/v1/key/projects/{projectId}/api-keys/{keyId}')).toBe('deleteApiKey');
  expect(deriveOperationId('post', '/v1/key/schedules/{scheduleId}/pause')).toBe('pauseSchedule');
  expect(deriveOperationId('put', '/v1/key/jobs/{jobId}/labels')).toBe('replaceJobLabels');
  expect(deriveOperationId('get', '/v1/key/projects/{projectId}')).toBe('getProject');
});
