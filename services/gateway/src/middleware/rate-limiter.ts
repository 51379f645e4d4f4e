import { type RateLimitPolicy } from '@crawl/core';
import { hitFixedWindow, type Redis } from '@crawl/redis';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the current window resets (docs/http-api.md: not an epoch time). */
  resetSeconds: number;
}

/** An expected refusal is a value: `allowed: false`, never an exception. */
export interface RateLimiter {
  check(userId: string, policy: RateLimitPolicy): Promise<RateLimitDecision | null>;
}

/**
 * Fixed windows per user in Redis, shared by every key of the user and every gateway replica
 * (docs/tenancy-and-credits.md). Window boundaries come from the wall clock, so replicas on synchronized clocks
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

  async check(userId: string, policy: RateLimitPolicy): Promise<RateLimitDecision | null> {
    const windowMs = policy.windowSeconds * 1000;
    let hit: { count: number; msLeft: number };
    try {
      hit = await Promise.race([
        hitFixedWindow(this.redis, `${this.prefix}:rl:${userId}:${policy.windowSeconds}`, windowMs, this.now()),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('rate limit timeout')), this.timeoutMs).unref()),
      ]);
    } catch {
      return null;
    }
    const resetSeconds = Math.max(1, Math.ceil(hit.msLeft / 1000));
    return {
      allowed: hit.count <= policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - hit.count),
      resetSeconds,
    };
  }
}

export class NoopRateLimiter implements RateLimiter {
  async check(): Promise<null> {
    return null;
  }
}
