import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import pg from 'pg';
import type { Db } from './connection';
import * as m202611221100 from './migrations/202611221100_initial';
import * as m202611221200 from './migrations/202611221200_webhooks';
import * as m202611221300 from './migrations/202611221300_schedules';
import * as m202611221400 from './migrations/202611221400_tracking';
import * as m202611221500 from './migrations/202611221500_idempotency_job';
import * as m202611221600 from './migrations/202611221600_release_window';
import * as m202611221700 from './migrations/202611221700_schedule_limits';
import * as m202611221800 from './migrations/202611221800_crawl_service';
import * as m202611231000 from './migrations/202611231000_accounts_retention';
import * as m202611231100 from './migrations/202611231100_webhook_operations';
import * as m202611231200 from './migrations/202611231200_idempotency_schedule';
import * as m202611231210 from './migrations/202611231210_prime_not_observed';
import * as m202611231300 from './migrations/202611231300_search_pages';
import * as m202611231400 from './migrations/202611231400_job_types_offers_reviews';
import * as m202611261000 from './migrations/202611261000_webhook_replay_limits';
import * as m202611261100 from './migrations/202611261100_job_type_in_code';
import * as m202611270900 from './migrations/202611270900_accounts';
import * as m202611281000 from './migrations/202611281000_webhook_claim_function';
import * as m202612020100 from './migrations/202612020100_signup_credit_grants';
import * as m202612020300 from './migrations/202612020300_organization_project_limit';
import * as m202612020400 from './migrations/202612020400_job_postal_code';
import * as m202612021000 from './migrations/202612021000_tracking_per_location';
import * as m202612031000 from './migrations/202612031000_alert_rules';
import * as m202612031200 from './migrations/202612031200_destinations';

/** Static list so that migrations work the same from TypeScript sources (tests) and dist. */
const MIGRATIONS: Record<string, Migration> = {
  '202611221100_initial': m202611221100,
  '202611221200_webhooks': m202611221200,
  '202611221300_schedules': m202611221300,
  '202611221400_tracking': m202611221400,
  '202611221500_idempotency_job': m202611221500,
  '202611221600_release_window': m202611221600,
  '202611221700_schedule_limits': m202611221700,
  '202611221800_crawl_service': m202611221800,
  '202611231000_accounts_retention': m202611231000,
  '202611231100_webhook_operations': m202611231100,
  '202611231200_idempotency_schedule': m202611231200,
  '202611231210_prime_not_observed': m202611231210,
  '202611231300_search_pages': m202611231300,
  '202611231400_job_types_offers_reviews': m202611231400,
  '202611261000_webhook_replay_limits': m202611261000,
  '202611261100_job_type_in_code': m202611261100,
  '202611270900_accounts': m202611270900,
  '202611281000_webhook_claim_function': m202611281000,
  '202612020100_signup_credit_grants': m202612020100,
  '202612020300_organization_project_limit': m202612020300,
  '202612020400_job_postal_code': m202612020400,
  '202612021000_tracking_per_location': m202612021000,
  '202612031000_alert_rules': m202612031000,
  '202612031200_destinations': m202612031200,
};

export const MIGRATION_NAMES = Object.keys(MIGRATIONS);

/** Changes whenever a migration's code changes: test templates are rebuilt for a new schema. */
export const MIGRATION_FINGERPRINT = Object.entries(MIGRATIONS)
  .map(([name, m]) => `${name}:${m.up.toString()}`)
  .join('\n');

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Arbitrary constant: every migrate run of every service takes this same advisory lock. */
const MIGRATION_LOCK_KEY = 726_351_001;

/**
 * Creates the database named in `url` when it does not exist yet. Concurrent callers are
 * fine: losing the CREATE race (duplicate_database) counts as success.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database "${name.replace(/"/g, '""')}"`);
      } catch (err) {
        if ((err as { code?: string }).code !== '42P04' && (err as { code?: string }).code !== '23505') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Applies every pending migration under a session advisory lock, so that several services
 * starting at once migrate exactly once and the others wait, then find nothing to do.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`.execute(conn);
    try {
      const { error, results } = await new Migrator({ db: conn, provider }).migrateToLatest();
      if (error) throw error;
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.execute(conn);
    }
  });
}
