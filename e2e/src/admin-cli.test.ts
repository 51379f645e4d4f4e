import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { ApiKeyRepository, createDb, MembershipRepository, SessionRepository, UserRepository, type Db } from '@crawl/db';
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
    const principal = await new ApiKeyRepository(db).findByHash(hashApiKey(project.out.apiKey));
    expect(principal).toMatchObject({ projectId: project.out.projectId, plan: 'growth', revokedAt: null });
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
    const revoked = await new ApiKeyRepository(db).findByHash(hashApiKey(key.out.apiKey));
    expect(revoked?.revokedAt).toBeInstanceOf(Date);
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
    for (const command of [
      'create-project',
      'create-key',
      'grant-credits',
      'set-plan',
      'set-schedule-limits',
      'set-project-limit',
      'revoke-key',
    ])
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
    const principal = await new ApiKeyRepository(db).findByHash(hashApiKey(made.out.apiKey));
    expect(principal).toMatchObject({ plan: 'enterprise', perMinuteLimit: 1200 });
  } finally {
    await db.destroy();
  }
});

/** A user who signs in, made as sign-up makes one: an email, a password hash, a membership, and one live console session. */
async function accountUser(db: Db, email: string) {
  const tenant = await admin('create-project', '--name', `Org of ${email}`);
  const organizationId: string = tenant.out.organizationId;
  const userId = await new UserRepository(db).create({
    email,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    organizationId,
    verified: true,
  });
  await new MembershipRepository(db).add({ organizationId, userId, role: 'admin' });
  const sessionId = await new SessionRepository(db).create({
    userId,
    tokenHash: randomBytes(32).toString('hex'),
    expiresAt: new Date(Date.now() + 3_600_000),
    clientAddress: null,
    userAgent: null,
  });
  return { organizationId, userId, sessionId, cliUserId: tenant.out.userId as string };
}

describe('users who sign in', () => {
  let db: Db;
  beforeAll(() => {
    db = createDb({ url: database.url, poolSize: 1 });
  });
  afterAll(() => db.destroy());

  it('lists them newest first with their organization count, filtered by --search and cut by --limit', async () => {
    const older = await accountUser(db, 'Older.Support@Example.test');
    const newer = await accountUser(db, 'newer.list@example.test');
    await new MembershipRepository(db).add({ organizationId: older.organizationId, userId: newer.userId, role: 'viewer' });

    const all = await admin('list-users');
    expect(all.code).toBe(0);
    const ids = all.out.map((u: { id: string }) => u.id);
    expect(ids.indexOf(newer.userId)).toBeLessThan(ids.indexOf(older.userId));
    expect(ids).not.toContain(older.cliUserId); // no email: not a user who signs in
    expect(all.out.find((u: { id: string }) => u.id === newer.userId)).toEqual({
      email: 'newer.list@example.test',
      id: newer.userId,
      verified: true,
      disabled: false,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      organizations: 2,
    });

    const searched = await admin('list-users', '--search', 'older.SUPPORT');
    expect(searched.out.map((u: { id: string }) => u.id)).toEqual([older.userId]);
    expect((await admin('list-users', '--limit', '1')).out).toHaveLength(1);
    expect((await admin('list-users', '--limit', '0')).code).toBe(1);

    const { stdout } = await run('node', [MAIN, 'list-users', '--search', 'newer.list'], {
      env: { ...process.env, DATABASE_URL: database.url },
    });
    const [header, row, ...rest] = stdout.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual(['EMAIL', 'ID', 'VERIFIED', 'DISABLED', 'CREATED', 'ORGS']);
    expect(row!.split(/\s+/)).toEqual(['newer.list@example.test', newer.userId, 'yes', 'no', expect.any(String), '2']);
    expect(rest).toEqual([]);
  });

  it('disables a user and revokes their sessions, and enables them again', async () => {
    const user = await accountUser(db, 'to.disable@example.test');
    const disabled = await admin('disable-user', '--email', 'TO.DISABLE@example.test');
    expect(disabled.code).toBe(0);
    expect(disabled.out).toMatchObject({ userId: user.userId, email: 'to.disable@example.test', disabled: true });

    const stored = await db.selectFrom('app_user').select('disabled_at').where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(stored.disabled_at).toBeInstanceOf(Date);
    expect(disabled.out.disabledAt).toBe(stored.disabled_at!.toISOString());
    const session = await db.selectFrom('user_session').select('revoked_at').where('id', '=', user.sessionId).executeTakeFirstOrThrow();
    expect(session.revoked_at).toBeInstanceOf(Date);
    expect((await admin('list-users', '--search', 'to.disable')).out[0].disabled).toBe(true);

    const enabled = await admin('enable-user', '--user', user.userId);
    expect(enabled.out).toEqual({ userId: user.userId, email: 'to.disable@example.test', disabled: false, disabledAt: null });
    const after = await db.selectFrom('app_user').select('disabled_at').where('id', '=', user.userId).executeTakeFirstOrThrow();
    expect(after.disabled_at).toBeNull();
  });

  it('shows the organizations and roles of a user', async () => {
    const user = await accountUser(db, 'support.case@example.test');
    const res = await admin('user-memberships', '--user', user.userId);
    expect(res.code).toBe(0);
    expect(res.out).toEqual({
      userId: user.userId,
      email: 'support.case@example.test',
      disabled: false,
      memberships: [{ organizationId: user.organizationId, organizationName: 'Org of support.case@example.test', role: 'admin' }],
    });
  });

  it('refuses unknown users with NOT_FOUND and CLI-made users (no email) with a clear error', async () => {
    const user = await accountUser(db, 'refusals@example.test');
    for (const args of [
      ['disable-user', '--user', 'usr_missing'],
      ['enable-user', '--email', 'nobody@example.test'],
      ['user-memberships', '--user', 'usr_missing'],
    ]) {
      const res = await admin(...args);
      expect(res.code).toBe(1);
      expect(res.out.error.code).toBe('NOT_FOUND');
    }
    for (const command of ['disable-user', 'enable-user', 'user-memberships']) {
      const res = await admin(command, '--user', user.cliUserId);
      expect(res.code).toBe(1);
      expect(res.out.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('made by the admin CLI') });
    }
    for (const args of [['disable-user'], ['disable-user', '--user', user.userId, '--email', 'refusals@example.test']]) {
      expect((await admin(...args)).out.error.code).toBe('VALIDATION_ERROR');
    }
    const cliUser = await db.selectFrom('app_user').select('disabled_at').where('id', '=', user.cliUserId).executeTakeFirstOrThrow();
    expect(cliUser.disabled_at).toBeNull();
  });

  it('are in the usage text', async () => {
    const { stdout } = await run('node', [MAIN, '--help'], {
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/never' },
    });
    for (const command of ['list-users', 'disable-user', 'enable-user', 'user-memberships']) expect(stdout).toContain(command);
  });
});
