import express, { type Express, type Router } from 'express';
import type { GatewayDeps } from './deps';
import { authenticate } from './middleware/auth';
import { cors } from './middleware/cors';
import { errorHandler, notFound, requireJsonBody } from './middleware/error-handler';
import { httpMetrics } from './middleware/http-metrics';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { docsRouter } from './routes/docs/docs.router';
import { healthRouter } from './routes/health/health.router';
import { jobsRouter } from './routes/jobs/jobs.router';
import { schedulesRouter } from './routes/schedules/schedules.router';
import { trackingRouter } from './routes/tracking/tracking.router';
import { analyticsRouter } from './routes/analytics/analytics.router';
import { webhooksRouter } from './routes/webhooks/webhooks.router';

/** Spec 4: 1 MiB request bodies at most (DESIGN section 4, 413 beyond). */
const BODY_LIMIT = '1mb';

/** Routers mounted at the root (no authentication). */
export function publicRouters(deps: GatewayDeps): Router[] {
  return [healthRouter(deps), docsRouter()];
}

/** Routers mounted under /v1/key, behind authentication and rate limiting. */
export function apiRouters(deps: GatewayDeps): Router[] {
  return [
    jobsRouter(deps),
    webhooksRouter(deps.webhookService),
    schedulesRouter(deps.scheduleService),
    trackingRouter(deps.trackingService),
    analyticsRouter(deps.analyticsService),
  ];
}

/**
 * The HTTP app without `listen`, so tests mount it. Order matters: request id first (every
 * response carries one), then auth and rate limiting before the body is even parsed, so an
 * unauthenticated client cannot make us read a large body.
 */
export function createApp(deps: GatewayDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(httpMetrics(deps.metrics));
  app.use(cors);
  for (const router of publicRouters(deps)) app.use(router);

  const api = express.Router();
  api.use(authenticate(deps));
  api.use(rateLimit(deps.rateLimiter));
  // Only requests that can carry a body pay for the JSON parser.
  const json = express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] });
  api.post('*splat', json, requireJsonBody);
  api.patch('*splat', json, requireJsonBody);
  for (const router of apiRouters(deps)) api.use(router);
  api.use(notFound);
  app.use('/v1/key', api);

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
