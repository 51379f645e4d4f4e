import { type Stack, startStack } from './stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workerEnv: { CRAWL_CONCURRENCY: '2' } });
});
afterAll(() => stack.close());

it("a 1-target job of another project is not starved by a big job's backlog", async () => {
  stack.simulator.setFaults([{ match: '/dp/', fault: { kind: 'latency', ms: 40 } }]);
  const big = await stack.tenant();
  const small = await stack.tenant();
  const bigJob = await stack.createJob(big, { type: 'details', targets: Array.from({ length: 100 }, (_, i) => `B0FAIR${String(i).padStart(4, '0')}`) });
  await stack.waitForJob(bigJob, 30_000, (job) => job.progress.succeeded >= 10);
  const smallJob = await stack.createJob(small, { type: 'details', targets: ['B0SMALL001'] });
  const done = await stack.waitForJob(smallJob, 30_000);
  expect(done.status).toBe('completed');
  const bigNow = await stack.waitForJob(bigJob, 1_000, () => true);
  // FIFO would have crawled all 100 first; round-robin priorities put it next in line.
  expect(bigNow.progress.succeeded).toBeLessThan(40);
  await stack.http.post(`/v1/key/jobs/${bigJob}/cancel`).set('Authorization', `Bearer ${big.apiKey}`).expect(200);
}, 90_000);
