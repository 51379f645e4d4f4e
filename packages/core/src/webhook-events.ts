import { z } from './openapi-zod';
import { inSchemaOrder } from './schema-order';
import { JOB_STATUSES, JOB_TYPES, REVIEW_SORTS, TARGET_ERROR_CODES, TARGET_NOTE_CODES } from './domain';
import { MAX_PAGES_ANY_TYPE } from './kinds';
import { marketplaceCodeSchema } from './marketplaces';
import { alertConditionSchema, alertValueSchema } from './alert-conditions';

/**
 * The one definition of every webhook event's `data` and of the delivery envelope (see
 * docs/events-and-webhooks.md, README "Webhooks"). Live events (packages/jobs) and test deliveries (gateway
 * sample-events.ts) are both checked against these schemas by tests, so a test delivery can
 * no longer teach a receiver a shape that live events do not have (one once did).
 *
 * The schemas are strict (unknown keys fail): a field added to a producer must be added here,
 * where receivers and the docs read it. They are used by tests and documentation, and on the
 * delivery path only for the order of keys (`webhookDeliveryBody`): events are not validated
 * there, they are serialized once and stored (the outbox).
 *
 * `@crawl/client` (src/webhook-signature.ts) keeps its own copy of the event names because it
 * must stay dependency-free (it is packed on its own, and receivers copy that file as it is);
 * its webhook-event-names.unit.test.ts fails when the copy differs from EVENT_TYPES.
 */

const isoTimestamp = z.string().datetime();

/**
 * The job object (docs/http-api.md) as the API and job events carry it; `toJobResource` in
 * packages/jobs builds it. The event schemas extend the unnamed object: extending the named one
 * would make the document an `allOf` whose strict branch rejects the base's fields.
 */
const jobObject = z
  .object({
    id: z.string(),
    projectId: z.string(),
    type: z.enum(JOB_TYPES),
    status: z.enum(JOB_STATUSES),
    marketplace: marketplaceCodeSchema,
    lang: z.string().nullable(),
    targets: z.array(z.string()),
    createdAt: isoTimestamp,
    startedAt: isoTimestamp.nullable(),
    finishedAt: isoTimestamp.nullable(),
    progress: z.object({ total: z.number().int(), succeeded: z.number().int(), failed: z.number().int() }).strict(),
    credits: z
      .object({ reserved: z.number().int(), consumed: z.number().int(), refunded: z.number().int() })
      .strict()
      .describe(
        '`reserved`: every page of every target (search: 5 x keywords x pages); `consumed`: the pages crawled so far by targets that finished with results; settled (consumed + refunded = reserved) when the job ends, pages not crawled being refunded',
      ),
    resultsCount: z.number().int(),
    retryOf: z.string().nullable(),
    scheduleId: z.string().nullable(),
    errors: z.array(z.object({ target: z.string(), code: z.enum(TARGET_ERROR_CODES), message: z.string() }).strict()),
    pages: z
      .number()
      .int()
      .min(1)
      .max(MAX_PAGES_ANY_TYPE)
      .nullable()
      .describe(
        'Search, reviews and offers jobs: pages crawled per target at most (`config.pages`; result pages of a keyword, review or offer-listing pages of a product); null for other job types',
      ),
    sort: z
      .enum(REVIEW_SORTS)
      .nullable()
      .describe('Reviews jobs: the review order asked for (`config.sort`); null for other job types and when not asked'),
    postalCode: z
      .string()
      .nullable()
      .describe(
        "The delivery location asked for (`config.postalCode`, normalised for the marketplace); null: the marketplace's own, which each item reports in `deliveryLocation`",
      ),
    notes: z
      .array(z.object({ target: z.string(), code: z.enum(TARGET_NOTE_CODES), message: z.string() }).strict())
      .describe(
        'Targets that succeeded with something to say: `NO_RESULTS`, the marketplace found nothing for the keyword, or the product has no offers or reviews (zero rows, refunded); `TRUNCATED`, the listing has more pages than were crawled (`config.pages` or the cap), so the rows are not all of it',
      ),
    resultsPurgedAt: isoTimestamp
      .optional()
      .describe(
        'Present once the results were deleted (DELETE /jobs/{id}) or purged by retention; results and export then answer 410 GONE',
      ),
  })
  .strict();
export const jobResourceSchema = jobObject.openapi('Job');
export type JobResourceData = z.infer<typeof jobResourceSchema>;

/** `job.completed`: the finished job; at least one target produced a result. */
export const jobCompletedDataSchema = jobObject
  .extend({
    status: z.literal('completed'),
    finishedAt: isoTimestamp,
    deliveries: z
      .array(z.object({ destinationId: z.string(), key: z.string().describe('The object key the export is written to') }).strict())
      .describe(
        "Where the job's export is being delivered: one entry per storage destination of the project that takes this job (empty: none)",
      ),
  })
  .openapi('JobCompletedData');
