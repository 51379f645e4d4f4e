import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { createScheduleBody, jobBodySchema, patchScheduleBody } from '@crawl/jobs';
import { z, type ZodTypeAny } from 'zod';
import { analyticsQuery } from '../routes/analytics/analytics.router';
import { exportQuery, listJobsQuery, resultsQuery, retryBodyObject } from '../routes/jobs/jobs.schemas';
import { usageQuery } from '../routes/usage/usage.router';
import { schedulesQuery } from '../routes/schedules/schedules.router';
import { compareQuery, timelineQuery, trackedTargetsQuery } from '../routes/tracking/tracking.router';
import { deliveriesQuery, patchWebhooksBody, replayBody, testWebhookBody, webhooksQuery } from '../routes/webhooks/webhooks.schemas';
import {
  analyticsSchema as Analytics,
  comparisonSchema as Comparison,
  costEstimateSchema as CostEstimate,
  errorBodySchema as ErrorBody,
  jobResourceSchema as Job,
  livenessSchema as Liveness,
  llmExportSchema as LlmExport,
  paginationSchema as Pagination,
  readinessSchema as Readiness,
  resultItemSchema as ResultItem,
  scheduleSchema as Schedule,
  timelineSchema as Timeline,
  trackedTargetSchema as TrackedTarget,
  usageSchema as Usage,
  webhookConfigsSchema as WebhookConfigs,
  webhookDeliveryResourceSchema as WebhookDelivery,
  webhookReplayResultSchema as WebhookReplayResult,
  webhooksSchema as Webhooks,
  webhookTestResultSchema as WebhookTestResult,
} from '@crawl/core';
import { deriveOperationId } from './operation-ids';
import { registerWebhooks } from './webhooks';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the gateway validates with
 * (request bodies and queries), so the document and the validation cannot drift apart.
 */
type Method = 'get' | 'post' | 'patch' | 'delete';

const ERRORS: Record<number, string> = {
  400: 'VALIDATION_ERROR: malformed JSON, wrong types, unknown fields or parameters, a body that does not match its Content-Encoding or has one the gateway does not decode, a path that is not valid percent-encoding; `details` lists every problem',
  401: 'UNAUTHORIZED: missing, malformed, unknown or revoked API key',
  402: 'INSUFFICIENT_CREDITS: `details` has the balance and the cost; do not retry automatically',
  403: "FORBIDDEN: the path names another project than the key's",
  404: 'NOT_FOUND: unknown id, or an id of another project',
  409: 'JOB_NOT_COMPLETE, INVALID_STATE or IDEMPOTENCY_IN_PROGRESS (`details.status` has the job status)',
  410: 'GONE: the results of this job were deleted (DELETE /jobs/{jobId}) or purged by the retention of the plan; the job remains',
  413: 'PAYLOAD_TOO_LARGE: body over 1 MiB',
  422: 'IDEMPOTENCY_MISMATCH: Idempotency-Key reused with another body',
  429: "RATE_LIMITED: too many requests (per user), too many failed authentications from one address, too many exports of the project or organization at once, or the project's hourly webhook replay budget spent; retry after `Retry-After` seconds",
  500: 'INTERNAL: a fault of the service; the request id is in the logs',
  503: 'UNAVAILABLE: Postgres or Redis unreachable, the export pool is full, or a transient conflict; retry after `Retry-After` seconds',
};

