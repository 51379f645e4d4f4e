import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import type { GatewayDeps } from './deps';
import { authenticate } from './middleware/auth';
import { cors } from './middleware/cors';
import { errorHandler, notFound, requireJsonBody } from './middleware/error-handler';
import { httpMetrics } from './middleware/http-metrics';
import { rateLimit } from './middleware/rate-limit';
import { requestId } from './middleware/request-id';
import { routeLabeler, routeTemplates } from './middleware/route-templates';
import { openApiDocument } from './openapi/document';
import { accountSession } from './auth/account-routes';
import { ACCOUNT_RESOURCES, API_RESOURCES, PUBLIC_RESOURCES } from './routes';
import { ACCOUNT_PREFIX, API_PREFIX, resourceRouter } from './routes/route';

/** 1 MiB request bodies at most, 413 beyond (docs/http-api.md). */
const BODY_LIMIT = '1mb';
const ACCOUNT_BODY_LIMIT = '16kb';

/** Every response: a browser must not guess another content type than the one we send. */
function baseSecurityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}

function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}

/** Routers mounted at the root (no authentication), one per resource of the route table. */
export function publicRouters(deps: GatewayDeps): Router[] {
  return PUBLIC_RESOURCES.map((resource) => resourceRouter(resource, deps, openApiDocument));
}

/** Routers mounted under /v1/key, behind authentication and rate limiting. */
export function apiRouters(deps: GatewayDeps): Router[] {
  return API_RESOURCES.map((resource) => resourceRouter(resource, deps, openApiDocument));
}

/** Routers mounted under /v1/account. */
export function accountRouters(deps: GatewayDeps): Router[] {
  return ACCOUNT_RESOURCES.map((resource) => resourceRouter(resource, deps, openApiDocument));
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
  // req.ip is the client's address only behind proxies named here (TRUST_PROXY): trusting
  // X-Forwarded-For from anyone would let a client pick the address it is limited by.
  app.set('trust proxy', deps.trustProxy);
  const publicRoutes = publicRouters(deps);
  const apiRoutes = apiRouters(deps);
  const accountRoutes = accountRouters(deps);
  const templates = [
    ...publicRoutes.flatMap((r) => routeTemplates(r, '')),
    ...apiRoutes.flatMap((r) => routeTemplates(r, API_PREFIX)),
    ...accountRoutes.flatMap((r) => routeTemplates(r, ACCOUNT_PREFIX)),
  ];
  app.use(requestId);
  app.use(baseSecurityHeaders);
  app.use(httpMetrics(deps.metrics, routeLabeler(templates)));
  app.use(cors);
  for (const router of publicRoutes) app.use(router);

  const api = express.Router();
  // Tenant data, webhook secrets among it: never stored by a browser or a shared cache.
  api.use(noStore);
  api.use(authenticate(deps));
  api.use(rateLimit(deps.rateLimiter));
  // Only requests that can carry a body pay for the JSON parser.
  const json = express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] });
  api.post('*splat', json, requireJsonBody);
  api.patch('*splat', json, requireJsonBody);
  for (const router of apiRoutes) api.use(router);
  api.use(notFound);
  app.use(API_PREFIX, api);

  // Account bodies are small: passwords, names, tokens.
  const accountJson = express.json({ limit: ACCOUNT_BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] });
  const account = express.Router();
  account.use(noStore);
  account.use(accountSession(deps));
  account.post('*splat', accountJson, requireJsonBody);
  account.patch('*splat', accountJson, requireJsonBody);
  for (const router of accountRoutes) account.use(router);
  account.use(notFound);
  app.use(ACCOUNT_PREFIX, account);

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
