import type { Redis } from '@crawl/redis';
import { FailureLimiter, type FailureRule } from './failure-limiter';

/** Express's `trust proxy` values: false, true, a hop count, or addresses/subnets of trusted proxies. */
export type TrustProxy = boolean | number | string[];

/**
 * A client that mistypes its key retries a few times; one guessing keys makes thousands of
 * attempts. 30 a minute per address leaves room for the first and answers the second with 429.
 */
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 30;

/** Failed API-key authentications, counted per client address. */
export type AuthFailureLimiter = FailureLimiter<'address'>;

/**
 * The API-key rule: every key is checked first, and a valid one is never refused, whatever
 * its address did; past `perMinute` failures in a minute, an address's unknown, malformed or
 * revoked keys get 429 with `Retry-After` instead of 401. A guesser behind a NAT therefore
 * slows down only itself, never the valid clients sharing its address. (Checking first costs
 * a limited guesser's attempts one indexed lookup each; keys are 256-bit random, so the
 * limit is about telling a misbehaving client to stop, not about guessing odds.)
 */
export function apiKeyFailureLimiter(redis: Redis, prefix: string, perMinute: number): AuthFailureLimiter {
  const rules: Record<'address', FailureRule> = { address: { limit: perMinute, windowMs: 60_000, refuses: 'failures' } };
  return perMinute > 0 ? new FailureLimiter(redis, `${prefix}:authfail`, rules) : FailureLimiter.disabled(rules);
}
