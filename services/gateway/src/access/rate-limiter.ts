import { type RateLimitPolicy, TurnBatcher } from '@crawl/core';
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

interface Hit {
  /** The user's counter (user and window length); the window's number is added to it. */
  counter: string;
  windowMs: number;
  nowMs: number;
}

const windowOf = (hit: Hit) => Math.floor(hit.nowMs / hit.windowMs);

/**
 * Fixed windows per user in Redis, shared by every key of the user and every gateway replica
 * (docs/tenancy-and-credits.md). Window boundaries come from the wall clock, so replicas on synchronized clocks
 * agree on them.
 *
 * The hits of one window that reach this gateway in the same turn of the event loop go to Redis
 * as one INCRBY (TurnBatcher): each request then gets its own count, in order, exactly as if
 * they had been counted one by one, so limits, Remaining and refusals are unchanged, for one
 * round trip instead of one per request.
 *
 * Fail-open: when Redis does not answer within `timeoutMs`, `check` returns null and the
 * request proceeds without rate-limit headers. Rejecting every request because the counter
 * store is down would turn a Redis blip into a full API outage; the short window means an
 * outage lets at most a few seconds of over-limit traffic through.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly hits = new TurnBatcher<Hit, { count: number; msLeft: number } | null>((hits) => this.count(hits));

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly timeoutMs = 250,
    private readonly now: () => number = Date.now,
  ) {}

  async check(userId: string, policy: RateLimitPolicy): Promise<RateLimitDecision | null> {
    const windowMs = policy.windowSeconds * 1000;
    const nowMs = this.now();
    const hit = await this.hits.add({ counter: `${this.prefix}:rl:${userId}:${policy.windowSeconds}`, windowMs, nowMs });
    if (!hit) return null;
    const resetSeconds = Math.max(1, Math.ceil(hit.msLeft / 1000));
    return {
      allowed: hit.count <= policy.limit,
      limit: policy.limit,
      remaining: Math.max(0, policy.limit - hit.count),
      resetSeconds,
    };
  }

  /** One INCRBY per window among `hits`; each hit gets its own count (null: Redis did not answer in time). */
  private async count(hits: Hit[]): Promise<({ count: number; msLeft: number } | null)[]> {
    const byKey = new Map<string, number[]>();
    hits.forEach((hit, i) => {
      const key = `${hit.counter}:${windowOf(hit)}`;
      const same = byKey.get(key);
      if (same) same.push(i);
      else byKey.set(key, [i]);
    });
    const out: ({ count: number; msLeft: number } | null)[] = hits.map(() => null);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.timeoutMs)));
    await Promise.all(
      [...byKey.values()].map(async (indexes) => {
        const first = hits[indexes[0]!]!;
        const window = await Promise.race([
          hitFixedWindow(this.redis, first.counter, first.windowMs, first.nowMs, indexes.length).catch(() => null),
          timeout,
        ]);
        if (!window) return;
        // The batch's hits were counted in arrival order: the first got count - n + 1.
        indexes.forEach((index, k) => {
          const hit = hits[index]!;
          out[index] = { count: window.count - indexes.length + 1 + k, msLeft: (windowOf(hit) + 1) * hit.windowMs - hit.nowMs };
        });
      }),
    );
    clearTimeout(timer);
    return out;
  }
}

export class NoopRateLimiter implements RateLimiter {
  async check(): Promise<null> {
    return null;
  }
}
