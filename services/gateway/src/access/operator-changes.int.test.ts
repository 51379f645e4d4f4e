import { adminDeps, type AdminDeps, commands, type UserAdminDeps, userCommands } from '@crawl/cli';
import { MembershipRepository, SessionRepository, UserRepository } from '@crawl/db';
import { accountChangesChannel, Broadcast, createRedisConnection, type Redis } from '@crawl/redis';
import { createTenant, TEST_REDIS_URL } from '@crawl/testing';
import { member, type SignedIn } from '../test-support/accounts';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/**
 * The admin CLI's commands, called as `pnpm admin` calls them, against a gateway that caches
 * keys for a minute: every change must reach the gateway through the broadcast, not the TTL.
 */
let h: Harness;
let cliRedis: Redis;
let broadcast: Broadcast;
beforeAll(async () => {
  h = await startHarness({ authCacheTtlMs: 60_000, rateLimit: true });
  cliRedis = createRedisConnection(TEST_REDIS_URL);
  broadcast = new Broadcast(cliRedis, accountChangesChannel(h.prefix));
});
afterAll(async () => {
  cliRedis.disconnect();
  await h.close();
});

const tenantDeps = (over: Partial<AdminDeps> = {}): AdminDeps => ({
  ...adminDeps(h.deps.db),
  broadcast,
  ...over,
});

const userDeps = (over: Partial<UserAdminDeps> = {}): UserAdminDeps => ({
  db: h.deps.db,
  users: new UserRepository(h.deps.db),
  sessions: new SessionRepository(h.deps.db),
  memberships: new MembershipRepository(h.deps.db),
  broadcast,
  ...over,
});

/** A user who signs in, owner of a new organization (made directly: sign-up has limits of its own). */
async function accountOwner(): Promise<SignedIn> {
  const tenant = await createTenant(h.deps.db, { plan: 'starter' });
  return { ...(await member(h, tenant.organizationId, 'owner')), projectId: tenant.projectId };
}

async function keyOf(user: SignedIn, scope: 'full' | 'read' = 'full') {
  const res = await user.agent.post(`/v1/account/projects/${user.projectId}/keys`).set(user.csrf).send({ label: 'cli test', scope });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; prefix: string; secret: string };
}

/** The key's answer once it differs from `from`; the broadcast takes milliseconds, 2 s is far beyond (a loaded machine). */
async function answerAfter(secret: string, from: number, path = '/v1/key/me') {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const res = await h.http.get(path).set(bearer(secret));
    if (res.status !== from || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the admin CLI tells every gateway at once', () => {
  it("disable-user stops the user's keys, enable-user lets them work again", async () => {
    const user = await accountOwner();
    const key = await keyOf(user);
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(200); // cached now

    await userCommands['disable-user']!(userDeps(), { user: user.userId });
    const refused = await answerAfter(key.secret, 200);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/owner is disabled/);
    expect((await user.agent.get('/v1/account/me')).status).toBe(401);

    await userCommands['enable-user']!(userDeps(), { email: user.email });
    expect((await answerAfter(key.secret, 401)).status).toBe(200);
  });

  it('revoke-key stops the key', async () => {
    const user = await accountOwner();
    const key = await keyOf(user);
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(200);
    await commands['revoke-key']!(tenantDeps(), { 'key-prefix': key.prefix });
    const refused = await answerAfter(key.secret, 200);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toMatch(/revoked/);
  });

  it("set-plan changes the keys' rate limit at once", async () => {
    const tenant = await createTenant(h.deps.db, { plan: 'starter' }); // 20 a second
    const path = `/v1/key/projects/${tenant.projectId}/jobs`;
    expect((await h.http.get(path).set(bearer(tenant.apiKey))).headers['x-ratelimit-limit']).toBe('20');
    await commands['set-plan']!(tenantDeps(), { org: tenant.organizationId, plan: 'growth' });
    const deadline = Date.now() + 2_000;
    let limit: string | undefined = '20';
    while (limit === '20' && Date.now() < deadline)
      limit = (await h.http.get(path).set(bearer(tenant.apiKey))).headers['x-ratelimit-limit'];
    expect(limit).toBe('100');
  });

  it('set-schedule-limits and grant-credits broadcast the organization', async () => {
    const user = await accountOwner();
    const heard: string[] = [];
    const listener = new Broadcast(h.deps.redis, accountChangesChannel(h.prefix));
    let ready!: () => void;
    const subscribed = new Promise<void>((resolve) => (ready = resolve));
    await listener.subscribe({ onMessage: (m) => heard.push(m), onResync: () => ready() });
    await subscribed;
    try {
      await commands['set-schedule-limits']!(tenantDeps(), { org: user.organizationId, 'max-per-project': '3' });
      await commands['grant-credits']!(tenantDeps(), { org: user.organizationId, amount: '5' });
      const deadline = Date.now() + 2_000;
      while (heard.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard).toEqual([`org:${user.organizationId}`, `org:${user.organizationId}`]);
    } finally {
      listener.close();
    }
  });

  it('a command succeeds without Redis, with a warning: the TTL bounds the staleness', async () => {
    const user = await accountOwner();
    const down = createRedisConnection('redis://127.0.0.1:1');
    const warnings: string[] = [];
    try {
      const out = await commands['grant-credits']!(
        tenantDeps({ broadcast: new Broadcast(down, 'nowhere'), warn: (m) => warnings.push(m) }),
        { org: user.organizationId, amount: '7' },
      );
      expect(out).toMatchObject({ organizationId: user.organizationId });
      expect(warnings).toEqual([expect.stringMatching(/could not tell the gateways.*AUTH_CACHE_TTL_MS/)]);
    } finally {
      down.disconnect();
    }
  });
});

