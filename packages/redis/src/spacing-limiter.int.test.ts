import { TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';
import { createRedisConnection } from './connection';
import { type SpacedResource, SpacingLimiter } from './spacing-limiter';

/**
 * The exits' shared politeness against real Redis. Two limiters on two connections stand for two
 * worker processes. No wall-clock assertions: what is checked is which resource each pick books
 * and the spacing Redis reports back, against Redis's own clock.
 */
const a = createRedisConnection(TEST_REDIS_URL);
const b = createRedisConnection(TEST_REDIS_URL);
beforeAll(() => Promise.all([a, b].map((r) => (r.status === 'ready' ? undefined : new Promise((resolve) => r.once('ready', resolve))))));
afterAll(() => {
  a.disconnect();
  b.disconnect();
});

const exits = (n: number, intervalMs = 60_000, maxInFlight = 0): SpacedResource[] =>
  Array.from({ length: n }, (_, i) => ({ key: `exit-${i}`, intervalMs, maxInFlight }));
const options = { fleetIntervalMs: 0, leaseMs: 10_000 };

it('books each resource once per interval, over both processes, then says how long to wait', async () => {
  const prefix = uniquePrefix('spacing');
  const [one, two] = [new SpacingLimiter(a, prefix), new SpacingLimiter(b, prefix)];
  const resources = exits(3);
  const picks = [];
  for (let i = 0; i < 3; i++) picks.push(await (i % 2 ? two : one).pick('www.amazon.com', resources, options));
  expect(picks.map((p) => ('index' in p ? p.index : -1))).toEqual([0, 1, 2]);
  const fourth = await two.pick('www.amazon.com', resources, options);
  expect(fourth).toEqual({ waitMs: expect.any(Number) });
  if ('waitMs' in fourth) expect(fourth.waitMs).toBeGreaterThan(50_000);
  // another marketplace host has its own spacing
  expect(await one.pick('www.amazon.de', resources, options)).toMatchObject({ index: 0 });
});

it('takes the resources in the order given, so callers spread the load by rotating it', async () => {
  const limiter = new SpacingLimiter(a, uniquePrefix('spacing'));
  const resources = exits(4);
  const rotated = [resources[2]!, resources[3]!, resources[0]!, resources[1]!];
  expect(await limiter.pick('h', rotated, options)).toMatchObject({ index: 0 });
  expect(await limiter.pick('h', rotated, options)).toMatchObject({ index: 1 });
  expect(await limiter.pick('h', resources, options)).toMatchObject({ index: 0 });
});

it('skips a resource while it cools down, in every process, and a shorter cooldown does not cut a longer one', async () => {
  const prefix = uniquePrefix('spacing');
  const [one, two] = [new SpacingLimiter(a, prefix), new SpacingLimiter(b, prefix)];
  const resources = exits(2, 1);
  await one.coolDown('h', 'exit-0', 60_000);
  await two.coolDown('h', 'exit-0', 10);
  for (let i = 0; i < 5; i++) {
    expect(await two.pick('h', resources, options)).toMatchObject({ index: 1 });
    await new Promise((r) => setTimeout(r, 3));
  }
  const cooling = await b.pttl(`${prefix}:spacing:h:cool:exit-0`);
  expect(cooling).toBeGreaterThan(50_000);
});

it('caps requests in flight through a resource; a release or an expired lease frees the slot', async () => {
  const limiter = new SpacingLimiter(a, uniquePrefix('spacing'));
  const gateway: SpacedResource[] = [{ key: 'rotating', intervalMs: 1, maxInFlight: 2 }];
  const first = await limiter.pick('h', gateway, { fleetIntervalMs: 0, leaseMs: 200 });
  await new Promise((r) => setTimeout(r, 3));
  const second = await limiter.pick('h', gateway, { fleetIntervalMs: 0, leaseMs: 60_000 });
  await new Promise((r) => setTimeout(r, 3));
  expect([first, second].every((p) => 'index' in p)).toBe(true);
  expect(await limiter.pick('h', gateway, options)).toEqual({ waitMs: expect.any(Number) });
  if ('release' in second) await second.release();
  await new Promise((r) => setTimeout(r, 3));
  expect(await limiter.pick('h', gateway, options)).toMatchObject({ index: 0 });
  // the first lease was never released: it expires instead
  await new Promise((r) => setTimeout(r, 250));
  expect(await limiter.pick('h', gateway, options)).toMatchObject({ index: 0 });
});

it('a fleet ceiling spaces requests over all resources together', async () => {
  const limiter = new SpacingLimiter(a, uniquePrefix('spacing'));
  const resources = exits(5, 1);
  expect(await limiter.pick('h', resources, { fleetIntervalMs: 60_000, leaseMs: 1_000 })).toMatchObject({ index: 0 });
  const held = await limiter.pick('h', resources, { fleetIntervalMs: 60_000, leaseMs: 1_000 });
  expect(held).toEqual({ waitMs: expect.any(Number) });
  if ('waitMs' in held) expect(held.waitMs).toBeGreaterThan(50_000);
});
