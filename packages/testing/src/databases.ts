import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrateToLatest, ensureDatabase } from '@crawl/db';

/** Tests use the machine's Postgres and Redis (docs/testing.md); these env vars may point elsewhere. */
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function urlFor(database: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlFor('postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The migrated template every test file clones. Its name carries a hash of the migration
 * sources' names so that a schema change gets a fresh template and concurrent test runs
 * never rebuild one another's.
 */
export function templateName(migrationKey: string): string {
  return `crawl_tpl_${createHash('sha256').update(migrationKey).digest('hex').slice(0, 12)}`;
}

export async function ensureTemplate(name: string): Promise<void> {
  const exists = await admin(async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount);
  if (exists) return;
  const building = `${name}_b${randomBytes(3).toString('hex')}`;
  await ensureDatabase(urlFor(building));
  const db = createDb({ url: urlFor(building), poolSize: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  await admin(async (c) => {
    try {
      await c.query(`alter database "${building}" rename to "${name}"`);
    } catch {
      // another run renamed its copy first: ours is redundant
      await c.query(`drop database if exists "${building}"`);
    }
  });
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A private database cloned from the template: test files never share rows. */
export async function createTestDatabase(template: string): Promise<TestDatabase> {
  const name = `crawl_t_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database "${name}" template "${template}"`));
  return {
    url: urlFor(name),
    name,
    drop: () => admin((c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

/** A Redis key prefix of one's own, so test files' queues and counters never meet. */
export function uniquePrefix(label = 't'): string {
  return `test-${label}-${randomBytes(4).toString('hex')}`;
}