/** Every `/v1/key` operation can answer these, whatever it does. */
const COMMON_ERRORS = [400, 401, 413, 429, 500, 503];

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });
const REQUEST_ID = { 'X-Request-Id': { description: 'Request id: yours if you sent a sane `X-Request-Id`, else generated; quote it in support requests', schema: { type: 'string' as const } } };
const RATE_LIMIT = {
  'X-RateLimit-Limit': integerHeader('Requests allowed per user in the current window (absent when rate limiting is off)'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'X-RateLimit-Reset': integerHeader('Whole seconds until the window resets'),
};
const RETRY_AFTER = { 'Retry-After': integerHeader('Whole seconds to wait before retrying') };
const LOCATION = (what: string) => ({ Location: { description: `Path of the ${what}`, required: true, schema: { type: 'string' as const } } });
const REPLAYED = {
  'Idempotent-Replayed': { description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key', schema: { type: 'string' as const, enum: ['true'] } },
};
/** Job-creating answers (create, retry, their idempotent replays). */
const CREDITS_REMAINING = {
  'X-Credits-Remaining': integerHeader("The organization's credit balance after this request (after the new job's reservation); on a replayed answer, the balance at replay time"),
};
const ATTACHMENT = { 'Content-Disposition': { description: '`attachment; filename="<jobId>-<type>.<json|csv|llm.json>"`', schema: { type: 'string' as const } } };

const idempotencyHeader = z.object({
  'Idempotency-Key': z.string().max(255).optional().openapi({ description: 'Replays the first successful response for 24 h instead of creating (and charging) again' }),
});

function errorResponses(codes: number[], authed: boolean) {
  const all = [...new Set([...(authed ? COMMON_ERRORS : []), ...codes])].sort((a, b) => a - b);
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

/** Request bodies with component names, so the generated SDK has a type for each. */
const CreateJobBody = jobBodySchema.openapi('CreateJobBody');
const CreateScheduleBody = createScheduleBody.openapi('CreateScheduleBody');
const UpdateScheduleBody = patchScheduleBody.openapi('UpdateScheduleBody');
const ReplaceWebhooksBody = patchWebhooksBody.openapi('ReplaceWebhooksBody');
const TestWebhookBody = testWebhookBody.openapi('TestWebhookBody');
const ReplayWebhooksBody = replayBody.openapi('ReplayWebhooksBody');
const RetryJobBody = retryBodyObject.openapi('RetryJobBody');

const projectId = z.object({ projectId: z.string().openapi({ example: 'prj_2x2nikgxu7e1g6hw' }) });
const jobId = z.object({ jobId: z.string().openapi({ example: 'job_sfcsm02wi6t0dl1e' }) });
const scheduleId = z.object({ scheduleId: z.string() });

type Headers = Record<string, { description: string; required?: boolean; schema: { type: 'string' | 'integer'; enum?: string[] } }>;

/** The document's tags, each described (a new tag needs a description here). */
const TAGS = {
  Jobs: 'Crawl jobs: create, follow, retry, cancel, and read or export their results',
  Schedules: 'Jobs created on a cron schedule',
  Webhooks: 'Signed deliveries of job and product events to your endpoints, and their history',
  'Change tracking': 'Products followed across crawls: snapshots, changes and comparisons of jobs',
  Usage: 'Credits, plan, rate limit and the credit ledger',
  Analytics: 'Aggregates of the crawls of a project',
  Operations: 'Health checks and this document (no API key)',
} as const;

interface Op {
  method: Method;
  path: string;
  tag: keyof typeof TAGS;
  /** A few words (a title in documentation). */
  summary: string;
  /** A sentence or two: what it does and what it answers. */
  description: string;
  /** Only where the name `deriveOperationId` gives reads badly; once published, never changed. */
  operationId?: string;
  params?: z.AnyZodObject;
  query?: ZodTypeAny;
  body?: ZodTypeAny;
  /** The body may be left out (retry). */
  bodyOptional?: boolean;
  headers?: z.AnyZodObject;
  status: number;
  response?: ZodTypeAny;
  responseDescription?: string;
  /** Headers of the success response besides X-Request-Id and the rate-limit ones. */
  responseHeaders?: Headers;
  /** Error statuses besides COMMON_ERRORS. */
  errors: number[];
  content?: Record<string, { schema: ZodTypeAny }>;
  auth?: boolean;
}

const data = (schema: ZodTypeAny) => z.object({ data: schema }).strict();
const list = (schema: ZodTypeAny) => z.object({ data: z.array(schema), pagination: Pagination }).strict();

export const API_OPERATIONS: Op[] = [
  { method: 'post', path: '/v1/key/projects/{projectId}/jobs', tag: 'Jobs', summary: 'Create a crawl job', description: 'Validates the body, reserves the credits of every target and queues the crawl; answers 202 with the job and its `Location`. Send an `Idempotency-Key` to make a retry of this request safe.', params: projectId, body: CreateJobBody, headers: idempotencyHeader, status: 202, response: data(Job), responseHeaders: { ...LOCATION('job'), ...REPLAYED, ...CREDITS_REMAINING }, errors: [402, 403, 409, 422] },
  { method: 'post', path: '/v1/key/projects/{projectId}/jobs/estimate', tag: 'Jobs', summary: 'Estimate the cost of a job', description: 'Cost of a job body and whether a create would be accepted now. The body is validated like a create; nothing is created or reserved.', params: projectId, body: CreateJobBody, status: 200, response: data(CostEstimate), errors: [403] },
  { method: 'get', path: '/v1/key/projects/{projectId}/jobs', tag: 'Jobs', summary: 'List jobs', description: "The project's jobs, newest first, filtered by status, text and creation time.", params: projectId, query: listJobsQuery, status: 200, response: list(Job), errors: [403] },
  { method: 'get', path: '/v1/key/jobs/{jobId}', tag: 'Jobs', summary: 'Get a job', description: 'One job with its status, progress, credits and errors.', params: jobId, status: 200, response: data(Job), errors: [404] },
  { method: 'get', path: '/v1/key/jobs/{jobId}/results', tag: 'Jobs', summary: "List a job's results", description: "The result items of a job, paginated; each item's shape depends on the job type.", params: jobId, query: resultsQuery, status: 200, response: list(ResultItem), errors: [404, 410] },
  {
    method: 'get', path: '/v1/key/jobs/{jobId}/export', tag: 'Jobs', operationId: 'exportJob', summary: 'Export the results of a job', description: 'Download the results of a completed job as a file: json, csv or the versioned llm format.', params: jobId, query: exportQuery, status: 200,
    responseDescription: 'A file (Content-Disposition: attachment), streamed. `json`: the array of result items; `llm`: the versioned LlmExport object; `csv`: one header row, RFC 4180', responseHeaders: ATTACHMENT, errors: [404, 409, 410],
    content: { 'application/json': { schema: z.union([z.array(ResultItem), LlmExport]) }, 'text/csv': { schema: z.string() } },
  },
  { method: 'post', path: '/v1/key/jobs/{jobId}/retry', tag: 'Jobs', summary: 'Retry a job', description: 'Retry a job as a new job: every target of a failed or cancelled job (default), or `{"targets": "failed"}` for only the failed or cancelled targets of a finished job.', params: jobId, body: RetryJobBody, bodyOptional: true, headers: idempotencyHeader, status: 202, response: data(Job), responseHeaders: { ...LOCATION('new job'), ...REPLAYED, ...CREDITS_REMAINING }, errors: [402, 404, 409, 422] },
  { method: 'delete', path: '/v1/key/jobs/{jobId}', tag: 'Jobs', summary: "Delete a job's results", description: 'Delete the results of a finished job. The job stays (with `resultsPurgedAt`) for the ledger, and its results and export answer 410.', params: jobId, status: 200, response: data(Job), errors: [404, 409] },
  { method: 'post', path: '/v1/key/jobs/{jobId}/cancel', tag: 'Jobs', summary: 'Cancel a job', description: 'Cancel a queued or running job; the targets not crawled yet are refunded.', params: jobId, status: 200, response: data(Job), errors: [404, 409] },
  { method: 'post', path: '/v1/key/projects/{projectId}/schedules', tag: 'Schedules', summary: 'Create a schedule', description: 'A schedule creates a job from its crawl config at each time of its cron expression (UTC, 5 or 6 fields).', params: projectId, body: CreateScheduleBody, headers: idempotencyHeader, status: 201, response: data(Schedule), responseHeaders: { ...LOCATION('schedule'), ...REPLAYED }, errors: [403, 409, 422] },
  { method: 'get', path: '/v1/key/projects/{projectId}/schedules', tag: 'Schedules', summary: 'List schedules', description: "The project's schedules.", params: projectId, query: schedulesQuery, status: 200, response: list(Schedule), errors: [403] },
  { method: 'get', path: '/v1/key/schedules/{scheduleId}', tag: 'Schedules', summary: 'Get a schedule', description: 'One schedule with its cron expression, crawl config and next run.', params: scheduleId, status: 200, response: data(Schedule), errors: [404] },
  { method: 'patch', path: '/v1/key/schedules/{scheduleId}', tag: 'Schedules', summary: 'Update a schedule', description: 'Change `enabled`, `cron` or `crawlConfig` of a schedule.', params: scheduleId, body: UpdateScheduleBody, status: 200, response: data(Schedule), errors: [404] },
  { method: 'delete', path: '/v1/key/schedules/{scheduleId}', tag: 'Schedules', summary: 'Delete a schedule', description: 'Delete a schedule; the jobs it created stay.', params: scheduleId, status: 204, responseDescription: 'Deleted', errors: [404] },
  { method: 'get', path: '/v1/key/projects/{projectId}/webhooks', tag: 'Webhooks', summary: 'Get the webhook configurations', description: "The project's webhook configurations (with their secrets) and the recent delivery attempts.", params: projectId, query: webhooksQuery, status: 200, response: data(Webhooks), errors: [403] },
  { method: 'patch', path: '/v1/key/projects/{projectId}/webhooks', tag: 'Webhooks', operationId: 'replaceWebhooks', summary: 'Replace the webhook configurations', description: "Replace all of the project's webhook configurations (at most 20) in one request.", params: projectId, body: ReplaceWebhooksBody, status: 200, response: data(WebhookConfigs), errors: [403] },
  { method: 'post', path: '/v1/key/projects/{projectId}/webhooks/test', tag: 'Webhooks', summary: 'Send a test delivery', description: 'Send one signed test delivery of an event to a webhook now and report its answer.', params: projectId, body: TestWebhookBody, status: 200, response: data(WebhookTestResult), errors: [403, 404] },
  { method: 'get', path: '/v1/key/projects/{projectId}/webhooks/deliveries', tag: 'Webhooks', summary: 'List webhook deliveries', description: 'Deliveries, newest first, each with its last attempts; filters: status, event, webhookId, from, to.', params: projectId, query: deliveriesQuery, status: 200, response: list(WebhookDelivery), errors: [403] },
  { method: 'post', path: '/v1/key/projects/{projectId}/webhooks/deliveries/{deliveryId}/resend', tag: 'Webhooks', summary: 'Resend a webhook delivery', description: 'One more attempt of a delivered or failed delivery: same id and body, signed anew (409 while pending, with its webhook disabled or removed, or after its 5 manual attempts).', params: projectId.extend({ deliveryId: z.string() }), status: 202, response: data(WebhookDelivery), errors: [403, 404, 409] },
  { method: 'post', path: '/v1/key/projects/{projectId}/webhooks/replay', tag: 'Webhooks', operationId: 'replayWebhookDeliveries', summary: 'Replay failed webhook deliveries', description: 'One more attempt of every failed delivery created in a time range (at most 1,000 per call; call again while hasMore). Skips deliveries that had 5 manual attempts or were re-armed in the last minute; 409 while another replay of the project runs; 429 with Retry-After once the replays of the project re-armed its hourly budget of deliveries (WEBHOOK_REPLAY_BUDGET_PER_HOUR, default 2,000).', params: projectId, body: ReplayWebhooksBody, headers: idempotencyHeader, status: 202, response: data(WebhookReplayResult), responseHeaders: REPLAYED, errors: [403, 409, 422] },
  { method: 'get', path: '/v1/key/projects/{projectId}/tracked-targets', tag: 'Change tracking', summary: 'List tracked products', description: 'Tracked products with their latest snapshot and change counts.', params: projectId, query: trackedTargetsQuery, status: 200, response: list(TrackedTarget), errors: [403] },
  { method: 'get', path: '/v1/key/projects/{projectId}/tracked-targets/{asin}/timeline', tag: 'Change tracking', summary: "Get a tracked product's timeline", description: 'Snapshots of one product, newest first, with the changes between them.', params: projectId.extend({ asin: z.string().openapi({ example: 'B0DR8G428S' }) }), query: timelineQuery, status: 200, response: Timeline, errors: [403, 404] },
  { method: 'get', path: '/v1/key/projects/{projectId}/compare', tag: 'Change tracking', operationId: 'compareJobs', summary: 'Compare two jobs', description: 'Compare the result sets of two jobs of the project: the products only in one of them, in both, changed or moved.', params: projectId, query: compareQuery, status: 200, response: data(Comparison), errors: [403, 404, 410] },
  { method: 'get', path: '/v1/key/projects/{projectId}/usage', tag: 'Usage', summary: 'Get usage', description: "Credit balance, plan, rate limit and the project's credit ledger over a range (default: last 30 days); `pagination` pages `data.ledger`.", params: projectId, query: usageQuery, status: 200, response: z.object({ data: Usage, pagination: Pagination }).strict(), errors: [403] },
  { method: 'get', path: '/v1/key/projects/{projectId}/analytics', tag: 'Analytics', summary: 'Get analytics', description: 'Project analytics over a date range (default: last 30 days).', params: projectId, query: analyticsQuery, status: 200, response: data(Analytics), errors: [403] },
];

export const PUBLIC_OPERATIONS: Op[] = [
  { method: 'get', path: '/healthz', tag: 'Operations', operationId: 'getLiveness', summary: 'Liveness', description: 'Answers 200 while the process is up.', status: 200, response: data(Liveness), errors: [], auth: false },
  { method: 'get', path: '/readyz', tag: 'Operations', operationId: 'getReadiness', summary: 'Readiness', description: 'Answers 200 when Postgres and Redis are reachable, 503 with the same body otherwise.', status: 200, response: data(Readiness), errors: [], auth: false },
  { method: 'get', path: '/openapi.json', tag: 'Operations', operationId: 'getOpenApiDocument', summary: 'This document', description: 'The OpenAPI 3.1 document of this API.', status: 200, responseDescription: 'OpenAPI 3.1 JSON', errors: [], auth: false, content: { 'application/json': { schema: z.record(z.unknown()) } } },
  { method: 'get', path: '/docs', tag: 'Operations', summary: 'API documentation', description: 'Interactive API documentation of this document (works offline).', status: 200, responseDescription: 'HTML page', errors: [], auth: false, content: { 'text/html': { schema: z.string() } } },
];

/** A list answer (`{ data, pagination }`) of the form `list()` builds. */
function isPaginated(response: ZodTypeAny | undefined): boolean {
  return response instanceof z.ZodObject && 'pagination' in response.shape && response.shape.data instanceof z.ZodArray;
}

function register(registry: OpenAPIRegistry, op: Op): void {
  const authed = op.auth !== false;
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
    security: authed ? [{ apiKey: [] }] : [],
    request: {
      ...(op.params ? { params: op.params } : {}),
      ...(op.query ? { query: queryObject(op.query) } : {}),
      ...(op.headers ? { headers: op.headers } : {}),
      ...(op.body ? { body: { required: !op.bodyOptional, content: { 'application/json': { schema: op.body } } } } : {}),
    },
    responses: {
      [op.status]: success,
      // readiness answers 503 with the same body, not an error
      ...(op.path === '/readyz' ? { 503: { ...success, description: 'Not ready: Postgres or Redis unreachable' } } : {}),
      ...errorResponses(op.errors, authed),
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
  if (Array.isArray(schema.type) && schema.type.includes('null') && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) schema[key] = branches.filter((b, i) => branches.findIndex((o) => JSON.stringify(o) === JSON.stringify(b)) === i);
  }
  Object.values(node).forEach(mendNullables);
}

let cached: object | null = null;

export function openApiDocument(): object {
  if (cached) return cached;
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer', description: 'A project API key: `Authorization: Bearer <API key>`' });
  for (const op of [...API_OPERATIONS, ...PUBLIC_OPERATIONS]) register(registry, op);
  registerWebhooks(registry);
  cached = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Crawl Data Service API',
      version: '1.0.0',
      description:
        'Crawl jobs (keyword searches and product details on Amazon marketplaces), results and exports, schedules, change tracking, analytics and signed webhooks. Every `/v1/key` endpoint takes a project API key as a bearer token. Errors are `{"error": {"code", "message", "requestId", "details"}}`.',
    },
    servers: [{ url: '/' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
  });
  mendNullables(cached);
  return cached;
}
