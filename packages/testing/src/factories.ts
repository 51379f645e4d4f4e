import { type DetailsResultItem, type EventType, type JobSpec, newId, readJobSpec, type SearchResultItem, specCost } from '@crawl/core';
import {
  type Db,
  EventRepository,
  type EventRow,
  JobRepository,
  type JobRow,
  ScheduleRepository,
  type ScheduleRow,
  WebhookConfigRepository,
  type WebhookConfigRow,
} from '@crawl/db';
import { createTenant, type TestTenant } from './tenants';

/**
 * Row factories for direct tests of the transactional core (docs/testing.md, "Real stores,
 * one fake"): each inserts real rows with defaults, through the repositories the
 * services use, so a factory row is a row the product could have written. Nothing here is
 * shared seed data: every call makes its own rows, and a test that passes no owner gets a
 * tenant of its own.
 */

/** Who owns a row: a project and its organization. */
export interface Owner {
  projectId: string;
  organizationId: string;
}

let counter = 0;
/** A distinct, ASIN-shaped target per call: tests never collide on tracked products. */
export function uniqueAsin(): string {
  counter += 1;
  return `B0F${process.pid.toString(36).slice(-3).toUpperCase().padStart(3, '0')}${String(counter).padStart(4, '0')}`;
}

/** A new organization with one project (and user and key), through the admin CLI like createTenant. */
export async function buildProject(
  db: Db,
  overrides: { credits?: number; plan?: 'starter' | 'growth' | 'enterprise'; org?: string } = {},
): Promise<TestTenant> {
  return createTenant(db, {
    credits: overrides.credits ?? 10_000,
    ...(overrides.plan ? { plan: overrides.plan } : {}),
    ...(overrides.org ? { org: overrides.org } : {}),
  });
}

/** An organization of its own (with the one project every organization starts with). */
export async function buildOrganization(
  db: Db,
  overrides: { credits?: number; plan?: 'starter' | 'growth' | 'enterprise' } = {},
): Promise<TestTenant> {
  return buildProject(db, overrides);
}

export interface JobOverrides extends Partial<JobSpec> {
  owner?: Owner;
  /** `running` (the default) is what a worker records outcomes against; `queued` is a job not started yet. */
  status?: 'queued' | 'running';
  scheduleId?: string | null;
  creditsReserved?: number;
}

/**
 * A job with its targets and credit reservation (JobRepository.insertWithReservation, the
 * statement every job creation uses), started unless `status: 'queued'`. Defaults: a new
 * tenant, two details targets, US. Throws when the owner's balance does not cover it.
 */
export async function buildJob(db: Db, overrides: JobOverrides = {}): Promise<JobRow & { owner: Owner }> {
  const owner = overrides.owner ?? (await buildProject(db));
  const jobs = new JobRepository(db);
  const spec = readJobSpec({
    type: overrides.type ?? 'details',
    targets: overrides.targets ?? [uniqueAsin(), uniqueAsin()],
    marketplace: overrides.marketplace ?? 'US',
    lang: overrides.lang ?? null,
    pages: overrides.pages,
    sort: overrides.sort,
  });
  const row = await jobs.insertWithReservation({
    id: newId('job'),
    projectId: owner.projectId,
    organizationId: owner.organizationId,
    spec,
    creditsReserved: overrides.creditsReserved ?? specCost(spec),
    scheduleId: overrides.scheduleId ?? null,
  });
  if (!row) throw new Error(`buildJob: the balance of ${owner.organizationId} does not cover the job`);
  if ((overrides.status ?? 'running') === 'queued') return { ...row, owner };
  const running = await jobs.markRunning(row.id);
  return { ...running!, owner };
}

export interface ScheduleOverrides {
  owner?: Owner;
  cron?: string;
  crawlConfig?: Partial<JobSpec>;
  enabled?: boolean;
  /** Defaults to a second ago: the schedule is due. */
  nextRunAt?: Date;
}

/** A schedule (ScheduleRepository.create, no per-project cap), due by default, every minute. */
export async function buildSchedule(db: Db, overrides: ScheduleOverrides = {}): Promise<ScheduleRow & { owner: Owner }> {
  const owner = overrides.owner ?? (await buildProject(db));
  const row = await new ScheduleRepository(db).create(
    {
      projectId: owner.projectId,
      organizationId: owner.organizationId,
      cron: overrides.cron ?? '* * * * *',
      crawlConfig: readJobSpec({ type: 'details', targets: [uniqueAsin()], marketplace: 'US', lang: null, ...overrides.crawlConfig }),
      enabled: overrides.enabled ?? true,
      nextRunAt: overrides.nextRunAt ?? new Date(Date.now() - 1_000),
    },
    Number.MAX_SAFE_INTEGER,
  );
  if (!row) throw new Error('buildSchedule: the project refused another schedule');
  return { ...row, owner };
}

export interface WebhookConfigOverrides {
  name?: string | null;
  url?: string;
  triggerAction?: EventType;
  enabled?: boolean;
  secretEncrypted?: string;
}

/**
 * Adds one webhook configuration to a project. The repository only replaces a project's whole
 * list (the PATCH semantics), so the existing configurations are passed back unchanged.
 */
