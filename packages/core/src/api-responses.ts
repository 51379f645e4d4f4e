import { orNull, z } from './openapi-zod';
import { JOB_STATUSES, JOB_TYPES, REVIEW_SORTS } from './domain';
import { ERROR_STATUS } from './errors';
import { EVENT_TYPES, fieldChangeSchema, productSnapshotSchema, seriesPostalCodeSchema } from './webhook-events';

/**
 * The one definition of every JSON response body of the API (besides the job, the result items
 * and the webhook events, which have their own modules). The gateway's mappers are typed with
 * `satisfies` against these, the OpenAPI document registers them, the SDK's types are generated
 * from that document, and the gateway test suites validate every response they receive against
 * it (packages/testing openapi-contract.ts). Objects are strict: a field a mapper adds without
 * adding it here fails those tests.
 */

const isoTimestamp = z.string().datetime();
const count = z.number().int().nonnegative();

export const RUN_STATUSES = ['created', 'skipped_insufficient_credits'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const paginationSchema = z
  .object({ total: count, limit: count, offset: count, hasMore: z.boolean() })
  .strict()
  .openapi('Pagination');

export const fieldIssueSchema = z.object({ path: z.string(), message: z.string() }).strict().openapi('FieldIssue');

export const errorBodySchema = z
  .object({
    error: z
      .object({
        code: z.enum(Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]]),
        message: z.string(),
        requestId: z.string(),
        details: z
          .union([
            z.array(fieldIssueSchema).describe('VALIDATION_ERROR: every problem'),
            z.object({ balance: z.number().int(), cost: z.number().int() }).strict().describe('INSUFFICIENT_CREDITS'),
            z
              .object({ status: z.enum(JOB_STATUSES) })
              .strict()
              .describe('JOB_NOT_COMPLETE, INVALID_STATE: the job status'),
            z
              .object({ limit: z.number().int(), retryAfterSeconds: z.number().int() })
              .strict()
              .describe('RATE_LIMITED by the per-user limit'),
            z.object({ retryAfterSeconds: z.number().int() }).strict().describe('RATE_LIMITED after too many failed authentications'),
            z
              .object({ budgetPerHour: z.number().int(), retryAfterSeconds: z.number().int() })
              .strict()
              .describe("RATE_LIMITED: the project's webhook replays re-armed `budgetPerHour` deliveries in the last hour"),
            z
              .object({ maxManualAttempts: z.number().int() })
              .strict()
              .describe('INVALID_STATE: the delivery had its manual attempts (resends and replays)'),
            z
              .object({ storageCode: z.string(), storageMessage: z.string() })
              .strict()
              .describe("DESTINATION_UNREACHABLE: the storage's own error code and message (or a network failure's)"),
          ])
          .optional(),
      })
      .strict(),
  })
  .strict()
  .openapi('Error');
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const crawlConfigSchema = z
  .object({
    type: z.enum(JOB_TYPES),
    targets: z.array(z.string()),
    config: z
      .object({
        marketplace: z.string(),
        lang: z.string().nullable(),
        pages: z.number().int().optional().describe('Search, reviews and offers: pages per target (absent for other types)'),
        sort: z.enum(REVIEW_SORTS).optional().describe('Reviews: the review order (absent when not asked)'),
        postalCode: z.string().optional().describe('The delivery location, normalised for the marketplace (absent when not asked)'),
      })
      .strict(),
  })
  .strict()
  .openapi('CrawlConfig');
export type CrawlConfig = z.infer<typeof crawlConfigSchema>;

