import express, { type Express, type NextFunction, type Request, type Response, type Router } from 'express';
import type { GatewayContext } from './context';
import { authenticate } from './access/authenticate';
import { cors } from './middleware/cors';
import { errorHandler, notFound, requireJsonBody } from './middleware/error-handler';
import { httpMetrics } from './middleware/http-metrics';
import { rateLimit } from './access/rate-limit';
import { requestId } from './middleware/request-id';
import { routeLabeler, routeTemplates } from './middleware/route-templates';
import { openApiDocument } from './openapi/document';
import { accountSession } from './access/account-guards';
import { ACCOUNT_RESOURCES, API_RESOURCES, PUBLIC_RESOURCES } from './routes';
import { ACCOUNT_PREFIX, API_PREFIX, resourcesRouter } from './routes/route';

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

/** The router mounted at the root (no authentication): the public resources of the route table. */
export function publicRouter(ctx: GatewayContext): Router {
  return resourcesRouter(PUBLIC_RESOURCES, ctx, openApiDocument);
}

/** The router mounted under /v1/key, behind authentication and rate limiting. */
export function apiRouter(ctx: GatewayContext): Router {
  return resourcesRouter(API_RESOURCES, ctx, openApiDocument);
}

/** The router mounted under /v1/account. */
export function accountRouter(ctx: GatewayContext): Router {
  return resourcesRouter(ACCOUNT_RESOURCES, ctx, openApiDocument);
}

type Middleware = (req: Request, res: Response, next: NextFunction) => void | Promise<void>;

/**
 * Middleware run as one express layer, in order: the same effect as mounting each, without a
 * router step per middleware on every request. One that answers without calling `next` ends
 * the chain; one that throws, even from a later callback (as after a body is read), or whose
 * promise rejects passes its error on, as in express.
 */
function inOneLayer(...handlers: Middleware[]) {
  return (req: Request, res: Response, next: NextFunction): void => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const handler = handlers[i++];
      if (!handler) return next();
      try {
        const returned = handler(req, res, step);
        if (returned instanceof Promise) returned.catch((rejected: unknown) => next(rejected ?? new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/** The JSON parser for the methods that carry a body, as one layer that GET and DELETE pass at once. */
function jsonBodies(parser: Middleware) {
  const parse = inOneLayer(parser, requireJsonBody);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method === 'POST' || req.method === 'PATCH') parse(req, res, next);
    else next();
  };
}

/**
 * The HTTP app without `listen`, so tests mount it. Order matters: request id first (every
 * response carries one), then auth and rate limiting before the body is even parsed, so an
 * unauthenticated client cannot make us read a large body.
 */
export function createApp(ctx: GatewayContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  // req.ip is the client's address only behind proxies named here (TRUST_PROXY): trusting
  // X-Forwarded-For from anyone would let a client pick the address it is limited by.
  app.set('trust proxy', ctx.trustProxy);
  // Each group's routes on the router that also runs its guards: one router per request.
  const api = express.Router();
  api.use(
    inOneLayer(
      // Tenant data, webhook secrets among it: never stored by a browser or a shared cache.
      noStore,
      authenticate(ctx),
      rateLimit(ctx.rateLimiter),
      // Only requests that can carry a body pay for the JSON parser.
      jsonBodies(express.json({ limit: BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] })),
    ),
  );
  resourcesRouter(API_RESOURCES, ctx, openApiDocument, api).use(notFound);

  // Account bodies are small: passwords, names, tokens.
  const account = express.Router();
  account.use(
    inOneLayer(
      noStore,
      accountSession(ctx),
      jsonBodies(express.json({ limit: ACCOUNT_BODY_LIMIT, strict: true, type: ['application/json', 'application/*+json'] })),
    ),
  );
  resourcesRouter(ACCOUNT_RESOURCES, ctx, openApiDocument, account).use(notFound);

  const publicRoutes = publicRouter(ctx);
  const templates = [...routeTemplates(publicRoutes, ''), ...routeTemplates(api, API_PREFIX), ...routeTemplates(account, ACCOUNT_PREFIX)];
  app.use(inOneLayer(requestId, baseSecurityHeaders, httpMetrics(ctx.metrics, routeLabeler(templates)), cors));
  app.use(API_PREFIX, api);
  app.use(ACCOUNT_PREFIX, account);
  // After the API: its requests never walk the public routes (none is under /v1/key or /v1/account).
  app.use(publicRoutes);
  app.use(notFound);
  app.use(errorHandler(ctx.log));
  return app;
}
