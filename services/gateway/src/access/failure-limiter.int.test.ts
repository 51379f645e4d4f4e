import { createRedisConnection, type Redis } from '@crawl/redis';
import { freePort, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';
import { FailureLimiter, type FailureRule } from './failure-limiter';

/**
 * The failed-credential rule on real Redis, in the two shapes it serves: API keys (per address,
 * only failures refused) and sign-ins (per email and per address).
 */
let redis: Redis;
beforeAll(async () => {
  redis = createRedisConnection(TEST_REDIS_URL);
  // No offline queue: a command before the connection is ready fails (and the limiter fails open).
  await new Promise((resolve) => (redis.status === 'ready' ? resolve(null) : redis.once('ready', resolve)));
});
afterAll(() => redis.disconnect());

/** Counts are per fixed window: start where a burst cannot straddle two (windows here are 60 s). */
beforeEach(async () => {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
});

const valid = async () => 'user';
const invalid = async () => undefined;
const minute = (limit: number, refuses: FailureRule['refuses']): FailureRule => ({ limit, windowMs: 60_000, refuses });

it('per address (`failures`): past the limit unknown credentials are limited with a wait, valid ones are always accepted', async () => {
  const limiter = new FailureLimiter(redis, uniquePrefix('fl'), { address: minute(3, 'failures') });
  for (let i = 0; i < 3; i++) expect(await limiter.attempt({ address: '203.0.113.1' }, invalid)).toEqual({ kind: 'rejected' });
  for (let i = 0; i < 5; i++) {
    const outcome = await limiter.attempt({ address: '203.0.113.1' }, invalid);
    expect(outcome).toMatchObject({ kind: 'limited', scope: 'address' });
    const wait = outcome.kind === 'limited' ? outcome.retryAfterSeconds : 0;
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limiter.attempt({ address: '203.0.113.1' }, valid)).toEqual({ kind: 'accepted', value: 'user' });
  }
  expect(await limiter.attempt({ address: '203.0.113.2' }, invalid)).toEqual({ kind: 'rejected' });
});

describe('sign-in shape: per email (`subject`) and per address (`failures`)', () => {
  const rules = { email: minute(3, 'subject'), address: minute(5, 'failures') };

  it('an email over its limit is refused before its password is checked, a right one included; other emails are not', async () => {
    const limiter = new FailureLimiter(redis, uniquePrefix('fl'), rules);
    for (let i = 0; i < 3; i++)
      expect(await limiter.attempt({ email: 'victim@example.com', address: `198.51.100.${i}` }, invalid)).toEqual({ kind: 'rejected' });
    let checked = false;
    const outcome = await limiter.attempt({ email: 'victim@example.com', address: '198.51.100.99' }, async () => {
      checked = true;
      return 'victim';
    });
    expect(outcome).toMatchObject({ kind: 'limited', scope: 'email' });
    expect(checked).toBe(false);
    expect(await limiter.attempt({ email: 'other@example.com', address: '198.51.100.99' }, valid)).toEqual({
      kind: 'accepted',
      value: 'user',
    });
  });

  it('an address over its limit does not lock out the other users of the address', async () => {
    const limiter = new FailureLimiter(redis, uniquePrefix('fl'), rules);
    const office = '192.0.2.10';
    // A guesser tries many emails from the office's address, each under the email limit.
    for (let i = 0; i < 5; i++)
      expect(await limiter.attempt({ email: `guess${i}@example.com`, address: office }, invalid)).toEqual({ kind: 'rejected' });
    expect(await limiter.attempt({ email: 'guess9@example.com', address: office }, invalid)).toMatchObject({
      kind: 'limited',
      scope: 'address',
    });
    // A colleague signs in with the right password from the same address.
    expect(await limiter.attempt({ email: 'colleague@example.com', address: office }, valid)).toEqual({ kind: 'accepted', value: 'user' });
    // A colleague's typo is limited like the guesser's (the address is over its limit)...
    expect(await limiter.attempt({ email: 'colleague@example.com', address: office }, invalid)).toMatchObject({
      kind: 'limited',
      scope: 'address',
    });
    // ...but from elsewhere the same email is only rejected.
    expect(await limiter.attempt({ email: 'colleague2@example.com', address: '192.0.2.11' }, invalid)).toEqual({ kind: 'rejected' });
  });
});

it('fails open: with Redis unreachable nothing is limited, and credentials are still checked', async () => {
  const down = createRedisConnection(`redis://127.0.0.1:${await freePort()}`);
  try {
    const limiter = new FailureLimiter(down, uniquePrefix('fl'), { address: minute(1, 'failures'), email: minute(1, 'subject') }, 100);
    for (let i = 0; i < 3; i++)
      expect(await limiter.attempt({ address: '203.0.113.3', email: 'a@example.com' }, invalid)).toEqual({ kind: 'rejected' });
    expect(await limiter.attempt({ address: '203.0.113.3', email: 'a@example.com' }, valid)).toEqual({ kind: 'accepted', value: 'user' });
  } finally {
    down.disconnect();
  }
});

it('disabled: counts nothing and never limits', async () => {
  const limiter = FailureLimiter.disabled({ address: minute(1, 'failures') });
  for (let i = 0; i < 5; i++) expect(await limiter.attempt({ address: '203.0.113.4' }, invalid)).toEqual({ kind: 'rejected' });
  expect(await limiter.attempt({ address: '203.0.113.4' }, valid)).toEqual({ kind: 'accepted', value: 'user' });
});
