import { paginationSchema as Pagination } from '@crawl/core';
import { z, type ZodTypeAny } from 'zod';

/**
 * What the OpenAPI document says about one operation. A route (route.ts) is this plus its
 * handler, so the path, the schemas and the answers are written once, next to the code that
 * serves them; openapi/document.ts turns the route table (index.ts) into the document. Nothing
 * under routes/ imports openapi/: the arrow runs one way.
 */
export type Method = 'get' | 'post' | 'patch' | 'delete';

export type Access = 'api' | 'session' | 'anonymous' | 'public';

/** Where each kind of operation is mounted. */
export const PREFIX: Record<Access, string> = { api: '/v1/key', session: '/v1/account', anonymous: '/v1/account', public: '' };

export const accessOf = (op: Pick<OperationDoc, 'access'>): Access => op.access ?? 'api';

/** The document's tags, each described (a new tag needs a description here). */
export const TAGS = {
  Jobs: 'Crawl jobs: create, follow, retry, cancel, and read or export their results',
  Schedules: 'Jobs created on a cron schedule',
  Webhooks: 'Signed deliveries of job and product events to your endpoints, and their history',
  'Change tracking': 'Products followed across crawls: snapshots, changes and comparisons of jobs',
  Usage: 'Credits, plan, rate limit and the credit ledger',
  Account: 'Sign-up, sign-in, sessions and passwords of console users (cookie `cds_session`)',
  Organizations: 'Organizations, their projects, members, invitations and audit log',
  'API keys': "A project's API keys: create, rotate with an overlap, revoke; and the calling key itself",
  Analytics: 'Aggregates of the crawls of a project',
  Alerts: "Alert rules over a project's tracked products, and the alerts they fired",
  Destinations: "S3-compatible buckets that receive every completed job's export, and the record of what was delivered",
  Operations: 'Health checks and this document (no API key)',
} as const;

export type Headers = Record<string, { description: string; required?: boolean; schema: { type: 'string' | 'integer'; enum?: string[] } }>;

export interface OperationDoc {
  method: Method;
  /** The OpenAPI path (`/v1/key/jobs/{jobId}`); the express path is derived from it. */
  path: string;
  tag: keyof typeof TAGS;
  /** A few words (a title in documentation). */
  summary: string;
  /** A sentence or two: what it does and what it answers. */
  description: string;
  /** Only where the name `deriveOperationId` gives reads badly; once published, never changed. */
  operationId?: string;
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
  /** Error statuses besides the ones every `/v1/key` operation can answer. */
  errors: number[];
  content?: Record<string, { schema: ZodTypeAny }>;
  /**
   * Who may call it, which also decides where it is mounted (docs/accounts.md):
   * - `api` (the default): under `/v1/key`, with an API key or a console session;
   * - `session`: under `/v1/account`, with a console session;
   * - `anonymous`: under `/v1/account`, without one (sign-up, sign-in, the mail links);
   * - `public`: at the root, without credentials (health checks, this document).
   */
  access?: Access;
}

/** Path parameters, documented from the path itself: a new one needs its schema here. */
export const PATH_PARAMS: Record<string, ZodTypeAny> = {
  projectId: z.string().openapi({ example: 'prj_2x2nikgxu7e1g6hw' }),
  jobId: z.string().openapi({ example: 'job_sfcsm02wi6t0dl1e' }),
  scheduleId: z.string(),
  orgId: z.string().openapi({ example: 'org_0k3b9x2m7q1w5e8r' }),
  userId: z.string(),
  keyId: z.string(),
  invitationId: z.string(),
  deliveryId: z.string(),
  asin: z.string().openapi({ example: 'B0DR8G428S' }),
  ruleId: z.string().openapi({ example: 'alr_5m0c2v8n4b1x7z3q' }),
  destinationId: z.string().openapi({ example: 'dst_3k8v1m5q9x2b7n4c' }),
  sessionId: z.string().openapi({ example: 'ses_7h2k9m4q1x8v3b6n' }),
};

/** The names of a path's parameters, in order (`/jobs/{jobId}/results` -> `['jobId']`). */
export const pathParamNames = (path: string): string[] => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } });
export const REQUEST_ID = {
  'X-Request-Id': {
    description: 'Request id: yours if you sent a sane `X-Request-Id`, else generated; quote it in support requests',
    schema: { type: 'string' as const },
  },
};
export const RATE_LIMIT = {
  'X-RateLimit-Limit': integerHeader('Requests allowed per user in the current window (absent when rate limiting is off)'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current window'),
  'X-RateLimit-Reset': integerHeader('Whole seconds until the window resets'),
};
export const RETRY_AFTER = { 'Retry-After': integerHeader('Whole seconds to wait before retrying') };
export const LOCATION = (what: string) => ({
  Location: { description: `Path of the ${what}`, required: true, schema: { type: 'string' as const } },
});
export const REPLAYED = {
  'Idempotent-Replayed': {
    description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key',
    schema: { type: 'string' as const, enum: ['true'] },
  },
};
/** Job-creating answers (create, retry, their idempotent replays). */
export const CREDITS_REMAINING = {
  'X-Credits-Remaining': integerHeader(
    "The organization's credit balance after this request (after the new job's reservation); on a replayed answer, the balance at replay time",
  ),
};
export const ATTACHMENT = {
  'Content-Disposition': {
    description: '`attachment; filename="<jobId>-<type>.<json|csv|llm.json>"`',
    schema: { type: 'string' as const },
  },
};

export const idempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .max(255)
    .optional()
    .openapi({ description: 'Replays the first successful response for 24 h instead of creating (and charging) again' }),
});

/** `{ data }` answers. */
export const data = (schema: ZodTypeAny) => z.object({ data: schema }).strict();
/** `{ data: [...], pagination }` answers. */
export const list = (schema: ZodTypeAny) => z.object({ data: z.array(schema), pagination: Pagination }).strict();
