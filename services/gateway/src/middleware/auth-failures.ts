import { hitFixedWindow, peekFixedWindow, type Redis } from '@crawl/queue';

/** Express's `trust proxy` values: false, true, a hop count, or addresses/subnets of trusted proxies. */
export type TrustProxy = boolean | number | string[];

/**
 * A client that mistypes its key retries a few times; one guessing keys makes thousands of
 * attempts. 30 a minute per address leaves room for the first and stops the second after 30
 * Postgres lookups.
 */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 30;

/**
 * Failed authentications per client address (issue 11.6). Every unknown key costs a Postgres
 * lookup, so a client guessing keys could load the database for every tenant (2,000 random
 * keys were 2,000 lookups at ~700/s). After `limit` failures in a window, an address gets 429
 * with `Retry-After` until the window ends, before any lookup. Keys already known to this
 * gateway (in the principal cache) are never refused, so a valid client behind the same NAT
 * as a guesser keeps working once it has authenticated.
 */
export interface AuthFailureLimiter {
  /** Seconds until the address may try again, or null when it may try now. */
  blockedFor(address: string): Promise<number | null>;
  recordFailure(address: string): Promise<void>;
}

/**
 * Counters in Redis, shared by every gateway replica. Fail-open like the request rate limiter:
 * a Redis that does not answer within `timeoutMs` blocks nobody.
 */
export class RedisAuthFailureLimiter implements AuthFailureLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly timeoutMs = 250,
  ) {}

  private key(address: string): string {
    return `${this.prefix}:authfail:${address}`;
  }

  private bounded<T>(promise: Promise<T>): Promise<T | null> {
    return Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), this.timeoutMs).unref())]).catch(() => null);
  }

  async blockedFor(address: string): Promise<number | null> {
    const window = await this.bounded(peekFixedWindow(this.redis, this.key(address), this.windowMs, Date.now()));
    if (!window || window.count < this.limit) return null;
    return Math.max(1, Math.ceil(window.msLeft / 1000));
  }

  async recordFailure(address: string): Promise<void> {
    await this.bounded(hitFixedWindow(this.redis, this.key(address), this.windowMs, Date.now()));
  }
}

export class NoopAuthFailureLimiter implements AuthFailureLimiter {
  async blockedFor(): Promise<null> {
    return null;
  }
  async recordFailure(): Promise<void> {}
}
