import type { TargetErrorCode } from '@crawl/core';
import type { CreditRepository, Db } from '@crawl/db';
import { createLogger } from '@crawl/observability';
import type { QueueProducer } from '@crawl/queue';
import {
  buildJob,
  buildProject,
  detailsItem,
  openTestQueue,
  openTestStore,
  progressRepositories,
  type TestQueue,
  type TestStore,
  uniqueAsin,
} from '@crawl/testing';
import { type JobProgressDeps, recordTargetOutcome, type TargetOutcome } from './job-progress';
import { JobService } from './job.service';

/**
 * recordTargetOutcome by direct call against a cloned database: what one outcome writes, the
 * finalization of the last one (status, credit settlement, outbox event) and the outcomes it
 * must discard. No release window is passed (it is optional; release-window.int.test.ts covers it).
 */
let store: TestStore;
let queue: TestQueue;
let db: Db;
let producer: QueueProducer;
let deps: JobProgressDeps;
let credits: CreditRepository;

beforeAll(async () => {
  store = await openTestStore();
  queue = openTestQueue('progress');
  ({ db } = store);
  ({ producer } = queue);
  deps = progressRepositories(db);
  credits = deps.credits;
});
afterAll(async () => {
  await queue.close();
  await store.close();
});

const failed = (code: TargetErrorCode = 'NOT_FOUND', message = 'no such product'): TargetOutcome => ({
  kind: 'failed',
  code,
  message,
  attempts: 3,
});
const item = (asin: string, price: number) => detailsItem(asin, { price: { amount: price, currency: 'USD' } });

const jobRow = (id: string) => db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const targetRow = (id: string, idx: number) =>
  db.selectFrom('job_target').selectAll().where('job_id', '=', id).where('idx', '=', idx).executeTakeFirstOrThrow();
const resultRows = (id: string) =>
  db
    .selectFrom('result_item')
    .select(['target_idx', 'position', 'data'])
    .where('job_id', '=', id)
    .orderBy('target_idx')
    .orderBy('position')
    .execute();
const eventsOf = (projectId: string) =>
  db.selectFrom('event').select(['type', 'data']).where('project_id', '=', projectId).orderBy('created_at').execute();

it('a success stores its result rows, counts them and tracks the products, without finishing the job', async () => {
  const job = await buildJob(db, { targets: [uniqueAsin(), uniqueAsin()] });
  const asin = job.targets[0]!;
  const items = [item(asin, 19.99), item(uniqueAsin(), 5)];

  expect(await recordTargetOutcome(deps, job.id, 0, asin, { kind: 'succeeded', items, attempts: 2 })).toBe('recorded');

  expect(await resultRows(job.id)).toEqual([
    { target_idx: 0, position: 1, data: items[0] },
    { target_idx: 0, position: 2, data: items[1] },
  ]);
  const target = await targetRow(job.id, 0);
  expect(target).toMatchObject({ status: 'succeeded', attempts: 2, error_code: null });
  expect(target.finished_at).not.toBeNull();
  expect(await targetRow(job.id, 1)).toMatchObject({ status: 'pending' });
  expect(await jobRow(job.id)).toMatchObject({ status: 'running', succeeded: 1, failed: 0, results_count: 2, errors: [] });

  // One tracked product per ASIN among the items, with its latest state and a snapshot of this job.
  const tracked = await db
    .selectFrom('tracked_target')
    .select(['asin', 'latest_snapshot'])
    .where('project_id', '=', job.owner.projectId)
    .orderBy('asin')
    .execute();
  expect(tracked.map((t) => t.asin)).toEqual([asin, items[1]!.asin].sort());
  expect(tracked.find((t) => t.asin === asin)!.latest_snapshot).toMatchObject({
    price: 19.99,
    currency: 'USD',
    rating: 4.5,
    title: `Product ${asin}`,
  });
  const snapshots = await db
    .selectFrom('product_snapshot')
    .select(['asin', 'job_id'])
    .where('project_id', '=', job.owner.projectId)
    .execute();
  expect(snapshots).toHaveLength(2);
  expect(snapshots.every((s) => s.job_id === job.id)).toBe(true);
  expect(await eventsOf(job.owner.projectId)).toEqual([]); // a first sighting is no change
});

