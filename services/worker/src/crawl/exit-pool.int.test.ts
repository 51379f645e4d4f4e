import { type ExitLease, ExitPool, type ExitPoolOptions, ExitTurnRefused, exitsFrom } from '@crawl/marketplace';
import { createRedisConnection } from '@crawl/redis';
import { TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';
import { RedisExitGate } from './exit-gate';
import { JobLiveness } from './job-liveness';

/**
 * Exits as the worker runs them: ExitPool over the Redis gate, two pools standing for two worker
 * processes. No request leaves: leases are taken and reported, which is all politeness sees.
 */
const redis = [createRedisConnection(TEST_REDIS_URL), createRedisConnection(TEST_REDIS_URL)];
beforeAll(() => Promise.all(redis.map((r) => (r.status === 'ready' ? undefined : new Promise((resolve) => r.once('ready', resolve))))));
afterAll(() => redis.forEach((r) => r.disconnect()));

const pools: ExitPool[] = [];
afterEach(() => pools.splice(0).forEach((p) => p.destroy()));

const proxies = (n: number, settings = '') => Array.from({ length: n }, (_, i) => `http://proxy${i}.example:3128${settings}`);

function pool(prefix: string, urls: string[], rps: number, process = 0, extra: Partial<ExitPoolOptions> = {}): ExitPool {
  const p = new ExitPool(exitsFrom(urls, { rps }), {
    gate: new RedisExitGate(redis[process]!, prefix, 0),
    cooldownMs: 60_000,
    maxCooldownMs: 600_000,
    leaseMs: 10_000,
    ...extra,
  });
  pools.push(p);
  return p;
}

/** The lease, or 'pending' when none was granted within `ms` (the pool's teardown rejects the rest). */
function settled<T>(promise: Promise<T>, ms = 300): Promise<T | 'pending'> {
  promise.catch(() => undefined);
  return Promise.race([promise, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))]);
}

it('uses every configured proxy, each at most once per interval', async () => {
  const exits = pool(uniquePrefix('exits'), proxies(20), 1 / 600);
  const leases: ExitLease[] = [];
  for (let i = 0; i < 20; i++) leases.push(await exits.acquire('www.amazon.com'));
  expect(new Set(leases.map((l) => l.exit.spec.label)).size).toBe(20);
  // a 21st request waits for an exit's next turn (10 minutes away)
  expect(await settled(exits.acquire('www.amazon.com'))).toBe('pending');
  leases.forEach((l) => l.done('ok'));
});

it("takes waiting requests by tenant in turn: one tenant's backlog does not hold up another's first request", async () => {
  const exits = pool(uniquePrefix('exits'), proxies(1), 20); // one grant per 50 ms
  const served: string[] = [];
  const take = (tenant: string, n: number) =>
    Array.from({ length: n }, () =>
      exits.acquire('www.amazon.com', undefined, tenant).then((lease) => {
        served.push(tenant);
        lease.done('ok');
      }),
    );
  const big = take('big', 8);
  await new Promise((r) => setTimeout(r, 20)); // the backlog waits first
  const small = take('small', 1);
  await Promise.all([...big, ...small]);
  // one line for everyone would serve it last (index 8); by turns it follows the grant in progress
  expect(served.indexOf('small')).toBeLessThanOrEqual(2);
  expect(served.filter((t) => t === 'big')).toHaveLength(8);
});

it('holds the per-exit limit across two worker processes', async () => {
  const prefix = uniquePrefix('exits');
  const [one, two] = [pool(prefix, proxies(3), 1 / 600, 0), pool(prefix, proxies(3), 1 / 600, 1)];
  const tries = Array.from({ length: 8 }, (_, i) => settled((i % 2 ? two : one).acquire('www.amazon.com')));
  const outcomes = await Promise.all(tries);
  const granted = outcomes.filter((o): o is ExitLease => o !== 'pending');
  expect(granted).toHaveLength(3);
  expect(new Set(granted.map((l) => l.exit.spec.key)).size).toBe(3);
});

it('a retry leaves from another exit than the failed attempt, unless every other one rests', async () => {
  const exits = pool(uniquePrefix('exits'), proxies(4), 1000);
  for (let i = 0; i < 10; i++) {
    const first = await exits.acquire('h');
    first.done('other'); // no failure counted: no exit starts resting here
    const retry = await exits.acquire('h', first.exit.spec.key);
    expect(retry.exit.spec.key).not.toBe(first.exit.spec.key);
    retry.done('ok');
    await new Promise((r) => setTimeout(r, 2));
  }
  // the other exit rests: after a moment's wait the retry takes the failed one again
  const prefix = uniquePrefix('exits');
  const only = pool(prefix, proxies(2), 1000);
  const failed = await only.acquire('h');
  failed.done('other');
  const other = only.exits.find((e) => e.spec.key !== failed.exit.spec.key)!;
  await new RedisExitGate(redis[0]!, prefix, 0).coolDown('h', other.spec, 60_000);
  const again = await only.acquire('h', failed.exit.spec.key);
  expect(again.exit.spec.key).toBe(failed.exit.spec.key);
});

