import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import IORedis from 'ioredis';
import { createDb, type Db, ensureDatabase, migrateToLatest } from '@crawl/db';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

/** A service started as its own process, as in production: `node <dist main> `. */
export class ServiceProcess {
  private constructor(readonly name: string, private readonly child: ChildProcess) {}

  static start(name: string, script: string, env: Record<string, string>, args: string[] = []): ServiceProcess {
    const child = spawn(process.execPath, [path.resolve(ROOT, script), ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return new ServiceProcess(name, child);
  }

  /** Current resident set size in bytes. */
  rss(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}

/** Polls `url` until it answers 2xx. */
export async function waitForHttp(url: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready`);
}

export function table(rows: Record<string, string | number>[]): string {
  const headers = Object.keys(rows[0] ?? {});
  const widths = headers.map((h) => Math.max(h.length, ...rows.map((r) => String(r[h]).length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(headers.map((h) => String(r[h]))))].join('\n');
}

/** Deletes every Redis key of a run's queue prefix, so repeated runs do not grow Redis. */
export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new IORedis(redisUrl);
  for (let cursor = '0'; ; ) {
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
