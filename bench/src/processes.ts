import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { createDb, type Db, ensureDatabase, migrateToLatest } from '@crawl/db';

export function table(rows: Record<string, string | number>[]): string {
  const headers = Object.keys(rows[0] ?? {});
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(headers.map((h) => String(r[h]))))].join('\n');
}

/** Deletes every Redis key of a run's queue prefix, so repeated runs do not grow Redis. */
export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new IORedis(redisUrl);
  for (let cursor = '0'; ;) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.unlink(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  redis.disconnect();
}

/**
 * The bench database (created and migrated if needed), the Redis URL and a queue prefix of
 * the run's own, so benchmarks never touch another stack's keys.
 */
export async function openBenchStore(): Promise<{ dbUrl: string; redisUrl: string; prefix: string; db: Db }> {
  const dbUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crawl_bench';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench-${randomBytes(3).toString('hex')}`;
  await ensureDatabase(dbUrl);
  const db = createDb({ url: dbUrl, poolSize: 4 });
  await migrateToLatest(db);
  return { dbUrl, redisUrl, prefix, db };
}