export const scheduleSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    cron: z.string(),
    crawlConfig: crawlConfigSchema,
    enabled: z.boolean(),
    nextRunAt: isoTimestamp.nullable().describe('null while disabled'),
    lastRunAt: isoTimestamp.nullable(),
    lastRunStatus: z.enum(RUN_STATUSES).nullable(),
    lastJobId: z.string().nullable(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .strict()
  .openapi('Schedule');
export type ScheduleResource = z.infer<typeof scheduleSchema>;

export const webhookConfigSchema = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    url: z.string(),
    triggerAction: z.enum(EVENT_TYPES),
    enabled: z.boolean(),
    secret: z
      .string()
      .describe('The signing secret; keep it confidential. Masked (its first 8 characters, then dots) for a `read` key or a viewer'),
    previousSecretExpiresAt: isoTimestamp
      .nullable()
      .describe('A secret rotation is in progress until then: deliveries carry a second v1= signature made with the previous secret'),
    disabledAt: isoTimestamp
      .nullable()
      .describe(
        'Set when the service disabled the endpoint after it failed continuously (webhook.disabled); PATCH with enabled: true re-enables it',
      ),
    disabledReason: z.string().nullable(),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .strict()
  .openapi('WebhookConfig');
export type WebhookConfigResource = z.infer<typeof webhookConfigSchema>;

/** One delivery attempt. `deliveryId` is null for attempts whose delivery row was since deleted. */
export const webhookLogEntrySchema = z
  .object({
    deliveryId: z.string().nullable(),
    webhookId: z.string(),
    event: z.enum(EVENT_TYPES),
    attempt: z.number().int().positive(),
    success: z.boolean(),
    statusCode: z.number().int().nullable().describe('null when no HTTP response was received'),
    durationMs: z.number().int().nonnegative(),
    error: z.string().nullable(),
    responseBody: z.string().nullable().describe("The first 1 KiB of the receiver's answer (null without one); signing secrets redacted"),
    test: z.boolean(),
    manual: z.boolean().describe('An attempt asked for by a resend or a replay'),
    createdAt: isoTimestamp,
  })
  .strict()
  .openapi('WebhookLogEntry');
export type WebhookLogEntryResource = z.infer<typeof webhookLogEntrySchema>;

export const webhooksSchema = z
  .object({ configs: z.array(webhookConfigSchema), logs: z.array(webhookLogEntrySchema) })
  .strict()
  .openapi('Webhooks');
export const webhookConfigsSchema = z
  .object({ configs: z.array(webhookConfigSchema) })
  .strict()
  .openapi('WebhookConfigs');

/** A failed test delivery is a result (`success: false`), not an API error. */
export const webhookTestResultSchema = z
  .object({
    success: z.boolean(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int().nonnegative(),
    error: z.string().nullable(),
    deliveryId: z.string(),
    event: z.enum(EVENT_TYPES),
  })
  .strict()
  .openapi('WebhookTestResult');
export type WebhookTestResultResource = z.infer<typeof webhookTestResultSchema>;

export const trackedTargetSchema = z
  .object({
    asin: z.string(),
    marketplace: z.string(),
    postalCode: seriesPostalCodeSchema,
    // The merged last known state; null before the first successful crawl
    snapshot: orNull(productSnapshotSchema),
    changeCount: count,
    lastChangedAt: isoTimestamp.nullable(),
    firstSeenAt: isoTimestamp,
    lastSeenAt: isoTimestamp,
  })
  .strict()
  .openapi('TrackedTarget');
export type TrackedTargetResource = z.infer<typeof trackedTargetSchema>;

export const timelineEntrySchema = z
  .object({
    jobId: z.string(),
    source: z.enum(JOB_TYPES).describe('The job type that captured the snapshot'),
    capturedAt: isoTimestamp,
    snapshot: productSnapshotSchema,
    changes: z.array(fieldChangeSchema).describe('Against the entry before; empty for the baseline'),
  })
  .strict()
  .openapi('TimelineEntry');

export const timelineSchema = z
  .object({
    data: z.array(timelineEntrySchema),
    target: z
      .object({
        asin: z.string(),
        marketplace: z.string(),
        postalCode: seriesPostalCodeSchema,
        changeCount: count,
        firstSeenAt: isoTimestamp,
        lastSeenAt: isoTimestamp,
      })
      .strict(),
  })
  .strict()
  .openapi('Timeline');
export type TimelineResource = z.infer<typeof timelineSchema>;

const comparedJobSchema = z
  .object({ id: z.string(), type: z.enum(JOB_TYPES), marketplace: z.string(), status: z.enum(JOB_STATUSES), createdAt: isoTimestamp })
  .strict();
const monitoredField = z.enum(
  Object.keys(productSnapshotSchema.shape) as [keyof typeof productSnapshotSchema.shape, ...(keyof typeof productSnapshotSchema.shape)[]],
);

export const comparisonSchema = z
  .object({
    from: comparedJobSchema,
    to: comparedJobSchema,
    fieldsCompared: z.array(monitoredField),
    note: z.string().optional().describe('Present when result sets of two job types are compared (details, search, bestsellers)'),
    summary: z.object({ onlyInFrom: count, onlyInTo: count, inBoth: count, changed: count, moved: count }).strict(),
    onlyInFrom: z.array(z.string()),
    onlyInTo: z.array(z.string()),
    changed: z.array(z.object({ asin: z.string(), changes: z.array(fieldChangeSchema) }).strict()),
    moved: z
      .array(
        z
          .object({
            asin: z.string(),
            keyword: z.string().describe('The keyword (search) or the best-seller list URL (bestsellers) the position is on'),
            from: z.number().int(),
            to: z.number().int(),
            delta: z.number().int(),
          })
          .strict(),
      )
      .describe('Search vs search: position moves per keyword; bestsellers vs bestsellers: rank moves per list'),
  })
  .strict()
  .openapi('Comparison');
export type ComparisonResource = z.infer<typeof comparisonSchema>;

const creditTotals = z.object({ reserved: count, consumed: count, refunded: count }).strict();
const countsOf = <K extends string>(keys: readonly K[]) =>
  z.object(Object.fromEntries(keys.map((k) => [k, count])) as Record<K, typeof count>).strict();

export const analyticsSchema = z
  .object({
    range: z.object({ from: isoTimestamp, to: isoTimestamp }).strict(),
    jobs: z
      .object({
        total: count,
        byStatus: countsOf(JOB_STATUSES),
        byType: countsOf(JOB_TYPES),
        bySource: countsOf(['api', 'schedule', 'retry'] as const),
      })
      .strict(),
    targets: z
      .object({ crawled: count, succeeded: count, failed: count, successRate: z.number().nullable() })
      .strict()
      .describe('A target counts once crawled to an outcome (succeeded + failed); cancelled or pending targets do not'),
    failuresByCode: z.record(count),
    credits: creditTotals,
    results: count,
    jobDurationSeconds: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }).strict(),
    changesDetected: count,
    webhookDeliveries: countsOf(['succeeded', 'failed', 'pending', 'cancelled'] as const).describe(
      'Deliveries created in the range by status (`succeeded`: delivered; `cancelled`: their webhook was deleted first)',
    ),
    daily: z
      .array(z.object({ date: z.string().describe('YYYY-MM-DD (UTC)'), jobs: count, targets: count, credits: creditTotals }).strict())
      .describe('Zero-filled, one entry per UTC day; sums to the totals'),
  })
  .strict()
  .openapi('Analytics');
export type AnalyticsResource = z.infer<typeof analyticsSchema>;

export const livenessSchema = z
  .object({ status: z.literal('ok') })
  .strict()
  .openapi('Liveness');
export const readinessSchema = z
  .object({ status: z.enum(['ready', 'unavailable']), postgres: z.boolean(), redis: z.boolean() })
  .strict()
  .openapi('Readiness');
