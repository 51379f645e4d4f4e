import { createLogger } from '@crawl/observability';
import { TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';
import { HandBackTask, type HandlerContext, PermanentJobError, runWorker } from './consumer';
import { createRedisConnection } from '@crawl/redis';
import { QueueProducer } from './producer';

/**
 * The consumer's final-failure path, against real Redis and BullMQ: a task whose
 * every attempt throws reaches `onFinalFailure` exactly once, with its payload and error.
 */
const log = createLogger({ level: 'silent', service: 'consumer-test' });
const redis = createRedisConnection(TEST_REDIS_URL);
afterAll(() => redis.disconnect());

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

function setup(run: (payload: { jobId: string }, ctx: HandlerContext) => Promise<unknown>, prefix = uniquePrefix('consumer')) {
  const producer = new QueueProducer(redis, prefix, 2_000, { 'crawl.startJob': 1 });
  const runs: string[] = [];
  const finals: { jobId: string; error: string; attempt: number }[] = [];
  const worker = runWorker(
    'crawl',
    {
      'crawl.startJob': {
        run: async (payload, ctx) => {
          runs.push(payload.jobId);
          return run(payload, ctx);
        },
        onFinalFailure: async (payload, error, ctx) => {
          finals.push({ jobId: payload.jobId, error: (error as Error).message, attempt: ctx.attempt });
        },
      },
      'crawl.fetchTarget': { run: async () => 'unused', onFinalFailure: async () => undefined },
    },
    { redisUrl: TEST_REDIS_URL, prefix, concurrency: 2, log },
  );
  return { producer, worker, runs, finals };
}

it('a task that throws on every attempt reaches onFinalFailure once, after its last attempt (10 for crawl.startJob)', async () => {
  const { producer, worker, runs, finals } = setup(async () => {
    throw new Error('boom');
  });
  try {
    await producer.enqueue('crawl.startJob', { jobId: 'job_final' }, { jobId: 'job_final' });
    await until(() => finals.length === 1);
    expect(runs).toHaveLength(10);
    expect(finals).toEqual([{ jobId: 'job_final', error: 'boom', attempt: 10 }]);

    // The failed task is kept, so a plain re-add with its id is a no-op; enqueueMissing re-adds it.
    await producer.enqueue('crawl.startJob', { jobId: 'job_final' }, { jobId: 'job_final' });
    await new Promise((r) => setTimeout(r, 300));
    expect(runs).toHaveLength(10);
    expect(await producer.enqueueMissing('crawl.startJob', [{ payload: { jobId: 'job_final' }, jobId: 'job_final' }])).toBe(1);
    await until(() => finals.length === 2);
    expect(runs).toHaveLength(20);
  } finally {
    await worker.close();
    await producer.close();
  }
});

it('a PermanentJobError goes to onFinalFailure at once, without further attempts', async () => {
  const { producer, worker, runs, finals } = setup(async () => {
    throw new PermanentJobError('row gone');
  });
  try {
    await producer.enqueue('crawl.startJob', { jobId: 'job_perm' }, { jobId: 'job_perm' });
    await until(() => finals.length === 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(runs).toEqual(['job_perm']);
    expect(finals).toEqual([{ jobId: 'job_perm', error: 'row gone', attempt: 1 }]);
  } finally {
    await worker.close();
    await producer.close();
  }
});

it('a handed-back task goes back to the queue without costing an attempt, and an idle worker takes it', async () => {
  const prefix = uniquePrefix('consumer');
  let letGo!: () => void;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  const first = setup(async () => {
    await held;
    throw new HandBackTask();
  }, prefix);
  const attempts: number[] = [];
  let second: ReturnType<typeof setup> | undefined;
  try {
    await first.producer.enqueue('crawl.startJob', { jobId: 'job_back' }, { jobId: 'job_back' });
    await until(() => first.runs.length === 1);
    // the second worker starts once the first holds the task, so it waits idle
    second = setup(async (_payload, ctx) => {
      attempts.push(ctx.attempt);
      return 'done';
    }, prefix);
    await second.worker.waitUntilReady();
    await new Promise((r) => setTimeout(r, 200));
    const closing = first.worker.close(); // shutting down: takes nothing new
    letGo();
    await closing;
    await until(() => attempts.length === 1);
    expect(attempts).toEqual([1]);
    // A fetch the closing worker was already blocked in may take the task once more (BullMQ does
    // not interrupt it); that run hands it back again.
    expect(first.runs.length).toBeLessThanOrEqual(2);
    expect(first.finals).toEqual([]);
    expect(second.finals).toEqual([]);
  } finally {
    await first.worker.close();
    await second?.worker.close();
    await first.producer.close();
    await second?.producer.close();
  }
});
