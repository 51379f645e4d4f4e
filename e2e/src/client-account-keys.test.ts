/**
 * Who am I and key management through the SDK (`CrawlClient.me`, `CrawlAccount`) and the `crawl`
 * CLI, against a real gateway: a user signs up through the API, verifies with the mailed link
 * (read from the gateway's outbox), then signs in with email and password like a person would.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { type ApiKey, CrawlAccount, CrawlApiError, CrawlClient, CrawlNetworkError } from '@crawl/client';
import { permissionsOf } from '@crawl/core';
import { PASSWORD, type SignedIn, signUp } from '../../services/gateway/src/test-support/accounts';
import { type Harness, startHarness } from '../../services/gateway/src/test-support/harness';

let h: Harness;
let baseUrl: string;
let user: SignedIn;

beforeAll(async () => {
  h = await startHarness();
  baseUrl = (await h.listen()).url;
  user = await signUp(h, { organizationName: 'Keys Inc' });
});
afterAll(() => h.close());

const keyClient = (apiKey: string) => new CrawlClient({ apiKey, baseUrl, retry: { retries: 0 } });
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (err: unknown) => err,
  );

/** A fetch that records the headers it sends, so a test can replay the session cookie the SDK holds. */
function recordingFetch() {
  const sent: Headers[] = [];
  const wrapped: typeof fetch = (input, init) => {
    sent.push(new Headers(init?.headers));
    return fetch(input, init);
  };
  return { sent, fetch: wrapped };
}

