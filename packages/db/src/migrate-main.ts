/** One-shot `pnpm migrate`: creates the database if missing, then applies pending migrations. */
import { parseEnvOrExit, postgresEnv } from '@crawl/config';
import { createDb } from './connection';
import { ensureDatabase, migrateToLatest } from './migrate';

async function main(): Promise<void> {
  const config = parseEnvOrExit(postgresEnv, process.env);
  await ensureDatabase(config.DATABASE_URL);
  const db = createDb({ url: config.DATABASE_URL, poolSize: 1 });
  try {
    const applied = await migrateToLatest(db);
    process.stdout.write(`migrate: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}\n`);
  } finally {
    await db.destroy();
  }
}

main().catch((err) => {
  process.stderr.write(`migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
