import { randomBytes } from 'node:crypto';
import { TEST_PG_URL } from '@crawl/testing';
import pg from 'pg';
import { createDb } from './connection';
import { ensureDatabase, MIGRATION_NAMES, migrateToLatest } from './migrate';

function urlFor(name: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor('postgres') });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.end();
}

it('creates a missing database and migrates it exactly once when five runs race', async () => {
  const name = `crawl_mig_${randomBytes(5).toString('hex')}`;
  try {
    await Promise.all(Array.from({ length: 5 }, () => ensureDatabase(urlFor(name))));
    const dbs = Array.from({ length: 5 }, () => createDb({ url: urlFor(name), poolSize: 2 }));
    const applied = await Promise.all(dbs.map((db) => migrateToLatest(db)));
    expect(applied.flat().sort()).toEqual([...MIGRATION_NAMES].sort());
    const rows = await dbs[0]!
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .execute();
    expect(rows).toHaveLength(MIGRATION_NAMES.length);
    expect(await migrateToLatest(dbs[0]!)).toEqual([]);
    await Promise.all(dbs.map((db) => db.destroy()));
  } finally {
    await dropDatabase(name);
  }
});
