import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDb, TenancyRepository } from '@crawl/db';
import { createTestDatabase, type TestDatabase } from '@crawl/testing';
import { hashApiKey } from '@crawl/core';

/**
 * The admin CLI's real binary (built by `pnpm test`), run as `pnpm --silent admin` runs it. It lives
 * here rather than in packages/cli so that the CLI package does not depend on @crawl/testing
 * (which itself makes tenants through the CLI's commands).
 */
const run = promisify(execFile);
const MAIN = path.resolve(__dirname, '../../packages/cli/dist/main.js');

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
});
afterAll(() => database.drop());

async function admin(...args: string[]): Promise<{ code: number; out: any }> {
  try {
    const { stdout } = await run('node', [MAIN, ...args, '--json'], { env: { ...process.env, DATABASE_URL: database.url } });
    return { code: 0, out: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: JSON.parse(e.stdout) };
  }
}

it('creates projects, keys, credits and plans, and revokes keys, printing one JSON object each', async () => {
  const project = await admin('create-project', '--name', 'Acme', '--plan', 'growth', '--credits', '500');
  expect(project.code).toBe(0);
  expect(Object.keys(project.out).sort()).toEqual(['apiKey', 'keyPrefix', 'organizationId', 'projectId', 'userId']);
  expect(project.out.apiKey.startsWith(`${project.out.keyPrefix}_`)).toBe(true);

  const db = createDb({ url: database.url, poolSize: 1 });
  try {
    const principal = await new TenancyRepository(db).findPrincipalByKeyHash(hashApiKey(project.out.apiKey));
    expect(principal).toMatchObject({ projectId: project.out.projectId, plan: 'growth', revoked: false });
    const stored = await db.selectFrom('api_key').select(['key_hash', 'key_prefix']).execute();
    expect(JSON.stringify(stored)).not.toContain(project.out.apiKey); // only the hash is stored

    const second = await admin('create-project', '--name', 'Acme 2', '--org', project.out.organizationId);
    expect(second.out).toMatchObject({ organizationId: project.out.organizationId, userId: project.out.userId });

    const key = await admin('create-key', '--project', project.out.projectId, '--new-user');
    expect(key.out.projectId).toBe(project.out.projectId);
    expect(key.out.userId).not.toBe(project.out.userId);

    expect((await admin('grant-credits', '--org', project.out.organizationId, '--amount', '250')).out).toEqual({
      organizationId: project.out.organizationId,
      balance: 750,
    });
    expect((await admin('set-plan', '--org', project.out.organizationId, '--plan', 'enterprise', '--per-minute', '600')).out).toEqual({
      organizationId: project.out.organizationId,
      plan: 'enterprise',
    });
    expect((await admin('revoke-key', '--key-prefix', key.out.keyPrefix)).out).toEqual({ revoked: true });
    const revoked = await new TenancyRepository(db).findPrincipalByKeyHash(hashApiKey(key.out.apiKey));
    expect(revoked?.revoked).toBe(true);
  } finally {
    await db.destroy();
  }
});

it('answers bad input with an error object and exit code 1', async () => {
  for (const args of [
    ['create-project'],
    ['create-project', '--name', 'x', '--plan', 'platinum'],
    ['grant-credits', '--org', 'org_missing', '--amount', '5'],
    ['grant-credits', '--org', 'org_missing', '--amount', '-5'],
    ['revoke-key', '--key-prefix', 'cds_00000000'],
    ['frobnicate'],
    ['create-key', '--bogus'],
  ]) {
    const res = await admin(...args);
    expect(res.code).toBe(1);
    expect(res.out.error.code).toMatch(/^[A-Z_]+$/);
  }
});

/** `--help` anywhere is the usage text, not an error. */
it.each([['--help'], ['-h'], ['help'], ['create-project', '--help'], ['set-plan', '-h']])(
  '`admin %s` prints the commands on stdout and exits 0',
  async (...args) => {
    const { stdout, stderr } = await run('node', [MAIN, ...args], {
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never' },
    });
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^usage: pnpm --silent admin <command>/);
    for (const command of ['create-project', 'create-key', 'grant-credits', 'set-plan', 'set-schedule-limits', 'revoke-key'])
      expect(stdout).toContain(command);
  },
);

/** An enterprise organization never gets a request limit it was not given. */
it('refuses the enterprise plan without --per-minute, and stores the limit given', async () => {
  const project = await admin('create-project', '--name', 'Big');
  for (const args of [
    ['set-plan', '--org', project.out.organizationId, '--plan', 'enterprise'],
    ['create-project', '--name', 'Big 2', '--plan', 'enterprise'],
  ]) {
    const res = await admin(...args);
    expect(res.code).toBe(1);
    expect(res.out.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('--per-minute') });
  }
  expect((await admin('create-project', '--name', 'Big 3', '--plan', 'growth', '--per-minute', '5')).code).toBe(1);

  const made = await admin('create-project', '--name', 'Big 4', '--plan', 'enterprise', '--per-minute', '1200');
  expect(made.code).toBe(0);
  const db = createDb({ url: database.url, poolSize: 1 });
  try {
    const principal = await new TenancyRepository(db).findPrincipalByKeyHash(hashApiKey(made.out.apiKey));
    expect(principal).toMatchObject({ plan: 'enterprise', perMinuteLimit: 1200 });
  } finally {
    await db.destroy();
  }
});
