import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { errorBodySchema as ErrorBody } from '@crawl/core';
import { z, type ZodTypeAny } from 'zod';
import { OPERATIONS } from '../routes';
import { deriveOperationId } from './operation-ids';
import {
  type Access,
  accessOf,
  type OperationDoc,
  PATH_PARAMS,
  pathParamNames,
  RATE_LIMIT,
  REQUEST_ID,
  RETRY_AFTER,
  TAGS,
} from '../routes/operation';
import { registerWebhooks } from './webhooks';

/**
 * The OpenAPI 3.1 document, generated from the route table (routes/index.ts): the same routes
 * express serves, with the zod schemas the gateway validates with (request bodies and
 * queries), so the document and the validation cannot drift apart.
 */

const ERRORS: Record<number, string> = {
  400: 'VALIDATION_ERROR (or INVALID_TOKEN for a bad, used or expired mail link): malformed JSON, wrong types, unknown fields or parameters, a body that does not match its Content-Encoding or has one the gateway does not decode, a path that is not valid percent-encoding; `details` lists every problem',
  401: 'UNAUTHORIZED: missing, malformed, unknown, expired or revoked API key, or no live console session; INVALID_CREDENTIALS: wrong email or password',
  402: 'INSUFFICIENT_CREDITS: `details` has the balance and the cost; do not retry automatically',
  403: "FORBIDDEN: the path names another project than the key's, a `read` key or a viewer writes, or the role does not allow it; CSRF_REQUIRED: a console session's write without `X-CSRF-Token`, or from another site; EMAIL_NOT_VERIFIED",
  404: 'NOT_FOUND: unknown id, or an id of another project',
  409: 'JOB_NOT_COMPLETE, INVALID_STATE or IDEMPOTENCY_IN_PROGRESS (`details.status` has the job status)',
  410: 'GONE: the results of this job were deleted (DELETE /jobs/{jobId}) or purged by the retention of the plan; the job remains',
  413: 'PAYLOAD_TOO_LARGE: body over 1 MiB (16 KiB on /v1/account)',
  422: 'IDEMPOTENCY_MISMATCH: Idempotency-Key reused with another body',
  429: "RATE_LIMITED: too many requests (per user), too many failed authentications or sign-ins from one address, for one email or from one browser, too many sign-ins to one account or sign-ups on the whole service in a minute, too many mail-sending requests from one address, too many invitations, too many exports of the project or organization at once, or the project's hourly webhook replay budget spent; retry after `Retry-After` seconds",
  500: 'INTERNAL: a fault of the service; the request id is in the logs',
  503: 'UNAVAILABLE: Postgres or Redis unreachable, the export pool is full, too many passwords being checked at once, or a transient conflict; retry after `Retry-After` seconds',
};

/** What every operation of a kind can answer, whatever it does. */
const COMMON_ERRORS: Record<Access, number[]> = {
  // 404: a session names a project, job or schedule of no organization it belongs to
  api: [400, 401, 403, 404, 413, 429, 500, 503],
  session: [400, 401, 403, 413, 429, 500, 503],
  anonymous: [400, 403, 413, 429, 500, 503],
  public: [],
};

