import { freePort, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';
import { withinDeadline, subjectKey } from './bounded';
import { createRedisConnection } from './connection';
import { hitFixedWindow } from './fixed-window';

/** The limiters' deadline around Redis, against the real Redis and a port where none listens. */
const redis = createRedisConnection(TEST_REDIS_URL);
afterAll(() => redis.disconnect());

it('answers with what Redis answers, waiting for a connection that is still connecting', async () => {
  const fresh = createRedisConnection(TEST_REDIS_URL);
  try {
    expect(fresh.status).not.toBe('ready');
    const key = subjectKey(uniquePrefix('bounded'), 'someone@example.com');
    const window = await withinDeadline(fresh, 5_000, (r) => hitFixedWindow(r, key, 60_000, Date.now()));
    expect(window?.count).toBe(1);
  } finally {
    fresh.disconnect();
  }
});

it('is null when Redis is absent, errs, or does not answer in time', async () => {
  expect(await withinDeadline(null, 50, async () => 1)).toBeNull();
  expect(await withinDeadline(redis, 5_000, () => Promise.reject(new Error('NOSCRIPT')))).toBeNull();
  expect(await withinDeadline(redis, 50, () => new Promise<number>(() => undefined))).toBeNull();
  const nobody = createRedisConnection(`redis://127.0.0.1:${await freePort()}`);
  try {
    let ran = false;
    expect(await withinDeadline(nobody, 100, async () => (ran = true))).toBeNull();
    expect(ran).toBe(false);
    expect(nobody.listenerCount('ready')).toBe(0);
  } finally {
    nobody.disconnect();
  }
});

it('keys a subject by its hash, never by its text', () => {
  const key = subjectKey('mail', 'someone@example.com');
  expect(key).toMatch(/^mail:[\w-]{27}$/);
  expect(key).not.toContain('someone');
  expect(subjectKey('mail', 'someone@example.com')).toBe(key);
  expect(subjectKey('mail', 'other@example.com')).not.toBe(key);
});
