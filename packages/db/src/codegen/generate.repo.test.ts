import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@crawl/testing';
import { GENERATED_TYPES_PATH, generateDbTypes } from './generate';

/**
 * The CI diff check of the committed row types (migrations are the one source of the row types): the
 * template every test clones is migrated from the current migrations, so a migration added
 * without `pnpm db:codegen` fails here. A clone, not the template itself: a session on the
 * template would make other test files' `create database … template` fail.
 */
describe('generated row types', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('match the migrated schema (run `pnpm db:codegen` when this fails)', async () => {
    const committed = await readFile(path.resolve(__dirname, '../..', GENERATED_TYPES_PATH), 'utf8');
    const fresh = await generateDbTypes(database.url);
    expect(fresh).toBe(committed);
  });
});