/** `job.failed`: the finished job; no target produced a result (everything was refunded). */
export const jobFailedDataSchema = jobObject.extend({ status: z.literal('failed'), finishedAt: isoTimestamp }).openapi('JobFailedData');

/**
 * The monitored fields of one product (packages/jobs product-snapshot.ts, where `ProductSnapshot`
 * is inferred from this schema). null = not observed. Prices are plain numbers in `currency`.
 */
export const productSnapshotSchema = z
  .object({
    price: z.number().nullable(),
    listPrice: z.number().nullable(),
    currency: z.string().nullable(),
    availability: z.string().nullable(),
    rating: z.number().nullable(),
    reviewsCount: z.number().int().nullable(),
    title: z.string().nullable(),
    seller: z.string().nullable(),
    bestSellersRank: z.object({ category: z.string(), rank: z.number().int() }).strict().nullable(),
    isPrime: z.boolean().nullable(),
    mainImage: z.string().nullable(),
    lowestNewPrice: z
      .number()
      .nullable()
      .describe('Offer listings: the lowest item price (shipping excluded) of an offer in new condition, in `currency`'),
  })
  .strict()
  .openapi('ProductSnapshot');
export type ProductSnapshotData = z.infer<typeof productSnapshotSchema>;

type SnapshotShape = typeof productSnapshotSchema.shape;
/** One change: `from` and `to` have the type of the snapshot field, never null (an unobserved field is no change). */
const change = <F extends keyof SnapshotShape, V extends z.ZodTypeAny>(field: F, value: V) =>
  z.object({ field: z.literal(field), from: value, to: value }).strict();
const s = productSnapshotSchema.shape;
export const fieldChangeSchema = z
  .discriminatedUnion('field', [
    change('price', s.price.unwrap()),
    change('listPrice', s.listPrice.unwrap()),
    change('currency', s.currency.unwrap()),
    change('availability', s.availability.unwrap()),
    change('rating', s.rating.unwrap()),
    change('reviewsCount', s.reviewsCount.unwrap()),
    change('title', s.title.unwrap()),
    change('seller', s.seller.unwrap()),
    change('bestSellersRank', s.bestSellersRank.unwrap()),
    change('isPrime', s.isPrime.unwrap()),
    change('mainImage', s.mainImage.unwrap()),
    change('lowestNewPrice', s.lowestNewPrice.unwrap()),
  ])
  .openapi('FieldChange');
export type FieldChangeData = z.infer<typeof fieldChangeSchema>;

/** The delivery location of a tracked product's series (docs/schedules-and-tracking.md, "Locations"). */
export const seriesPostalCodeSchema = z
  .string()
  .nullable()
  .describe(
    'The delivery location its jobs asked for (`config.postalCode`); null: jobs that asked for none. Each location is a series of its own',
  );

/** `product.changed`: a monitored product changed, seen by a details or a search crawl; `snapshot` is its merged last known state. */
export const productChangedDataSchema = z
  .object({
    asin: z.string(),
    marketplace: z.string(),
    postalCode: seriesPostalCodeSchema,
    jobId: z.string(),
    changes: z.array(fieldChangeSchema).min(1),
    snapshot: productSnapshotSchema,
  })
  .strict()
  .openapi('ProductChangedData');
export type ProductChangedData = z.infer<typeof productChangedDataSchema>;

/**
 * `schedule.triggered`: accepted as a webhook trigger and sent as a test event, but NEVER emitted
 * live (no producer writes it; a schedule's run is visible as the job it creates, whose
 * job.completed / job.failed events carry `scheduleId`). This is the shape test deliveries use
 * and a future live event must keep.
 */
export const scheduleTriggeredDataSchema = z
  .object({ scheduleId: z.string(), jobId: z.string(), firedAt: isoTimestamp })
  .strict()
  .openapi('ScheduleTriggeredData');

/**
 * `product.alert`: an alert rule's condition became true for a tracked product (docs/alerts.md).
 * `value` is what the condition looked at on the new snapshot, `previous` the same field before
 * it, `baseline` the price a percentage was computed against (null for other conditions).
 */
export const productAlertDataSchema = z
  .object({
    alertId: z.string().describe('The alert (GET …/alerts lists it); one alert is one event, whatever its deliveries'),
    ruleId: z.string(),
    ruleName: z.string(),
    asin: z.string(),
    marketplace: z.string(),
    postalCode: seriesPostalCodeSchema,
    condition: alertConditionSchema,
    value: alertValueSchema.describe(
      'What the condition looked at on the new snapshot (the price, the availability status, the seller, …)',
    ),
    previous: alertValueSchema.describe('The same field as the product page showed it before; null when it was not observed'),
    baseline: z
      .number()
      .nullable()
      .describe('price_drop_pct and price_rise_pct: the price the percentage was computed against; null for other conditions'),
    jobId: z.string().describe('The job whose crawl made the condition true'),
    // the product's merged last known state, as product.changed carries it (a named schema: no description, or the document gets an allOf)
    snapshot: productSnapshotSchema,
  })
  .strict()
  .openapi('ProductAlertData');
