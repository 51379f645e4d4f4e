import type { Redis } from 'ioredis';

/** INCR plus expiry in one round trip; the expiry is set by the first hit of a window only. */
const INCR_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type WithCommand = Redis & { fixedWindowIncr?: (key: string, ttlMs: string) => Promise<number> };

/**
 * Counts a hit in the fixed window `windowMs` that contains `nowMs`, shared by every process
 * on this Redis: the API rate limiter and the crawl politeness limit both use it.
 * Returns the count in the window and the milliseconds until it ends.
 */
export async function hitFixedWindow(
  redis: Redis,
  keyPrefix: string,
  windowMs: number,
  nowMs: number,
): Promise<{ count: number; msLeft: number }> {
  const r = redis as WithCommand;
  if (!r.fixedWindowIncr) r.defineCommand('fixedWindowIncr', { numberOfKeys: 1, lua: INCR_SCRIPT });
  const window = Math.floor(nowMs / windowMs);
  const count = await r.fixedWindowIncr!(`${keyPrefix}:${window}`, String(windowMs + 1_000));
  return { count, msLeft: (window + 1) * windowMs - nowMs };
}

/** The count of the window containing `nowMs` without adding a hit, and the ms until it ends. */
export async function peekFixedWindow(
  redis: Redis,
  keyPrefix: string,
  windowMs: number,
  nowMs: number,
): Promise<{ count: number; msLeft: number }> {
  const window = Math.floor(nowMs / windowMs);
  const count = Number((await redis.get(`${keyPrefix}:${window}`)) ?? 0);
  return { count, msLeft: (window + 1) * windowMs - nowMs };
}