it('a refused exit rests in every process and its traffic goes to the others; a success resets its backoff', async () => {
  const prefix = uniquePrefix('exits');
  const cooldowns: [string, number][] = [];
  const one = pool(prefix, proxies(3), 1000, 0, { onCooldown: (exit, ms) => cooldowns.push([exit, ms]) });
  const two = pool(prefix, proxies(3), 1000, 1);
  const refused = await one.acquire('h');
  const cookies = refused.exit.session.cookieJar;
  refused.done('blocked');
  expect(cooldowns).toEqual([[refused.exit.spec.label, 60_000]]);
  expect(refused.exit.session.cookieJar).not.toBe(cookies);
  await new Promise((r) => setTimeout(r, 20));
  for (let i = 0; i < 12; i++) {
    const lease = await two.acquire('h');
    expect(lease.exit.spec.key).not.toBe(refused.exit.spec.key);
    lease.done('ok');
    await new Promise((r) => setTimeout(r, 2));
  }
  // a second refusal in a row doubles the rest
  const again = one.exits.find((e) => e.spec.key === refused.exit.spec.key)!;
  expect(again.refusals).toBe(1);
});

it('an exit failing three times in a row (a 503 storm) rests too', async () => {
  const cooldowns: string[] = [];
  const exits = pool(uniquePrefix('exits'), proxies(1), 1000, 0, { onCooldown: (exit) => cooldowns.push(exit) });
  for (let i = 0; i < 3; i++) {
    (await exits.acquire('h')).done('error');
    await new Promise((r) => setTimeout(r, 2));
  }
  expect(cooldowns).toEqual(['proxy-1@proxy0.example:3128']);
});

it('a rotating gateway proxy takes its own rate and in-flight cap from its URL fragment, which is never sent', () => {
  const [gateway, plain] = exitsFrom(['http://user:pw@gw.example:8000#rps=25&inflight=40', 'http://p.example:3128'], { rps: 0.8 });
  expect(gateway).toMatchObject({ rps: 25, maxInFlight: 40, proxy: 'http://user:pw@gw.example:8000/', label: 'proxy-1@gw.example:8000' });
  expect(gateway!.key).not.toContain('pw');
  expect(plain).toMatchObject({ rps: 0.8, maxInFlight: 0 });
  expect(() => exitsFrom(['http://p.example:1#rps=fast'], { rps: 1 })).toThrow(/#rps must be a positive number/);
  expect(exitsFrom([], { rps: 0.8 })).toEqual([expect.objectContaining({ label: 'direct', proxy: null, rps: 0.8 })]);
});

it("a cancelled job's waiting requests take no exit turn: they are dropped when they reach the front", async () => {
  const exits = pool(uniquePrefix('exits'), proxies(1), 20); // one grant per 50 ms
  const running = new Map([
    ['job-a', true],
    ['job-b', true],
  ]);
  const cancelledLookups: string[] = [];
  const liveness = new JobLiveness(async (jobId) => {
    const yes = running.get(jobId) ?? false;
    if (!yes) cancelledLookups.push(jobId);
    return yes;
  }, 10);
  const granted: string[] = [];
  const refused: string[] = [];
  const take = (job: string, n: number) =>
    Array.from({ length: n }, () =>
      exits.acquire('www.amazon.com', undefined, job, liveness.wanted(job)).then(
        (lease) => {
          granted.push(job);
          lease.done('ok');
        },
        (err: unknown) => {
          expect(err).toBeInstanceOf(ExitTurnRefused);
          expect((err as ExitTurnRefused).reason).toBe('cancelled');
          refused.push(job);
        },
      ),
    );
  const waits = [...take('job-a', 10), ...take('job-b', 4)];
  await new Promise((r) => setTimeout(r, 120)); // a couple of grants each
  running.set('job-a', false); // job-a is cancelled
  const before = granted.filter((j) => j === 'job-a').length;
  await Promise.all(waits);
  // within one check's cache life at most one more of job-a's requests went; the rest were dropped
  expect(granted.filter((j) => j === 'job-a').length - before).toBeLessThanOrEqual(1);
  expect(refused.filter((j) => j === 'job-a').length).toBeGreaterThanOrEqual(10 - before - 1);
  expect(granted.filter((j) => j === 'job-b')).toHaveLength(4);
  // a cancelled job is looked up once and remembered, however many of its requests wait
  expect(cancelledLookups).toEqual(['job-a']);
});

it('withdraw (shutdown) refuses every waiting and later request at once, and leaves granted leases alone', async () => {
  const exits = pool(uniquePrefix('exits'), proxies(1), 1 / 600);
  const lease = await exits.acquire('www.amazon.com');
  const waiting = Array.from({ length: 5 }, () =>
    exits.acquire('www.amazon.com').then(
      () => 'granted',
      (err: unknown) => err,
    ),
  );
  await new Promise((r) => setTimeout(r, 50));
  exits.withdraw();
  // without the withdraw they would wait ten minutes for the exit's next turn
  const outcomes = await Promise.all(waiting);
  for (const o of outcomes) expect(o).toMatchObject({ name: 'ExitTurnRefused', reason: 'withdrawn' });
  await expect(exits.acquire('www.amazon.com')).rejects.toMatchObject({ reason: 'withdrawn' });
  lease.done('ok');
});