export type ProductAlertData = z.infer<typeof productAlertDataSchema>;

/** Event name -> schema of its `data`. The keys are the event names (EVENT_TYPES). */
export const WEBHOOK_EVENT_DATA = {
  'job.completed': jobCompletedDataSchema,
  'job.failed': jobFailedDataSchema,
  'schedule.triggered': scheduleTriggeredDataSchema,
  'product.changed': productChangedDataSchema,
  'product.alert': productAlertDataSchema,
} as const;

export type EventType = keyof typeof WEBHOOK_EVENT_DATA;
/** Every event name, in the order of WEBHOOK_EVENT_DATA (a tuple, for `z.enum`). */
export const EVENT_TYPES = Object.keys(WEBHOOK_EVENT_DATA) as [EventType, ...EventType[]];
export type WebhookEventData<E extends EventType> = z.infer<(typeof WEBHOOK_EVENT_DATA)[E]>;

const envelope = <E extends EventType>(event: E) =>
  z
    .object({
      id: z.string().describe('The delivery id (also the X-Service-Delivery header): deduplicate on it'),
      event: z.literal(event),
      createdAt: isoTimestamp,
      projectId: z.string(),
      data: WEBHOOK_EVENT_DATA[event] as (typeof WEBHOOK_EVENT_DATA)[E],
      test: z.literal(true).optional().describe('Present (true) only on test deliveries'),
    })
    .strict();

/** Event name -> the JSON body of its deliveries; the OpenAPI `webhooks` section documents these. */
/** The OpenAPI component name of each event's delivery body. */
export const WEBHOOK_DELIVERY_COMPONENTS = {
  'job.completed': 'JobCompletedDelivery',
  'job.failed': 'JobFailedDelivery',
  'schedule.triggered': 'ScheduleTriggeredDelivery',
  'product.changed': 'ProductChangedDelivery',
  'product.alert': 'ProductAlertDelivery',
} as const satisfies Record<EventType, string>;

export const WEBHOOK_DELIVERY_BODIES = {
  'job.completed': envelope('job.completed').openapi(WEBHOOK_DELIVERY_COMPONENTS['job.completed']),
  'job.failed': envelope('job.failed').openapi(WEBHOOK_DELIVERY_COMPONENTS['job.failed']),
  'schedule.triggered': envelope('schedule.triggered').openapi(WEBHOOK_DELIVERY_COMPONENTS['schedule.triggered']),
  'product.changed': envelope('product.changed').openapi(WEBHOOK_DELIVERY_COMPONENTS['product.changed']),
  'product.alert': envelope('product.alert').openapi(WEBHOOK_DELIVERY_COMPONENTS['product.alert']),
} as const;

/** The JSON body of a delivery, `webhookDeliveryBody` serializes it. */
export const webhookDeliverySchema = z.discriminatedUnion('event', [
  WEBHOOK_DELIVERY_BODIES['job.completed'],
  WEBHOOK_DELIVERY_BODIES['job.failed'],
  WEBHOOK_DELIVERY_BODIES['schedule.triggered'],
  WEBHOOK_DELIVERY_BODIES['product.changed'],
  WEBHOOK_DELIVERY_BODIES['product.alert'],
]);
export type WebhookDeliveryBody = z.infer<typeof webhookDeliverySchema>;

/**
 * The JSON body of a delivery: the one serializer of live events (from the outbox) and test
 * deliveries alike. Serialized once, when the delivery is created, and stored: every attempt
 * sends the same bytes. `data` keys follow the order of the event's schema, which is the order
 * the API answers the same objects in (a job in `job.completed` reads like `GET /jobs/{id}`),
 * whatever order the stored event came back in.
 */
export function webhookDeliveryBody(d: {
  id: string;
  event: string;
  createdAt: Date;
  projectId: string;
  data: unknown;
  test?: boolean;
}): string {
  const schema = Object.hasOwn(WEBHOOK_EVENT_DATA, d.event) ? WEBHOOK_EVENT_DATA[d.event as EventType] : null;
  return JSON.stringify({
    id: d.id,
    event: d.event,
    createdAt: d.createdAt.toISOString(),
    projectId: d.projectId,
    data: schema ? inSchemaOrder(schema, d.data) : d.data,
    ...(d.test ? { test: true } : {}),
  });
}
