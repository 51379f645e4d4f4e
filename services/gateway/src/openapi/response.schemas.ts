import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { ERROR_STATUS, EVENT_TYPES, JOB_STATUSES, JOB_TYPES, jobResourceSchema } from '@crawl/core';
import { z } from 'zod';

extendZodWithOpenApi(z);

/** Response shapes for the OpenAPI document (responses are built by code, not parsed). */
const ts = z.string().datetime().openapi({ example: '2026-11-22T10:00:00.000Z' });

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [string, ...string[]]),
      message: z.string(),
      requestId: z.string(),
      details: z.unknown().optional().openapi({ description: 'For VALIDATION_ERROR: [{path, message}] for every problem; for INSUFFICIENT_CREDITS: {balance, cost}' }),
    }),
  })
  .openapi('Error', { example: { error: { code: 'VALIDATION_ERROR', message: 'Invalid request body: body.targets.0 must be a 10-character ASIN or an Amazon product URL.', requestId: 'b7c1…', details: [{ path: 'body.targets.0', message: 'must be a 10-character ASIN or an Amazon product URL' }] } } });

export const Pagination = z.object({ total: z.number().int(), limit: z.number().int(), offset: z.number().int(), hasMore: z.boolean() }).openapi('Pagination');

/** The job object has one definition, the one job events are checked against. */
export const Job = jobResourceSchema.openapi('Job');

export const ResultItem = z
  .record(z.unknown())
  .openapi('ResultItem', {
    description:
      'Details jobs: one item per product (target, asin, url, title, brand, price {amount, currency}, listPrice, rating, reviewsCount, availability {status, text}, mainImage, images, features, description, categories, bestSellersRank, seller, isPrime, variants, specifications). Search jobs: one item per result card (keyword, position, organicPosition, asin, title, url, image, price, listPrice, rating, reviewsCount, isSponsored, isPrime, badges). Every item has missingFields and parserVersion.',
  });

export const Schedule = z
  .object({
    id: z.string(),
    projectId: z.string(),
    cron: z.string(),
    crawlConfig: z.object({ type: z.enum(JOB_TYPES), targets: z.array(z.string()), config: z.object({ marketplace: z.string(), lang: z.string().nullable() }) }),
    enabled: z.boolean(),
    nextRunAt: ts.nullable(),
    lastRunAt: ts.nullable(),
    lastRunStatus: z.enum(['created', 'skipped_insufficient_credits']).nullable(),
    lastJobId: z.string().nullable(),
    createdAt: ts,
    updatedAt: ts,
  })
  .openapi('Schedule');

export const WebhookConfig = z
  .object({ id: z.string(), name: z.string().nullable(), url: z.string(), triggerAction: z.enum(EVENT_TYPES), enabled: z.boolean(), secret: z.string(), createdAt: ts, updatedAt: ts })
  .openapi('WebhookConfig');

export const WebhookLog = z
  .object({
    deliveryId: z.string().nullable(),
    webhookId: z.string(),
    event: z.string(),
    attempt: z.number().int(),
    success: z.boolean(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    test: z.boolean(),
    createdAt: ts,
  })
  .openapi('WebhookLogEntry');

export const WebhookTestResult = z
  .object({ success: z.boolean(), statusCode: z.number().int().nullable(), durationMs: z.number(), error: z.string().nullable(), deliveryId: z.string(), event: z.enum(EVENT_TYPES) })
  .openapi('WebhookTestResult');

const Snapshot = z.record(z.unknown()).openapi('ProductSnapshot', { description: 'price, listPrice, currency, availability, rating, reviewsCount, title, seller, bestSellersRank, isPrime, mainImage' });
const Change = z.object({ field: z.string(), from: z.unknown(), to: z.unknown() }).openapi('FieldChange');

export const TrackedTarget = z
  .object({ asin: z.string(), marketplace: z.string(), snapshot: Snapshot.nullable(), changeCount: z.number().int(), lastChangedAt: ts.nullable(), firstSeenAt: ts, lastSeenAt: ts })
  .openapi('TrackedTarget');

export const TimelineEntry = z
  .object({ jobId: z.string(), source: z.enum(JOB_TYPES), capturedAt: ts, snapshot: Snapshot, changes: z.array(Change) })
  .openapi('TimelineEntry');

export const Comparison = z
  .object({
    from: z.object({ id: z.string(), type: z.enum(JOB_TYPES), marketplace: z.string(), status: z.enum(JOB_STATUSES), createdAt: ts }),
    to: z.object({ id: z.string(), type: z.enum(JOB_TYPES), marketplace: z.string(), status: z.enum(JOB_STATUSES), createdAt: ts }),
    fieldsCompared: z.array(z.string()),
    note: z.string().optional(),
    summary: z.object({ onlyInFrom: z.number().int(), onlyInTo: z.number().int(), inBoth: z.number().int(), changed: z.number().int(), moved: z.number().int() }),
    onlyInFrom: z.array(z.string()),
    onlyInTo: z.array(z.string()),
    changed: z.array(z.object({ asin: z.string(), changes: z.array(Change) })),
    moved: z.array(z.object({ asin: z.string(), keyword: z.string(), from: z.number().int(), to: z.number().int(), delta: z.number().int() })),
  })
  .openapi('Comparison');

const counts = (keys: string[]) => z.object(Object.fromEntries(keys.map((k) => [k, z.number().int()])));
export const Analytics = z
  .object({
    range: z.object({ from: ts, to: ts }),
    jobs: z.object({ total: z.number().int(), byStatus: counts([...JOB_STATUSES]), byType: counts([...JOB_TYPES]), bySource: counts(['api', 'schedule', 'retry']) }),
    targets: z.object({ crawled: z.number().int(), succeeded: z.number().int(), failed: z.number().int(), successRate: z.number().nullable() }),
    failuresByCode: z.record(z.number().int()),
    credits: counts(['reserved', 'consumed', 'refunded']),
    results: z.number().int(),
    jobDurationSeconds: z.object({ p50: z.number().nullable(), p95: z.number().nullable() }),
    changesDetected: z.number().int(),
    webhookDeliveries: counts(['succeeded', 'failed', 'pending']),
    daily: z.array(z.object({ date: z.string(), jobs: z.number().int(), targets: z.number().int(), credits: counts(['reserved', 'consumed', 'refunded']) })),
  })
  .openapi('Analytics');