/** Security requirements per kind: a key or a session for the project API, a session for the account API. */
const SECURITY: Record<Access, Record<string, string[]>[]> = {
  api: [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  anonymous: [],
  public: [],
};

function errorResponses(codes: number[], access: Access) {
  const authed = access === 'api';
  const all = [...new Set([...COMMON_ERRORS[access], ...codes])].sort((a, b) => a - b);
  return Object.fromEntries(
    all.map((code) => [
      code,
      {
        description: ERRORS[code]!,
        headers: { ...REQUEST_ID, ...(authed && code !== 401 ? RATE_LIMIT : {}), ...(code === 429 || code === 503 ? RETRY_AFTER : {}) },
        content: { 'application/json': { schema: ErrorBody } },
      },
    ]),
  );
}

/** The object schema behind refinements/transforms, for query parameters. */
function queryObject(schema: ZodTypeAny): z.AnyZodObject {
  let s: ZodTypeAny = schema;
  while (!(s instanceof z.ZodObject)) s = (s as z.ZodEffects<ZodTypeAny>)._def.schema;
  return s as z.AnyZodObject;
}

/** A list answer (`{ data, pagination }`) of the form `list()` builds. */
function isPaginated(response: ZodTypeAny | undefined): boolean {
  return response instanceof z.ZodObject && 'pagination' in response.shape && response.shape.data instanceof z.ZodArray;
}

/** The path's parameters, documented in path order (a parameter without a schema in PATH_PARAMS is a mistake). */
function pathParams(path: string): z.AnyZodObject | undefined {
  const names = pathParamNames(path);
  if (names.length === 0) return undefined;
  return z.object(
    Object.fromEntries(
      names.map((name) => {
        const schema = PATH_PARAMS[name];
        if (!schema) throw new Error(`${path}: no schema for the path parameter ${name} in routes/operation.ts`);
        return [name, schema];
      }),
    ),
  );
}

function register(registry: OpenAPIRegistry, op: OperationDoc): void {
  const params = pathParams(op.path);
  const access = accessOf(op);
  const authed = access === 'api';
  const success = {
    description: op.responseDescription ?? 'Success',
    headers: { ...REQUEST_ID, ...(authed ? RATE_LIMIT : {}), ...op.responseHeaders },
    ...(op.content ? { content: op.content } : op.response ? { content: { 'application/json': { schema: op.response } } } : {}),
  };
  const route: RouteConfig = {
    method: op.method,
    path: op.path,
    operationId: op.operationId ?? deriveOperationId(op.method, op.path, { paginated: isPaginated(op.response) }),
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    security: SECURITY[access],
    request: {
      ...(params ? { params } : {}),
      ...(op.query ? { query: queryObject(op.query) } : {}),
      ...(op.headers ? { headers: op.headers } : {}),
      ...(op.body ? { body: { required: !op.bodyOptional, content: { 'application/json': { schema: op.body } } } } : {}),
    },
    responses: {
      [op.status]: success,
      // readiness answers 503 with the same body, not an error
      ...(op.path === '/readyz' ? { 503: { ...success, description: 'Not ready: Postgres or Redis unreachable' } } : {}),
      ...errorResponses(op.errors, access),
    },
  };
  registry.registerPath(route);
}

/**
 * Mends what zod-to-openapi 7 writes for nullable schemas, in place, so that every schema accepts
 * null exactly when zod does and says so once:
 * - a nullable enum comes as `type: [string, null]` with an enum that lacks null (which rejects
 *   null): null joins the enum;
 * - a union with null (`orNull`) comes as `anyOf` with `{type: null}` twice: once is enough.
 */
function mendNullables(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(mendNullables);
  if (!node || typeof node !== 'object') return;
  const schema = node as { type?: unknown; enum?: unknown[]; anyOf?: unknown[]; oneOf?: unknown[] };
  // a new array: the generator hands out zod's own array of values, which other schemas share
  if (Array.isArray(schema.type) && schema.type.includes('null') && Array.isArray(schema.enum) && !schema.enum.includes(null))
    schema.enum = [...schema.enum, null];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      schema[key] = branches.filter((b, i) => branches.findIndex((o) => JSON.stringify(o) === JSON.stringify(b)) === i);
  }
  Object.values(node).forEach(mendNullables);
}

let cached: object | null = null;

export function openApiDocument(): object {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'A project API key: `Authorization: Bearer <API key>`',
  });
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: 'cds_session',
    description:
      'A console session (`POST /v1/account/sessions` sets the cookie). Every write also sends the header `X-CSRF-Token` with the token from sign-in or `GET /v1/account/me`.',
  });
  for (const op of OPERATIONS) register(registry, op);
  registerWebhooks(registry);
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Crawl Data Service API',
      version: '1.0.0',
      description:
        'Crawl jobs (keyword searches and product details on Amazon marketplaces), results and exports, schedules, change tracking, analytics and signed webhooks. Every `/v1/key` endpoint takes a project API key as a bearer token, or a console session cookie for the projects of the organizations its user belongs to; `/v1/account` is the account API of the console (sign-up, sessions, projects, members, keys). Errors are `{"error": {"code", "message", "requestId", "details"}}`.',
    },
    servers: [{ url: '/' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  });
  mendNullables(cached);
  return cached;
}
