import express, { type Express } from 'express';
import type { GatewayDeps } from './deps';
import { authenticate } from './middleware/auth';
import { cors } from './middleware/cors';
import { errorHandler, notFound, requireJsonBody } from './middleware/error-handler';
import { httpMetrics } from './middleware/http-metrics';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { healthRouter } from './routes/health/health.router';
import { jobsRouter } from './routes/jobs/jobs.router';
import { schedulesRouter } from './routes/schedules/schedules.router';
import { trackingRouter } from './routes/tracking/tracking.router';
import { analyticsRouter } from './routes/analytics/analytics.router';
import { webhooksRouter } from './routes/webhooks/webhooks.router';

/** Spec 4: 1 MiB request bodies at most (DESIGN section 4, 413 beyond). */
const BODY_LIMIT = '1mb';

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
  app.use(healthRouter(deps));

  const api = express.Router();
  api.use(authenticate(deps));
  api.use(rateLimit(deps.rateLimiter));
  // Only requests that can carry a body pay for the JSON parser.
  const json = express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] });
  api.post('*splat', json, requireJsonBody);
  api.patch('*splat', json, requireJsonBody);
  api.use(jobsRouter(deps));
  api.use(webhooksRouter(deps.webhookService));
  api.use(schedulesRouter(deps.scheduleService));
  api.use(trackingRouter(deps.trackingService));
  api.use(analyticsRouter(deps.analyticsService));
  api.use(notFound);
  app.use('/v1/key', api);

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
