import { type Stack, auth, startStack } from './stack';

/**
 * A cancelled job stops using crawl capacity: its tasks already in a worker, waiting for an
 * exit's turn (at the default politeness nearly all of a big job's in-flight tasks are), are
 * dropped when they reach the front of the line instead of fetching, and the organization's
 * window goes to its other job at once.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ workers: 0, simulator: { exits: 2 } });
});
afterAll(() => stack.close());

it("no page of a cancelled job is fetched 2 s after the cancel; the organization's other job gets the window at once", async () => {
  await stack.startWorker({
    // default politeness through two proxy exits: 1.6 requests/s in all
    CRAWL_EXIT_RPS: '0.8',
    PROXY_URLS: stack.simulator.exitUrls.join(','),
    CRAWL_CONCURRENCY: '256',
    CRAWL_CONCURRENCY_MIN: '256',
  });
  const tenant = await stack.tenant({ credits: 10_000 });
  const big = await stack.createJob(tenant, {
    type: 'details',
    targets: Array.from({ length: 200 }, (_, i) => `B0CANC${String(i).padStart(4, '0')}`),
  });
  await stack.waitForJob(big, 30_000, (job) => job.status === 'running');
  // the organization's window (128) is full of the big job: this one waits for a slot
  const small = await stack.createJob(tenant, {
    type: 'details',
    targets: Array.from({ length: 4 }, (_, i) => `B0SMAL${String(i).padStart(4, '0')}`),
  });
  await new Promise((r) => setTimeout(r, 1_000));

  const res = await stack.http.post(`/v1/key/jobs/${big}/cancel`).set(auth(tenant)).send();
  expect(res.status).toBe(200);
  const cancelledAt = Date.now();
  const done = await stack.waitForJob(small, 30_000);
  expect(done).toMatchObject({ status: 'completed', progress: { succeeded: 4 } });
  await new Promise((r) => setTimeout(r, Math.max(0, cancelledAt + 6_000 - Date.now())));

  const requests = stack.simulator.requests().filter((r) => r.path.startsWith('/dp/'));
  const bigAfter = requests.filter((r) => r.path.includes('B0CANC') && r.at > cancelledAt + 2_000);
  expect(bigAfter).toEqual([]);
  const bigBefore = requests.filter((r) => r.path.includes('B0CANC') && r.at <= cancelledAt + 2_000).length;
  expect(bigBefore).toBeGreaterThan(0);
  expect(bigBefore).toBeLessThan(20); // it was cancelled early: most of its 128 in-flight tasks were waiting
  // the small job's pages went right after the cancel, not after the big job's waiting tasks
  const firstSmall = Math.min(...requests.filter((r) => r.path.includes('B0SMAL')).map((r) => r.at));
  expect(firstSmall - cancelledAt).toBeLessThan(4_000);

  const job = await stack.waitForJob(big, 5_000);
  expect(job.status).toBe('cancelled');
  // only what was crawled is paid for
  expect(job.progress.succeeded).toBeLessThanOrEqual(bigBefore);
  expect(job.credits).toEqual({ reserved: 400, consumed: 2 * job.progress.succeeded, refunded: 400 - 2 * job.progress.succeeded });
}, 90_000);