it('a failure appends the target’s error to the job and stores no result', async () => {
  const job = await buildJob(db, { targets: [uniqueAsin(), uniqueAsin(), uniqueAsin()] });

  expect(await recordTargetOutcome(deps, job.id, 1, job.targets[1]!, failed('NOT_FOUND', 'product page 404'))).toBe('recorded');
  expect(await recordTargetOutcome(deps, job.id, 2, job.targets[2]!, failed('BLOCKED', 'captcha'))).toBe('recorded');

  expect(await jobRow(job.id)).toMatchObject({
    status: 'running',
    succeeded: 0,
    failed: 2,
    results_count: 0,
    errors: [
      { target: job.targets[1], code: 'NOT_FOUND', message: 'product page 404' },
      { target: job.targets[2], code: 'BLOCKED', message: 'captcha' },
    ],
  });
  expect(await targetRow(job.id, 1)).toMatchObject({
    status: 'failed',
    attempts: 3,
    error_code: 'NOT_FOUND',
    error_message: 'product page 404',
  });
  expect(await resultRows(job.id)).toEqual([]);
});

it('the last outcome completes a job with a success: succeeded targets consumed, the rest refunded, one job.completed event', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const job = await buildJob(db, { owner, targets: [uniqueAsin(), uniqueAsin()] }); // details: 2 credits a target
  expect(await credits.balance(owner.organizationId)).toBe(96);

  expect(
    await recordTargetOutcome(deps, job.id, 0, job.targets[0]!, { kind: 'succeeded', items: [item(job.targets[0]!, 10)], attempts: 1 }),
  ).toBe('recorded');
  expect(await eventsOf(owner.projectId)).toEqual([]);
  expect(await recordTargetOutcome(deps, job.id, 1, job.targets[1]!, failed())).toBe('finalized');

  const final = await jobRow(job.id);
  expect(final).toMatchObject({
    status: 'completed',
    succeeded: 1,
    failed: 1,
    credits_reserved: 4,
    credits_consumed: 2,
    credits_refunded: 2,
  });
  expect(final.finished_at).not.toBeNull();
  expect(await credits.balance(owner.organizationId)).toBe(98);
  const ledger = await db
    .selectFrom('credit_ledger')
    .select(['kind', 'amount', 'balance_after'])
    .where('job_id', '=', job.id)
    .orderBy('id')
    .execute();
  expect(ledger).toEqual([
    { kind: 'reserve', amount: 4, balance_after: 96 },
    { kind: 'refund', amount: 2, balance_after: 98 },
    { kind: 'consume', amount: 2, balance_after: 98 },
  ]);
  const events = await eventsOf(owner.projectId);
  expect(events.map((e) => e.type)).toEqual(['job.completed']);
  expect(events[0]!.data).toMatchObject({ id: job.id, status: 'completed' });
});

it('the last outcome fails a job with no success: everything refunded, nothing consumed, one job.failed event', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const job = await buildJob(db, { owner, type: 'search', targets: ['headphones', 'usb cable'] }); // search: 5 a target

  expect(await recordTargetOutcome(deps, job.id, 1, 'usb cable', failed())).toBe('recorded');
  expect(await recordTargetOutcome(deps, job.id, 0, 'headphones', failed())).toBe('finalized');

  expect(await jobRow(job.id)).toMatchObject({ status: 'failed', succeeded: 0, failed: 2, credits_consumed: 0, credits_refunded: 10 });
  expect(await credits.balance(owner.organizationId)).toBe(100);
  const ledger = await db.selectFrom('credit_ledger').select(['kind', 'amount']).where('job_id', '=', job.id).orderBy('id').execute();
  expect(ledger).toEqual([
    { kind: 'reserve', amount: 10 },
    { kind: 'refund', amount: 10 },
  ]);
  const events = await eventsOf(owner.projectId);
  expect(events.map((e) => e.type)).toEqual(['job.failed']);
  expect(events[0]!.data).toMatchObject({ id: job.id, status: 'failed' });
});

