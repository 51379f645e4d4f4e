import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Drops expired leases, then takes one if fewer than ARGV[2] are held. One round trip; the
 * score of a lease is its expiry time, so a holder that crashed stops counting at once when
 * its lease runs out.
 */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  return 1
end
return 0`;

type WithCommand = Redis & {
  leaseAcquire?: (key: string, now: string, size: string, expiry: string, token: string, ttl: string) => Promise<number>;
};

/**
 * A counting semaphore per resource in Redis, shared by every process: at most `size`
 * holders, each with a lease of `leaseMs`, so a dead process never leaks capacity.
 */
export class LeaseSemaphore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly size: number,
    private readonly leaseMs: number,
  ) {}

  /** A release function when a slot was free, else null (the caller defers its work). */
  async tryAcquire(resource: string): Promise<(() => Promise<void>) | null> {
    const r = this.redis as WithCommand;
    if (!r.leaseAcquire) r.defineCommand('leaseAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    const key = `${this.prefix}:sem:${resource}`;
    const token = randomBytes(8).toString('hex');
    const now = Date.now();
    const ok = await r.leaseAcquire!(key, String(now), String(this.size), String(now + this.leaseMs), token, String(this.leaseMs * 2));
    if (ok !== 1) return null;
    return async () => {
      await this.redis.zrem(key, token);
    };
  }
}
