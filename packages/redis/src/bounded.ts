import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * `run(redis)` answered within `timeoutMs`, or null when Redis is absent, errs or is slower: the
 * limiters' shared rule that a Redis which does not answer in time decides nothing (each limiter
 * then fails open or closed by its own rule). A connection that is still connecting (a process
 * that just started, whose client keeps no offline queue) is waited for within the same time.
 */
export function withinDeadline<T>(
  redis: Redis | null | undefined,
  timeoutMs: number,
  run: (redis: Redis) => Promise<T>,
): Promise<T | null> {
  if (!redis) return Promise.resolve(null);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  const answer = connected(redis, timeout).then((ready) => (ready ? run(redis) : null));
  return Promise.race([answer, timeout])
    .catch(() => null)
    .finally(() => clearTimeout(timer));
}

/** True once the connection is ready; false if `giveUp` settles first (the listener is removed either way). */
function connected(redis: Redis, giveUp: Promise<unknown>): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const onReady = () => resolve(true);
    redis.once('ready', onReady);
    void giveUp.then(() => {
      redis.off('ready', onReady);
      resolve(false);
    });
  });
}

/** `prefix:<hash>` for a limiter's subject (an email, an address, a key): no raw subject lands in Redis. */
export const subjectKey = (prefix: string, subject: string): string =>
  `${prefix}:${createHash('sha256').update(subject).digest('base64url').slice(0, 27)}`;
