import IORedis, { type Redis } from 'ioredis';

/**
 * A non-blocking Redis connection for producers and request paths: no offline queue, so a
 * command fails at once while Redis is down rather than piling up behind a reconnect.
 */
export function createRedisConnection(url: string): Redis {
  const redis = new IORedis(url, {
    enableOfflineQueue: false,
    // Auto-pipelining stays off: when the connection drops with a batch in flight, ioredis
    // (5.x, redis/ioredis#1931) throws `results[i] is not iterable` from a callback, an
    // uncaught exception that killed the process (seen in the e2e webhooks run). Its gain on
    // `pnpm bench gateway` was within noise (docs/tenant-safety.md, "Redis").
    enableAutoPipelining: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  });
  redis.on('error', () => undefined); // reconnects on its own; callers see failed commands
  return redis;
}
