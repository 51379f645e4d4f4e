import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z, ZodTypeAny } from 'zod';
import type { GatewayContext } from '../context';
import { projectAccess, type ProjectParam } from '../access/authenticate';
import { requireSession } from '../access/account-guards';
import { type HandlerResult, type RouteResult, writeResult } from '../handler-result';
import { type IdempotencyContext, type IdempotencyOptions, withIdempotency } from '../middleware/idempotency';
import { accessOf, type OperationDoc, pathParamNames, PREFIX } from './operation';
import { parseOrThrow } from '../validation';

/** Where the project API is mounted; its routes write their paths with it. */
export const API_PREFIX = PREFIX.api;
/** Where the account API is mounted. */
export const ACCOUNT_PREFIX = PREFIX.session;

/**
 * The request as a handler sees it: without `req.res`, so that a handler answers by returning
 * its result (route.ts writes it) and a write to the response is a type error.
 */
export type RouteRequest = Request & { readonly res?: never };

/** What a route's handler gets: the request and its resource's service, never a repository or the response. */
export interface RouteContext<S, Q extends ZodTypeAny, B extends ZodTypeAny> {
  req: RouteRequest;
  service: S;
  /**
   * The query parsed with the route's `query` schema (a 400 listing every problem otherwise).
   * Parsed when called, so that a handler keeps its order of checks (e.g. an unknown job is a
   * 404 before its query is looked at).
   */
  query(): z.output<Q>;
  /** The body parsed with the route's `body` schema, when called. */
  body(): z.output<B>;
  /** `withIdempotency` (middleware/idempotency.ts) around the part of the handler that has effects. */
  idempotent<Status extends number>(
    options: IdempotencyOptions<Status>,
    handler: (ctx: IdempotencyContext) => Promise<HandlerResult<Status>>,
  ): Promise<HandlerResult<Status>>;
}

/**
 * One operation of the API: what the OpenAPI document says of it and the handler that serves it.
 * The route table (routes/index.ts) mounts these on express and document.ts documents them, so
 * a path is written once. A `/v1/key` route gets `projectAccess` before anything else (the
 * project its path names, for a key or a session), a `session` route `requireSession`.
 */
export interface Route<
  S,
  Q extends ZodTypeAny = ZodTypeAny,
  B extends ZodTypeAny = ZodTypeAny,
  St extends number = number,
  E extends number = number,
> extends OperationDoc {
  query?: Q;
  body?: B;
  status: St;
  errors: E[];
  /** Express middleware run before the handler (after the access guards). */
  middleware?: RequestHandler[];
  /**
   * Answers with a result that mountResource writes. Its status is the declared one or a declared
   * error (checked by the compiler, as the statuses are inferred from `status` and `errors`), or
   * 503: every route may be unavailable, and readiness answers 503 with its own body.
   */
  handler(ctx: RouteContext<S, Q, B>): RouteResult<NoInfer<St | E> | 503> | Promise<RouteResult<NoInfer<St | E> | 503>>;
}

/**
 * `createRoute` for the routes of a resource whose service is `S`: `const route = routesOf<JobsService>()`,
 * then `route({ method, path, query, ..., handler })` infers the query and body types and the statuses.
 */
export const routesOf =
  <S>() =>
  <Q extends ZodTypeAny = z.ZodUndefined, B extends ZodTypeAny = z.ZodUndefined, St extends number = number, E extends number = never>(
    route: Route<S, Q, B, St, E>,
  ): Route<S, Q, B, St, E> =>
    route;

/** A gateway resource: its routes and how its service is built from the gateway's shared infrastructure. */
export interface Resource<S> {
  routes: Route<S, any, any>[];
  /** Called once per app. `openApiDocument` is for the docs resource, which serves the document. */
  service(ctx: GatewayContext, openApiDocument: () => object): S;
  /** Mounted on the resource's router before its routes (path-scoped middleware). */
  beforeRoutes?(router: Router): void;
  /** Mounted after its routes: what is served but is no API operation (static assets). */
  afterRoutes?(router: Router, service: S): void;
}

/** The express form of a route's path, under its mount point: `/v1/key/jobs/{jobId}` -> `/jobs/:jobId`. */
export function expressPath(route: OperationDoc): string {
  const prefix = PREFIX[accessOf(route)];
  if (!route.path.startsWith(`${prefix}/`))
    throw new Error(`${route.method.toUpperCase()} ${route.path}: a route with access ${accessOf(route)} has its path under ${prefix}/`);
  return route.path.slice(prefix.length).replace(/\{(\w+)\}/g, ':$1');
}

/** Which path parameter names the project a `/v1/key` route acts in. */
function projectParamOf(path: string): ProjectParam | undefined {
  const names = pathParamNames(path);
  return (['projectId', 'destinationId', 'jobId', 'scheduleId', 'ruleId'] as const).find((name) => names.includes(name));
}

function guardsOf(route: OperationDoc, ctx: GatewayContext): RequestHandler[] {
  switch (accessOf(route)) {
    case 'api':
      return [projectAccess(ctx, projectParamOf(route.path))];
    case 'session':
      return [requireSession(ctx)];
    default:
      return [];
  }
}

/** The schema a route declares for its query or body: a handler parses only what the document describes. */
function declared(route: OperationDoc, part: 'query' | 'body'): ZodTypeAny {
  const schema = route[part];
  if (!schema) throw new Error(`${route.method.toUpperCase()} ${route.path} declares no ${part} schema`);
  return schema;
}

/**
 * One express router for a group of resources (public, API or account), in the route table's
 * order, or their routes added to `router`; the caller mounts it at the root or under its prefix. One router rather than one per
 * resource: a request then walks one stack of routes instead of entering every resource's
 * router in turn. Each resource's `beforeRoutes` and `afterRoutes` are path-scoped, and keep
 * their place around its routes.
 */
export function resourcesRouter(
  resources: Resource<any>[],
  ctx: GatewayContext,
  openApiDocument: () => object,
  router: Router = Router(),
): Router {
  for (const resource of resources) mountResource(router, resource, ctx, openApiDocument);
  return router;
}

function mountResource<S>(router: Router, resource: Resource<S>, ctx: GatewayContext, openApiDocument: () => object): void {
  const service = resource.service(ctx, openApiDocument);
  resource.beforeRoutes?.(router);
  for (const route of resource.routes) {
    router[route.method](expressPath(route), ...guardsOf(route, ctx), ...(route.middleware ?? []), async (req: Request, res: Response) => {
      const result = await route.handler({
        req: req as RouteRequest,
        service,
        query: () => parseOrThrow(declared(route, 'query'), req.query, 'query'),
        body: () => parseOrThrow(declared(route, 'body'), req.body, 'body'),
        idempotent: (options, handler) => withIdempotency(ctx.idempotency, req, options, handler),
      });
      await writeResult(res, result);
    });
  }
  resource.afterRoutes?.(router, service);
}