export async function buildWebhookConfig(db: Db, projectId: string, overrides: WebhookConfigOverrides = {}): Promise<WebhookConfigRow> {
  const repo = new WebhookConfigRepository(db);
  const existing = await repo.list(projectId);
  const result = await repo.replaceAll(
    projectId,
    [
      ...existing.map((c) => ({
        id: c.id,
        name: c.name,
        url: c.url,
        triggerAction: c.trigger_action,
        enabled: c.enabled,
        secretEncrypted: c.secret_encrypted,
      })),
      {
        name: overrides.name ?? null,
        url: overrides.url ?? 'http://127.0.0.1:9/webhook',
        triggerAction: overrides.triggerAction ?? 'job.completed',
        enabled: overrides.enabled ?? true,
        secretEncrypted: overrides.secretEncrypted ?? 'test-secret-not-encrypted',
      },
    ],
    Number.MAX_SAFE_INTEGER,
  );
  if (!('rows' in result)) throw new Error(`buildWebhookConfig: ${JSON.stringify(result)}`);
  const known = new Set(existing.map((c) => c.id));
  return result.rows.find((r) => !known.has(r.id))!;
}

/** An undispatched outbox event (EventRepository.insert, in a transaction of its own). */
export async function buildEvent(
  db: Db,
  projectId: string,
  overrides: { type?: EventType; data?: Record<string, unknown> } = {},
): Promise<EventRow> {
  const events = new EventRepository(db);
  const id = await db
    .transaction()
    .execute((trx) => events.insert(trx, { projectId, type: overrides.type ?? 'job.completed', data: overrides.data ?? { test: true } }));
  return db.selectFrom('event').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * A job row in memory, for pure functions of a row (credits, the job resource, event bodies):
 * a finished one-target details job unless overridden. Every column is set here, so the row
 * type never needs optional columns for samples, and a new column is added in this one place.
 */
export function jobRow(overrides: Partial<JobRow> = {}): JobRow {
  const id = overrides.id ?? newId('job');
  return {
    id,
    organization_id: 'org_0000000000000001',
    project_id: 'prj_0000000000000001',
    type: 'details',
    status: 'completed',
    marketplace: 'US',
    lang: null,
    targets: ['B0DR8G428S'],
    target_count: 1,
    pages: null,
    sort: null,
    postal_code: null,
    created_at: new Date('2026-11-22T10:00:00Z'),
    started_at: new Date('2026-11-22T10:00:01Z'),
    finished_at: new Date('2026-11-22T10:00:09Z'),
    succeeded: 1,
    failed: 0,
    results_count: 1,
    pages_crawled: 1,
    credits_reserved: 2,
    credits_consumed: 2,
    credits_refunded: 0,
    retry_of: null,
    schedule_id: null,
    errors: [],
    notes: [],
    results_purged_at: null,
    results_purge_pending: false,
    ...overrides,
  };
}

/** When the factories' items say their page was fetched. */
export const FETCHED_AT = '2026-12-01T12:00:00.000Z';

/** A complete details result item as the worker stores it (every field of the schema), with overrides. */
export function detailsItem(asin: string, overrides: Partial<DetailsResultItem> = {}): DetailsResultItem {
  return {
    target: asin,
    asin,
    url: `https://www.amazon.com/dp/${asin}`,
    title: `Product ${asin}`,
    brand: 'Acme',
    price: { amount: 19.99, currency: 'USD' },
    listPrice: null,
    rating: 4.5,
    reviewsCount: 120,
    availability: { status: 'in_stock', text: 'In Stock' },
    mainImage: `https://m.media-amazon.com/images/I/${asin}._AC_SX679_.jpg`,
    images: [],
    features: [],
    description: null,
    categories: [],
    bestSellersRank: [],
    seller: null,
    isPrime: false,
    variants: [],
    specifications: {},
    parentAsin: null,
    manufacturer: null,
    modelNumber: null,
    weight: null,
    dimensions: null,
    firstAvailable: null,
    ratingHistogram: null,
    badges: [],
    coupon: null,
    boughtPastMonth: null,
    shipsFrom: null,
    soldBy: null,
    fulfilledByAmazon: null,
    newOffersCount: null,
    lowestNewPrice: null,
    isbn13: null,
    gtin: null,
    deliveryLocation: null,
    shipping: null,
    deliveryPromise: null,
    unitPrice: null,
    subscribeAndSave: null,
    couponValue: null,
    stockQuantity: null,
    missingFields: [],
    parserVersion: 'test',
    fetchedAt: FETCHED_AT,
    sourceUrl: `https://www.amazon.com/dp/${asin}`,
    ...overrides,
  };
}

/** A complete search result item (one card) as the worker stores it, with overrides. */
export function searchItem(keyword: string, position: number, overrides: Partial<SearchResultItem> = {}): SearchResultItem {
  const asin = overrides.asin ?? uniqueAsin();
  return {
    keyword,
    page: 1,
    totalResults: null,
    position,
    organicPosition: position,
    asin,
    title: `Product ${asin}`,
    url: `https://www.amazon.com/dp/${asin}`,
    image: null,
    price: { amount: 9.99, currency: 'USD' },
    listPrice: null,
    unitPrice: null,
    rating: 4,
    reviewsCount: 10,
    isSponsored: false,
    isPrime: false,
    badges: [],
    brand: null,
    boughtPastMonth: null,
    coupon: null,
    deliveryText: null,
    deliveryLocation: null,
    missingFields: [],
    parserVersion: 'test',
    fetchedAt: FETCHED_AT,
    sourceUrl: `https://www.amazon.com/s?k=${encodeURIComponent(keyword)}`,
    ...overrides,
  };
}
