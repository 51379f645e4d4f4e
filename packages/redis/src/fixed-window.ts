import type { Redis } from 'ioredis';

/**
 * INCRBY plus expiry in one round trip; the expiry is set by the first hits of a window only
 * (the count then equals the hits just added).
 */
const INCR_SCRIPT = `
local hits = tonumber(ARGV[2] or '1')
local count = redis.call('INCRBY', KEYS[1], hits)
if count == hits then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type WithCommand = Redis & { fixedWindowIncr?: (key: string, ttlMs: string, hits: string) => Promise<number> };

/**
 * Counts `hits` (1 unless given) in the fixed window `windowMs` that contains `nowMs`, shared by
 * every process on this Redis: the API rate limiter and the failed-credential limits use it.
 * Returns the count in the window after them and the milliseconds until it ends.
 */
export async function hitFixedWindow(
  redis: Redis,
  keyPrefix: string,
  windowMs: number,
  nowMs: number,
  hits = 1,
): Promise<{ count: number; msLeft: number }> {
  const r = redis as WithCommand;
  if (!r.fixedWindowIncr) r.defineCommand('fixedWindowIncr', { numberOfKeys: 1, lua: INCR_SCRIPT });
  const window = Math.floor(nowMs / windowMs);
  const count = await r.fixedWindowIncr!(`${keyPrefix}:${window}`, String(windowMs + 1_000), String(hits));
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