describe('the SDK', () => {
  it('signs in, reads the account and its projects, and signs out on the server', async () => {
    const recorder = recordingFetch();
    const account = await CrawlAccount.signIn({ baseUrl, email: user.email, password: PASSWORD, fetch: recorder.fetch });
    expect(account.user).toEqual({ id: user.userId, email: user.email });

    const me = await account.me();
    expect(me.user).toEqual({ id: user.userId, email: user.email });
    expect(me.memberships).toEqual([
      { organizationId: user.organizationId, organizationName: 'Keys Inc', role: 'owner', permissions: permissionsOf('owner') },
    ]);
    expect(me.csrfToken).toEqual(expect.any(String));
    const projects = await account.projects(user.organizationId);
    expect(projects).toEqual([expect.objectContaining({ id: user.projectId, organizationId: user.organizationId, name: 'Default' })]);

    const cookie = recorder.sent.at(-1)!.get('cookie')!;
    expect(cookie).toMatch(/^cds_session=.+/);
    expect(recorder.sent.at(-1)!.has('x-csrf-token')).toBe(false); // reads carry no CSRF token
    expect((await fetch(`${baseUrl}/v1/account/me`, { headers: { cookie } })).status).toBe(200);

    await account.signOut();
    expect(recorder.sent.at(-1)!.get('x-csrf-token')).toBe(me.csrfToken);
    expect((await fetch(`${baseUrl}/v1/account/me`, { headers: { cookie } })).status).toBe(401);
    expect(await rejection(account.me())).toMatchObject({ name: 'CrawlApiError', status: 401, code: 'UNAUTHORIZED' });
    await account.signOut(); // already signed out: nothing to do
  });

  it('a wrong password is INVALID_CREDENTIALS, not retried', async () => {
    const err = await rejection(CrawlAccount.signIn({ baseUrl, email: user.email, password: 'not the password' }));
    expect(err).toBeInstanceOf(CrawlApiError);
    expect(err).toMatchObject({ status: 401, code: 'INVALID_CREDENTIALS', attempts: 1 });
  });

  it('create -> me() with the secret; rotate with overlap -> both work; revoke -> 401', async () => {
    const account = await CrawlAccount.signIn({ baseUrl, email: user.email, password: PASSWORD });
    try {
      const created = await account.keys.create(user.projectId, { label: 'sdk reader', scope: 'read' });
      expect(created).toMatchObject({
        projectId: user.projectId,
        label: 'sdk reader',
        scope: 'read',
        createdBy: user.userId,
        revokedAt: null,
      });
      expect(created.secret.startsWith(created.prefix)).toBe(true);

      const first = keyClient(created.secret);
      const identity = {
        keyId: created.id,
        label: 'sdk reader',
        scope: 'read',
        effectiveScope: 'read',
        projectId: user.projectId,
        organizationId: user.organizationId,
        userId: user.userId,
      };
      expect(await first.me()).toEqual(identity);

      const listed = (await account.keys.list(user.projectId)).find((k) => k.id === created.id);
      expect(listed).toMatchObject({ id: created.id, prefix: created.prefix, revokedAt: null });
      expect(listed).not.toHaveProperty('secret');

      const rotated = await account.keys.rotate(created.id, { overlapSeconds: 600 });
      expect(rotated).toMatchObject({ label: 'sdk reader', scope: 'read', revokedAt: null });
      expect(rotated.id).not.toBe(created.id);
      expect(rotated.secret).not.toBe(created.secret);
      const second = keyClient(rotated.secret);
      expect(await second.me()).toEqual({ ...identity, keyId: rotated.id });
      expect(await first.me()).toEqual(identity); // still inside the overlap
      const overlapEnd = (await account.keys.list(user.projectId)).find((k) => k.id === created.id)!.revokedAt!;
      expect(Date.parse(overlapEnd) - Date.now()).toBeGreaterThan(500_000);

      await account.keys.revoke(created.id);
      const revoked = await rejection(first.me());
      expect(revoked).toBeInstanceOf(CrawlApiError);
      expect(revoked).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      expect(await second.me()).toEqual({ ...identity, keyId: rotated.id });
      await account.keys.revoke(created.id); // revoking a revoked key changes nothing

      const outOfRange = await rejection(account.keys.rotate(rotated.id, { overlapSeconds: 86_401 }));
      expect(outOfRange).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', attempts: 1 });
      await account.keys.revoke(rotated.id);
      expect(await rejection(second.me())).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    } finally {
      await account.signOut();
    }
  });

  it('a key with an expiry given as a Date', async () => {
    const account = await CrawlAccount.signIn({ baseUrl, email: user.email, password: PASSWORD });
    const expiresAt = new Date(Date.now() + 7 * 86_400_000);
    const created = await account.keys.create(user.projectId, { label: 'weekly', scope: 'full', expiresAt });
    expect(Date.parse(created.expiresAt!)).toBe(expiresAt.getTime());
    expect(await keyClient(created.secret).me()).toMatchObject({ keyId: created.id, scope: 'full' });
    await account.signOut();
  });

  it('create and rotate are never sent twice, even when their answer is lost', async () => {
    // the request reaches the gateway and is carried out; only its answer is lost on the way back
    let loseAnswers = false;
    const lossy: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!loseAnswers) return res;
      await res.body?.cancel();
      throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
    };
    const account = await CrawlAccount.signIn({ baseUrl, email: user.email, password: PASSWORD, fetch: lossy, retry: { baseDelayMs: 1 } });
    const before = await account.keys.list(user.projectId);
    loseAnswers = true;
    const created = await rejection(account.keys.create(user.projectId, { label: 'lost answer', scope: 'read' }));
    expect(created).toBeInstanceOf(CrawlNetworkError);
    expect(created).toMatchObject({ code: 'NETWORK_ERROR', attempts: 1 });
    loseAnswers = false;
    const after = await account.keys.list(user.projectId);
    const made = after.filter((k) => !before.some((b: ApiKey) => b.id === k.id));
    expect(made).toEqual([expect.objectContaining({ label: 'lost answer' })]);

    loseAnswers = true;
    expect(await rejection(account.keys.rotate(made[0]!.id))).toMatchObject({ name: 'CrawlNetworkError', attempts: 1 });
    loseAnswers = false;
    expect((await account.keys.list(user.projectId)).filter((k) => k.label === 'lost answer')).toHaveLength(2);
    await account.signOut();
  });
});

const CRAWL_BIN = path.resolve(__dirname, '../../packages/client/bin/crawl.js');

