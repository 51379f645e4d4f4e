import { CreditRepository, type Db, JobRepository, JobTargetRepository, ReleaseWindowRepository } from '@crawl/db';
import { JobService, ReleaseWindow, targetTaskId } from '@crawl/jobs';
import { createLogger } from '@crawl/observability';
import type { HandlerContext, QueueProducer } from '@crawl/queue';
import { createTenant, openTestQueue, openTestStore, type TestQueue, type TestStore } from '@crawl/testing';
import { startJobHandler } from './start-job.handler';

/**
 * The start handler against a real database and queue: a start enqueues only the
 * organization's window, and a restart (tasks lost with Redis data, or released by an outcome
 * while Redis refused the enqueue) re-adds exactly the released pending targets.
 */
let store: TestStore;
let testQueue: TestQueue;
let db: Db;
let producer: QueueProducer;
const log = createLogger({ level: 'silent', service: 'start-job-test' });
const ctx: HandlerContext = { attempt: 1, maxAttempts: 10, log };

beforeAll(async () => {
  store = await openTestStore();
  testQueue = openTestQueue('start');
  ({ db } = store);
  ({ producer } = testQueue);
});
afterAll(async () => {
  await testQueue.close();
  await store.close();
});

it('a start enqueues the window only; a restart re-adds lost released targets and nothing unreleased', async () => {
  const jobs = new JobRepository(db);
  const targets = new JobTargetRepository(db);
  const releases = new ReleaseWindow({ db, windows: new ReleaseWindowRepository(db), producer, log, window: 3 });
  const handler = startJobHandler({ jobs, targets, producer, releases });
  const service = new JobService({ db, jobs, targets, credits: new CreditRepository(db), producer, log });
  const tenant = await createTenant(db, { credits: 1_000 });
  const job = await service.create(
    {
      type: 'details',
      targets: ['B0START001', 'B0START002', 'B0START003', 'B0START004', 'B0START005'],
      marketplace: 'US',
      lang: null,
      pages: null,
      sort: null,
      postalCode: null,
    },
    tenant,
  );
  const queue = producer['queue']('crawl');
  const queued = async () => {
    const ids: string[] = [];
    for (let idx = 0; idx < 5; idx++)
      if (await queue.getJob(targetTaskId(job.id, idx)))
        ids.push(`${idx}:${(await queue.getJob(targetTaskId(job.id, idx)))!.opts.priority}`);
    return ids;
  };

  expect(await handler({ jobId: job.id }, ctx)).toBe('started, released 3');
  expect(await queued()).toEqual(['0:1', '1:2', '2:3']);

  // Redis lost task 1; and target 3 was released by an outcome while Redis refused the enqueue.
  await queue.remove(targetTaskId(job.id, 1));
  await db
    .updateTable('job_target')
    .set({ status: 'succeeded', finished_at: new Date() })
    .where('job_id', '=', job.id)
    .where('idx', '=', 0)
    .execute();
  await db.updateTable('job_target').set({ released_at: new Date() }).where('job_id', '=', job.id).where('idx', '=', 3).execute();

  expect(await handler({ jobId: job.id }, ctx)).toBe('restarted 2');
  // 0 stays as it was (live); 1 and 3 are back at priority W; 4 is not released and not queued.
  expect(await queued()).toEqual(['0:1', '1:3', '2:3', '3:3']);
  expect(await targets.releasedPendingTargetIndexes(job.id)).toEqual([1, 2, 3]);
  expect(await handler({ jobId: job.id }, ctx)).toBe('restarted 0');
});
