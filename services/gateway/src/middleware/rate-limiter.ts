import { type RateLimitPolicy } from '@crawl/core';
import type { Redis } from '@crawl/queue';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the current window resets (DESIGN section 5: not an epoch time). */
  resetSeconds: number;
}

/** An expected refusal is a value: `allowed: false`, never an exception. */
export interface RateLimiter {
  check(userId: string, policy: RateLimitPolicy): Promise<RateLimitDecision | null>;
}

/** INCR plus expiry in one round trip; the expiry is only set by the first hit of a window. */
const INCR_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/**
 * Fixed windows per user in Redis, shared by every key of the user and every gateway replica
 * (spec 8.2). Window boundaries come from the wall clock, so replicas on synchronized clocks
 * agree on them.
 *
 * Fail-open: when Redis does not answer within `timeoutMs`, `check` returns null and the
 * request proceeds without rate-limit headers. Rejecting every request because the counter
 * store is down would turn a Redis blip into a full API outage; the short window means an
 * outage lets at most a few seconds of over-limit traffic through.
 */
export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly timeoutMs = 250,
    private readonly now: () => number = Date.now,
  ) {}

  /** EVALSHA of the cached script (EVAL only when Redis does not know it yet). */
  private incr(key: string, ttlMs: number): Promise<number> {
    const redis = this.redis as Redis & { rateLimitIncr?: (key: string, ttl: string) => Promise<number> };
    if (!redis.rateLimitIncr) redis.defineCommand('rateLimitIncr', { numberOfKeys: 1, lua: INCR_SCRIPT });
    return redis.rateLimitIncr!(key, String(ttlMs));
  }

  async check(userId: string, policy: RateLimitPolicy): Promise<RateLimitDecision | null> {
    const nowMs = this.now();
    const windowMs = policy.windowSeconds * 1000;
    const window = Math.floor(nowMs / windowMs);
    const key = `${this.prefix}:rl:${userId}:${policy.windowSeconds}:${window}`;
    let count: number;
    try {
      count = await Promise.race([
        this.incr(key, windowMs + 1000),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('rate limit timeout')), this.timeoutMs).unref()),
      ]);
    } catch {
      return null;
    }
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * windowMs - nowMs) / 1000));
    return {
      allowed: count <= policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - count),
      resetSeconds,
    };
  }
}

export class NoopRateLimiter implements RateLimiter {
  async check(): Promise<null> {
    return null;
  }
}
