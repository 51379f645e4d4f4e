import { SIGNIN_MESSAGES } from '@crawl/marketplace';
import { type Stack, startStack } from './stack';

/**
 * A sign-in wall is a property of the page (the marketplace shows it to every visitor without an
 * account), not a refusal of the exit: the target fails BLOCKED naming the sign-in after at most
 * one retry from another exit, and the exit does not rest, so other crawls through it go on.
 * Production politeness and cooldowns (0.8 requests/s per exit, a first rest of 60 s), so a rest
 * of the exit would show as a minute's stall.
 */
let stack: Stack;
const PRODUCTION = { CRAWL_EXIT_RPS: '0.8', CRAWL_EXIT_COOLDOWN_MS: '60000', CRAWL_RETRY_BASE_MS: '2000', FETCH_TIMEOUT_MS: '15000' };

beforeAll(async () => {
  stack = await startStack({ workers: 0, simulator: { exits: 2 } });
});
afterEach(async () => {
  for (const w of stack.workers.splice(0)) await w.close();
  stack.simulator.clearFaults();
  stack.simulator.resetLog();
});
afterAll(() => stack.close());

it('with one exit: the reviews target fails BLOCKED in under 10 s, and a details job through the same exit is not delayed', async () => {
  await stack.startWorker({ ...PRODUCTION, CRAWL_CONCURRENCY: '16' });
  stack.simulator.setFaults([{ match: '/product-reviews/', fault: { kind: 'signin' } }]);
  const tenant = await stack.tenant({ credits: 1_000 });
  const created = Date.now();
  const reviews = await stack.createJob(tenant, { type: 'reviews', targets: ['B0SIGNIN01'] });
  const details = await stack.createJob(tenant, { type: 'details', targets: Array.from({ length: 6 }, (_, i) => `B0SIGNDT0${i}`) });

  const walled = await stack.waitForJob(reviews, 30_000);
  // the bound; today's figure is one exit turn (about a second)
  expect(Date.now() - created).toBeLessThan(10_000);
  expect(walled).toMatchObject({ status: 'failed', progress: { total: 1, failed: 1 } });
  expect(walled.errors).toEqual([{ target: 'B0SIGNIN01', code: 'BLOCKED', message: SIGNIN_MESSAGES.reviews }]);
  expect(walled.errors[0].message).toMatch(/sign-in/);

  // 7 requests at 0.8/s through the one exit take about 8.75 s; a rested exit would add 60 s
  const crawled = await stack.waitForJob(details, 30_000);
  expect(crawled).toMatchObject({ status: 'completed', progress: { total: 6, succeeded: 6, failed: 0 } });
  const times = stack.simulator
    .requests()
    .map((r) => r.at)
    .sort((a, b) => a - b);
  expect(times).toHaveLength(7); // one review page (no retry: there is no other exit), six products
  for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThan(5_000);
}, 60_000);

it('with two exits: one retry from the other exit, then BLOCKED; neither exit rests', async () => {
  await stack.startWorker({ ...PRODUCTION, PROXY_URLS: stack.simulator.exitUrls.join(','), CRAWL_CONCURRENCY: '16' });
  stack.simulator.setFaults([{ match: '/product-reviews/', fault: { kind: 'signin' } }]);
  const tenant = await stack.tenant({ credits: 1_000 });
  const reviews = await stack.createJob(tenant, { type: 'reviews', targets: ['B0SIGNIN02'] });
  const walled = await stack.waitForJob(reviews, 30_000);
  expect(walled.errors).toEqual([{ target: 'B0SIGNIN02', code: 'BLOCKED', message: SIGNIN_MESSAGES.reviews }]);
  const tries = stack.simulator.requests().filter((r) => r.path.includes('/product-reviews/B0SIGNIN02'));
  expect(tries).toHaveLength(2);
  expect(new Set(tries.map((r) => r.exit)).size).toBe(2);

  // both exits still send at once: a details job of 4 goes through both within a few turns
  const details = await stack.waitForJob(
    await stack.createJob(tenant, { type: 'details', targets: ['B0SIGNDT10', 'B0SIGNDT11', 'B0SIGNDT12', 'B0SIGNDT13'] }),
    20_000,
  );
  expect(details).toMatchObject({ status: 'completed', progress: { succeeded: 4 } });
}, 60_000);
