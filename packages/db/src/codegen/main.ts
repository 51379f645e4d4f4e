/**
 * `pnpm db:codegen`: migrates a scratch database (created and dropped here, so the output never
 * depends on a developer's data or half-applied schema), then writes the generated row types.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { parseEnvOrExit, postgresEnv } from '@crawl/config';
import { createDb } from '../connection';
import { ensureDatabase, migrateToLatest } from '../migrate';
import { GENERATED_TYPES_PATH, generateDbTypes } from './generate';

async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const config = parseEnvOrExit(postgresEnv, process.env);
  const name = `crawl_codegen_${randomBytes(4).toString('hex')}`;
  const scratch = new URL(config.DATABASE_URL);
  scratch.pathname = `/${name}`;
  await ensureDatabase(scratch.toString());
  try {
    const db = createDb({ url: scratch.toString(), poolSize: 1 });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
    const out = path.resolve(__dirname, '../..', GENERATED_TYPES_PATH);
    await writeFile(out, await generateDbTypes(scratch.toString()));
    process.stdout.write(`db:codegen: wrote ${path.relative(process.cwd(), out)}\n`);
  } finally {
    await dropDatabase(config.DATABASE_URL, name);
  }
}

main().catch((err) => {
  process.stderr.write(`db:codegen failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