it('a second outcome for the same target is discarded and stores nothing, even after the job finished', async () => {
  const job = await buildJob(db, { targets: [uniqueAsin(), uniqueAsin()] });
  const first = { kind: 'succeeded' as const, items: [item(job.targets[0]!, 1)], attempts: 1 };
  expect(await recordTargetOutcome(deps, job.id, 0, job.targets[0]!, first)).toBe('recorded');
  const before = await jobRow(job.id);

  // A redelivered task (success or failure this time) finds the target no longer pending.
  expect(
    await recordTargetOutcome(deps, job.id, 0, job.targets[0]!, { ...first, items: [item(job.targets[0]!, 2), item(uniqueAsin(), 3)] }),
  ).toBe('discarded');
  expect(await recordTargetOutcome(deps, job.id, 0, job.targets[0]!, failed())).toBe('discarded');
  expect(await jobRow(job.id)).toEqual(before);
  expect(await resultRows(job.id)).toHaveLength(1);
  expect(await targetRow(job.id, 0)).toMatchObject({ status: 'succeeded', error_code: null });

  expect(await recordTargetOutcome(deps, job.id, 1, job.targets[1]!, failed())).toBe('finalized');
  const finished = await jobRow(job.id);
  expect(await recordTargetOutcome(deps, job.id, 1, job.targets[1]!, failed())).toBe('discarded');
  expect(await jobRow(job.id)).toEqual(finished);
  expect((await eventsOf(job.owner.projectId)).map((e) => e.type)).toEqual(['job.completed']); // not finalized twice
  const settlements = await db
    .selectFrom('credit_ledger')
    .select('kind')
    .where('job_id', '=', job.id)
    .where('kind', 'in', ['refund', 'consume'])
    .execute();
  expect(settlements).toHaveLength(2);
});

it('an outcome for a cancelled job is discarded: no result, no counter, no second settlement, no event', async () => {
  const owner = await buildProject(db, { credits: 100 });
  const job = await buildJob(db, { owner, targets: [uniqueAsin(), uniqueAsin(), uniqueAsin()] });
  expect(
    await recordTargetOutcome(deps, job.id, 0, job.targets[0]!, { kind: 'succeeded', items: [item(job.targets[0]!, 1)], attempts: 1 }),
  ).toBe('recorded');
  const service = new JobService({
    db,
    jobs: deps.jobs,
    targets: deps.targets,
    credits,
    producer,
    log: createLogger({ level: 'silent', service: 'job-progress-test' }),
  });
  await service.cancel(job.id, owner.projectId);
  const cancelled = await jobRow(job.id);
  expect(cancelled).toMatchObject({ status: 'cancelled', credits_consumed: 2, credits_refunded: 4 });
  const balance = await credits.balance(owner.organizationId);

  expect(
    await recordTargetOutcome(deps, job.id, 1, job.targets[1]!, { kind: 'succeeded', items: [item(job.targets[1]!, 1)], attempts: 1 }),
  ).toBe('discarded');
  expect(await recordTargetOutcome(deps, job.id, 2, job.targets[2]!, failed())).toBe('discarded');

  expect(await jobRow(job.id)).toEqual(cancelled);
  expect(await targetRow(job.id, 1)).toMatchObject({ status: 'cancelled', error_code: 'CANCELLED' });
  expect((await resultRows(job.id)).map((r) => r.target_idx)).toEqual([0]);
  expect(await credits.balance(owner.organizationId)).toBe(balance);
  expect(await eventsOf(owner.projectId)).toEqual([]);
});

it('an outcome for a job or target that does not exist is discarded', async () => {
  const job = await buildJob(db, { targets: [uniqueAsin()] });
  expect(await recordTargetOutcome(deps, 'job_doesnotexist', 0, 'x', failed())).toBe('discarded');
  expect(await recordTargetOutcome(deps, job.id, 7, 'x', failed())).toBe('discarded');
  expect(await jobRow(job.id)).toMatchObject({ status: 'running', succeeded: 0, failed: 0, errors: [] });
});
