import { randomBytes } from 'node:crypto';
import { openTestStore, TEST_PG_URL } from '@crawl/testing';
import { type Migration, Migrator, sql } from 'kysely';
import pg from 'pg';
import { createDb, type Db } from '../connection';
import { ensureDatabase, MIGRATION_NAMES } from '../migrate';
import { WEBHOOK_CLAIM_DUE_SQL } from './webhook-claim.sql';

const MIGRATION = '202611281000_webhook_claim_function';

/** The function as Postgres holds it: the body exactly as written, and its signature. */
async function claimFunction(db: Db) {
  const { rows } = await sql<{ body_md5: string; args: string; result: string; volatility: string; language: string }>`
    select md5(p.prosrc) as body_md5, pg_get_function_arguments(p.oid) as args, pg_get_function_result(p.oid) as result,
           p.provolatile as volatility, l.lanname as language
    from pg_proc p join pg_language l on l.oid = p.prolang where p.proname = 'webhook_claim_due'`.execute(db);
  return rows;
}

function urlFor(name: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

it('the migration still makes the function it first made, read from webhook-claim.sql.ts', async () => {
  const name = `crawl_claim_${randomBytes(5).toString('hex')}`;
  await ensureDatabase(urlFor(name));
  const db = createDb({ url: urlFor(name), poolSize: 1 });
  try {
    const upTo = MIGRATION_NAMES.slice(0, MIGRATION_NAMES.indexOf(MIGRATION) + 1);
    const migrations: Record<string, Migration> = Object.fromEntries(
      await Promise.all(upTo.map(async (m) => [m, (await import(`../migrations/${m}`)) as Migration])),
    );
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
    expect(error).toBeUndefined();
    // What every database migrated since the migration first ran holds (its body's md5 taken
    // then). Failing: the text changed under a migration that already ran. Copy the old text
    // into the migration, and apply the new one in a new migration.
    expect(await claimFunction(db)).toEqual([
      {
        body_md5: '2db5b3f668b5f55dfffc3043712d650f',
        args: 'p_owner text, p_limit integer, p_lease_ms integer, p_endpoint_cap integer, p_held_webhooks text[], p_held_counts integer[], p_skip text[]',
        result:
          'TABLE(id text, webhook_id text, project_id text, event_type text, body text, attempts integer, max_attempts integer, manual boolean, url text, enabled boolean, secret_encrypted text, previous_secret_encrypted text)',
        volatility: 'v',
        language: 'plpgsql',
      },
    ]);
  } finally {
    await db.destroy();
    const admin = new pg.Client({ connectionString: urlFor('postgres') });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
});

it('a migrated database runs the definition webhook-claim.sql.ts holds: applying it again changes nothing', async () => {
  // The file's own database (a clone of the migrated template): nothing to roll back.
  const store = await openTestStore(1);
  try {
    const definition = async () =>
      (await sql<{ def: string }>`select pg_get_functiondef('webhook_claim_due'::regproc) as def`.execute(store.db)).rows[0]!.def;
    const before = await definition();
    await sql.raw(WEBHOOK_CLAIM_DUE_SQL).execute(store.db);
    expect(await definition()).toBe(before);
  } finally {
    await store.close();
  }
});
