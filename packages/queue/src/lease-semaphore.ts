import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A counting semaphore in Redis made of `size` slots, each a key held with a lease (SET NX
 * PX). Shared by every process on the Redis; a holder that crashes loses its slot when the
 * lease expires, so a dead process never leaks capacity.
 */
export class LeaseSemaphore {
  constructor(private readonly redis: Redis, private readonly prefix: string, private readonly size: number, private readonly leaseMs: number) {}

  /** A release function when a slot was free, else null (the caller defers its work). */
  async tryAcquire(resource: string): Promise<(() => Promise<void>) | null> {
    const token = randomBytes(8).toString('hex');
    for (let slot = 0; slot < this.size; slot++) {
      const key = `${this.prefix}:sem:${resource}:${slot}`;
      if ((await this.redis.set(key, token, 'PX', this.leaseMs, 'NX')) === 'OK') {
        return async () => {
          // Only the holder may free the slot: its lease may have expired and been re-taken.
          await this.redis.eval("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0", 1, key, token);
        };
      }
    }
    return null;
  }
}
