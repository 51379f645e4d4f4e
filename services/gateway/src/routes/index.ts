import type { OperationDoc } from './operation';
import { alertsResource } from './alerts/alerts.routes';
import { analyticsResource } from './analytics/analytics.routes';
import { destinationsResource } from './destinations/destinations.routes';
import { consoleResource } from './console/console.routes';
import { docsResource } from './docs/docs.routes';
import { healthResource } from './health/health.routes';
import { jobsResource } from './jobs/jobs.routes';
import type { Resource } from './route';
import { schedulesResource } from './schedules/schedules.routes';
import { trackingResource } from './tracking/tracking.routes';
import { usageResource } from './usage/usage.routes';
import { webhooksResource } from './webhooks/webhooks.routes';
import { accountResource } from './account/account.routes';
import { organizationsResource } from './organizations/organizations.routes';
import { keyIdentityResource, keysResource } from './keys/keys.routes';

/**
 * The route table: every resource of the gateway, each `{routes, service, schemas}` in
 * routes/<resource>/. app.ts mounts it on express and openapi/document.ts documents it, in
 * this order; a new resource is added here once.
 */

/** Mounted under /v1/key, behind authentication (an API key or a console session) and rate limiting. */
export const API_RESOURCES: Resource<any>[] = [
  keyIdentityResource,
  jobsResource,
  schedulesResource,
  webhooksResource,
  trackingResource,
  alertsResource,
  destinationsResource,
  usageResource,
  analyticsResource,
];

/** Mounted under /v1/account: sign-up and sign-in, then what a signed-in user manages. */
export const ACCOUNT_RESOURCES: Resource<any>[] = [accountResource, organizationsResource, keysResource];

/** Mounted at the root, without an API key. */
export const PUBLIC_RESOURCES: Resource<any>[] = [healthResource, docsResource, consoleResource];

/** Every operation of the API, in the document's order. */
export const OPERATIONS: OperationDoc[] = [...API_RESOURCES, ...ACCOUNT_RESOURCES, ...PUBLIC_RESOURCES].flatMap(
  (resource) => resource.routes,
);