describe("the operator's changes are in the organization's audit log", () => {
  const entries = async (organizationId: string) =>
    (await h.deps.accounts.audit.page(organizationId, 50, 0)).rows
      .reverse()
      .filter((e) => e.actorUserId === null)
      .map(({ action, subjectType, subjectId, details, clientAddress }) => ({ action, subjectType, subjectId, details, clientAddress }));

  it('each command records its change with no actor; disabling a user records it in each of their organizations', async () => {
    const tenant = await createTenant(h.deps.db, { plan: 'starter' });
    const other = await createTenant(h.deps.db, { plan: 'starter' });
    const user = await member(h, tenant.organizationId, 'developer');
    await h.deps.accounts.memberships.add({ organizationId: other.organizationId, userId: user.userId, role: 'viewer' });
    const org = tenant.organizationId;

    await userCommands['disable-user']!(userDeps(), { user: user.userId });
    await userCommands['enable-user']!(userDeps(), { user: user.userId });
    await commands['set-plan']!(tenantDeps(), { org, plan: 'growth' });
    const { balance } = await commands['grant-credits']!(tenantDeps(), { org, amount: '25' });
    await commands['set-schedule-limits']!(tenantDeps(), { org, 'max-per-project': '5' });
    await commands['set-project-limit']!(tenantDeps(), { org, max: '20' });
    await commands['revoke-key']!(tenantDeps(), { 'key-prefix': tenant.keyPrefix });
    await commands['revoke-key']!(tenantDeps(), { 'key-prefix': tenant.keyPrefix }); // already revoked: nothing to record

    const onUser = { subjectType: 'user', subjectId: user.userId, details: { email: user.email }, clientAddress: null };
    const onOrg = { subjectType: 'organization', subjectId: org, clientAddress: null };
    expect(await entries(org)).toEqual([
      { action: 'user.disabled', ...onUser },
      { action: 'user.enabled', ...onUser },
      { action: 'plan.changed', ...onOrg, details: { from: 'starter', to: 'growth', perMinuteLimit: null } },
      { action: 'credits.granted', ...onOrg, details: { amount: 25, balance } },
      { action: 'limits.changed', ...onOrg, details: { maxSchedulesPerProject: 5 } },
      { action: 'limits.changed', ...onOrg, details: { maxProjects: 20 } },
      {
        action: 'key.revoked',
        subjectType: 'key',
        subjectId: expect.stringMatching(/^key_/),
        details: { prefix: tenant.keyPrefix },
        clientAddress: null,
      },
    ]);
    expect((await entries(other.organizationId)).map((e) => e.action)).toEqual(['user.disabled', 'user.enabled']);
  });

  it('a refused command records nothing', async () => {
    const tenant = await createTenant(h.deps.db, { plan: 'starter' });
    await expect(commands['set-plan']!(tenantDeps(), { org: tenant.organizationId, plan: 'enterprise' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(commands['set-project-limit']!(tenantDeps(), { org: tenant.organizationId, max: '0' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(await entries(tenant.organizationId)).toEqual([]);
  });
});
