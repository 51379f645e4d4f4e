import {
  type DetailsResultItem,
  EVENT_TYPES,
  type EventType,
  type ResultItem,
  WEBHOOK_EVENT_DATA,
  webhookDeliveryBody,
  webhookDeliverySchema,
} from '@crawl/core';
import type { Db } from '@crawl/db';
import {
  buildJob,
  buildProject,
  detailsItem,
  openTestStore,
  progressRepositories,
  searchItem,
  type TestStore,
  uniqueAsin,
} from '@crawl/testing';
import { failJobInternally } from './internal-failure';
import { type JobProgressDeps, recordTargetOutcome, type TargetOutcome } from './job-progress';
import { MONITORED_FIELDS } from './product-snapshot';

/**
 * Every live event the producers write (recordTargetOutcome, finalizeJob through it and through
 * failJobInternally) parses with the schema of its event (@crawl/core webhook-events.ts), both
 * as stored `data` and as the delivery body the webhooks service sends. Real Postgres: the
 * events are read back from the outbox, after their JSON round trip.
 */
let store: TestStore;
let db: Db;
let deps: JobProgressDeps;

beforeAll(async () => {
  store = await openTestStore();
  ({ db } = store);
  deps = progressRepositories(db);
});
afterAll(() => store.close());

const eventsOf = (projectId: string) =>
  db
    .selectFrom('event')
    .select(['id', 'type', 'data', 'project_id', 'created_at'])
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
const succeeded = (items: ResultItem[]): TargetOutcome => ({ kind: 'succeeded', items, attempts: 1 });
const failed: TargetOutcome = { kind: 'failed', code: 'BLOCKED', message: 'captcha', attempts: 3 };

/** A details product with every monitored field, as the marketplace parser stores it. */
const product = (asin: string, price: number, extra: Partial<DetailsResultItem> = {}) =>
  detailsItem(asin, {
    price: { amount: price, currency: 'USD' },
    listPrice: { amount: 49.99, currency: 'USD' },
    availability: { status: 'in_stock', text: 'In Stock' },
    rating: 4.4,
    reviewsCount: 812,
    seller: { name: 'Acme', id: null },
    bestSellersRank: [{ category: 'Electronics', rank: 77 }],
    isPrime: true,
    mainImage: `https://m.media-amazon.com/images/I/${asin}._AC_SX679_.jpg`,
    ...extra,
  });

async function expectEventsParse(projectId: string, expected: EventType[]): Promise<void> {
  const events = await eventsOf(projectId);
  expect(events.map((e) => e.type)).toEqual(expected);
  for (const e of events) {
    const parsed = WEBHOOK_EVENT_DATA[e.type].safeParse(e.data);
    expect(parsed.error?.issues ?? []).toEqual([]);
    const body = webhookDeliveryBody({ id: 'dlv_x', event: e.type, createdAt: e.created_at, projectId: e.project_id, data: e.data });
    expect(webhookDeliverySchema.safeParse(JSON.parse(body)).error?.issues ?? []).toEqual([]);
  }
}

it('product.changed of a details crawl: numeric changes and the full snapshot, then job.completed', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const [a, b] = [uniqueAsin(), uniqueAsin()];
  const first = await buildJob(db, { owner, targets: [a] });
  await recordTargetOutcome(deps, first.id, 0, a, succeeded([product(a, 29.99)]));
  // Second crawl: price, rank, Prime and image change; the seller is not observed (kept, not a change).
  const second = await buildJob(db, { owner, targets: [a, b] });
  const changed = product(a, 24.5, {
    seller: null,
    isPrime: false,
    bestSellersRank: [{ category: 'Electronics', rank: 12 }],
    availability: { status: 'unknown', text: null },
  });
  expect(await recordTargetOutcome(deps, second.id, 0, a, succeeded([changed]))).toBe('recorded');
  expect(await recordTargetOutcome(deps, second.id, 1, b, failed)).toBe('finalized');

  await expectEventsParse(owner.projectId, ['job.completed', 'product.changed', 'job.completed']);
  const event = (await eventsOf(owner.projectId))[1]!;
  expect(event.data).toMatchObject({
    asin: a,
    jobId: second.id,
    changes: expect.arrayContaining([{ field: 'price', from: 29.99, to: 24.5 }]),
  });
  expect(Object.keys(event.data.snapshot as object).sort()).toEqual([...MONITORED_FIELDS].sort());
});

it('job.failed when no target succeeded, from the last outcome and from the internal-failure path', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const job = await buildJob(db, { owner, targets: [uniqueAsin()] });
  expect(await recordTargetOutcome(deps, job.id, 0, job.targets[0]!, failed)).toBe('finalized');
  const stuck = await buildJob(db, { owner, type: 'search', targets: ['headphones'] });
  expect(await failJobInternally(deps, stuck.id)).toBe('failed');

  await expectEventsParse(owner.projectId, ['job.failed', 'job.failed']);
});

/** Search crawls once counted changes but never announced them. */
it('a search crawl announces what it counts: one product.changed per changed card, none for a baseline', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const asin = uniqueAsin();
  const card = (price: number, rating: number) =>
    searchItem('usb cable', 1, {
      asin,
      title: 'Cable',
      price: { amount: price, currency: 'USD' },
      rating,
      image: 'https://m.media-amazon.com/images/I/c.jpg',
    });
  const first = await buildJob(db, { owner, type: 'search', targets: ['usb cable'] });
  expect(await recordTargetOutcome(deps, first.id, 0, 'usb cable', succeeded([card(5, 4)]))).toBe('finalized');
  const second = await buildJob(db, { owner, type: 'search', targets: ['usb cable'] });
  expect(await recordTargetOutcome(deps, second.id, 0, 'usb cable', succeeded([card(4.5, 4)]))).toBe('finalized');

  // The second crawl's change and job.completed share a transaction (same created_at): their order is not defined.
  const events = await eventsOf(owner.projectId);
  await expectEventsParse(
    owner.projectId,
    events.map((e) => e.type),
  );
  expect(events.map((e) => e.type).sort()).toEqual(['job.completed', 'job.completed', 'product.changed']);
  const event = events.find((e) => e.type === 'product.changed')!;
  expect(event.data).toMatchObject({
    asin,
    marketplace: 'US',
    jobId: second.id,
    changes: [{ field: 'price', from: 5, to: 4.5 }],
    snapshot: { price: 4.5, rating: 4 },
  });
  const tracked = await db
    .selectFrom('tracked_target')
    .select('change_count')
    .where('project_id', '=', owner.projectId)
    .where('asin', '=', asin)
    .executeTakeFirstOrThrow();
  expect(tracked.change_count).toBe(1); // the count and the events agree
});

it('the snapshot schema has exactly the monitored fields, and every event name has a data schema', () => {
  expect(Object.keys(WEBHOOK_EVENT_DATA['product.changed'].shape.snapshot.shape).sort()).toEqual([...MONITORED_FIELDS].sort());
  expect([...webhookDeliverySchema.optionsMap.keys()].sort()).toEqual([...EVENT_TYPES].sort());
});