/** The built `crawl` bin as a user runs it; asynchronous, since the gateway answers from this process. */
function crawl(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CRAWL_BIN, ...argv],
      { env: { PATH: process.env.PATH ?? '', CRAWL_BASE_URL: baseUrl, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('the crawl CLI', () => {
  it('keys create | me | keys rotate | keys list | keys revoke, signing in from the environment each run', async () => {
    const signIn = { CRAWL_EMAIL: user.email, CRAWL_PASSWORD: PASSWORD, CRAWL_PROJECT_ID: user.projectId };

    const created = await crawl(['keys', 'create', '--label', 'cli key', '--scope', 'read'], signIn);
    expect(created).toMatchObject({ code: 0, stderr: "the secret is shown only this once: store it now (it is 'secret' above)\n" });
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ projectId: user.projectId, label: 'cli key', scope: 'read', secret: expect.stringMatching(/^cds_/) });

    const me = await crawl(['me'], { CRAWL_API_KEY: key.secret });
    expect(me).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(me.stdout)).toEqual({
      keyId: key.id,
      label: 'cli key',
      scope: 'read',
      effectiveScope: 'read',
      projectId: user.projectId,
      organizationId: user.organizationId,
      userId: user.userId,
    });

    const rotated = await crawl(['keys', 'rotate', key.id, '--overlap', '300', '--quiet'], signIn);
    expect(rotated).toMatchObject({ code: 0, stderr: '' });
    const newSecret = rotated.stdout.trim();
    expect(rotated.stdout).toBe(`${newSecret}\n`);
    expect(newSecret).toMatch(/^cds_/);
    expect(JSON.parse((await crawl(['me'], { CRAWL_API_KEY: newSecret })).stdout)).toMatchObject({ label: 'cli key' });
    expect((await crawl(['me'], { CRAWL_API_KEY: key.secret })).code).toBe(0);

    // flags instead of the environment; one JSON object per line, never a secret
    const listed = await crawl(['keys', 'list', '--email', user.email, '--password', PASSWORD, '--project', user.projectId], {});
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const lines = listed.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((k) => k.id)).toEqual(expect.arrayContaining([key.id]));
    expect(lines.filter((k) => k.label === 'cli key')).toHaveLength(2);
    expect(listed.stdout).not.toContain(newSecret);
    expect(listed.stdout).not.toContain(key.secret);

    const revoked = await crawl(['keys', 'revoke', key.id], signIn);
    expect(revoked).toEqual({ code: 0, stdout: '', stderr: '' });
    const refused = await crawl(['me'], { CRAWL_API_KEY: key.secret });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error UNAUTHORIZED: /);

    // each of the four runs that signed in signed out after itself: no session of the CLI is left live on the server
    const sessions = await h.deps.db
      .selectFrom('user_session')
      .select(['id', 'revoked_at'])
      .where('user_id', '=', user.userId)
      .where('user_agent', 'like', 'crawl-cli/%')
      .execute();
    expect(sessions).toHaveLength(4);
    for (const session of sessions) expect(session.revoked_at).toBeInstanceOf(Date);
  });

  it('usage and sign-in errors', async () => {
    const noSignIn = await crawl(['keys', 'list', '--project', user.projectId], {});
    expect(noSignIn).toMatchObject({ code: 2, stdout: '' });
    expect(noSignIn.stderr).toMatch(/^error USAGE: no sign-in: set CRAWL_EMAIL and CRAWL_PASSWORD/);

    const wrong = await crawl(['keys', 'list'], {
      CRAWL_EMAIL: user.email,
      CRAWL_PASSWORD: 'nope nope nope',
      CRAWL_PROJECT_ID: user.projectId,
    });
    expect(wrong).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toMatch(/^error INVALID_CREDENTIALS: /);

    const signIn = { CRAWL_EMAIL: user.email, CRAWL_PASSWORD: PASSWORD, CRAWL_PROJECT_ID: user.projectId };
    const noLabel = await crawl(['keys', 'create'], signIn);
    expect(noLabel.stderr).toMatch(/^error USAGE: --label is required/);
    const badScope = await crawl(['keys', 'create', '--label', 'x', '--scope', 'admin'], signIn);
    expect(badScope.stderr).toMatch(/^error USAGE: --scope must be one of full, read/);
    const badOverlap = await crawl(['keys', 'rotate', 'key_x', '--overlap', '90000'], signIn);
    expect(badOverlap.stderr).toMatch(/^error USAGE: --overlap must be a whole number of seconds from 0 to 86400/);
    const unknown = await crawl(['keys', 'revoke', 'key_doesnotexist'], signIn);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.stderr).toMatch(/^error NOT_FOUND: API key key_doesnotexist not found/);

    const noKey = await crawl(['me'], {});
    expect(noKey.stderr).toMatch(/^error USAGE: no API key/);
    const help = await crawl(['keys', '--help'], {});
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: crawl keys <command>/);
    for (const command of ['list', 'create', 'rotate', 'revoke']) expect(help.stdout).toContain(`  keys ${command} `);
  });
});
