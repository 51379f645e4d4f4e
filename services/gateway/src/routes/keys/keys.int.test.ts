import { generateApiKey } from '@crawl/core';
import { sql } from '@crawl/db';
import { createKey as createTenantKey } from '@crawl/testing';
import supertest from 'supertest';
import { member, type SignedIn, signIn, signUp } from '../../test-support/accounts';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

let h: Harness;
let owner: SignedIn;
beforeAll(async () => {
  // the production cache TTL: revocation must not wait for it
  h = await startHarness({ authCacheTtlMs: 60_000 });
  owner = await signUp(h);
});
afterAll(() => h.close());

const createKey = (who: SignedIn, body: object = { label: 'ci', scope: 'full' }, projectId = owner.projectId) =>
  who.agent.post(`/v1/account/projects/${projectId}/keys`).set(who.csrf).send(body);

describe('creating and listing keys', () => {
  it('answers the secret once, lists the key without it, and the key works at once', async () => {
    const res = await createKey(owner, { label: 'Production scraper', scope: 'full' });
    expect(res.status).toBe(201);
    const key = res.body.data;
    expect(key).toMatchObject({
      label: 'Production scraper',
      scope: 'full',
      projectId: owner.projectId,
      createdBy: owner.userId,
      createdByEmail: owner.email,
      effectiveScope: 'full',
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    expect(key.secret).toMatch(/^cds_[0-9a-f]{8}_[\w-]{43}$/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);

    const me = await h.http.get('/v1/key/me').set(bearer(key.secret));
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      keyId: key.id,
      label: 'Production scraper',
      scope: 'full',
      effectiveScope: 'full',
      projectId: owner.projectId,
      organizationId: owner.organizationId,
      userId: owner.userId,
    });

    const list = await owner.agent.get(`/v1/account/projects/${owner.projectId}/keys`);
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === key.id);
    expect(listed).toBeDefined();
    expect(JSON.stringify(list.body)).not.toContain(key.secret.slice(key.prefix.length + 1));
    // only the hash is stored
    const rows = await h.deps.db.selectFrom('api_key').select('key_hash').execute();
    expect(JSON.stringify(rows)).not.toContain(key.secret);
  });

  it('validates the body: label, scope, expiry in the future, no unknown fields', async () => {
    for (const body of [
      {},
      { label: '', scope: 'full' },
      { label: 'x', scope: 'admin' },
      { label: 'x', expiresAt: '2020-01-01T00:00:00Z' },
      { label: 'x', expiresAt: 'tomorrow' },
      { label: 'x', extra: true },
      { label: 'line\nbreak' },
    ]) {
      const res = await createKey(owner, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('a read key may only GET; an expired key is refused', async () => {
    const read = (await createKey(owner, { label: 'dashboard', scope: 'read' })).body.data;
    expect((await h.http.get(`/v1/key/projects/${owner.projectId}/jobs`).set(bearer(read.secret))).status).toBe(200);
    const write = await h.http
      .post(`/v1/key/projects/${owner.projectId}/jobs`)
      .set(bearer(read.secret))
      .send({ type: 'search', targets: ['x'] });
    expect(write.status).toBe(403);
    expect(write.body.error.message).toMatch(/read scope/);

    const soon = new Date(Date.now() + 60_000).toISOString();
    const expiring = (await createKey(owner, { label: 'temp', scope: 'full', expiresAt: soon })).body.data;
    expect(expiring.expiresAt).toBe(soon);
    expect((await h.http.get('/v1/key/me').set(bearer(expiring.secret))).status).toBe(200);
    await sql`update api_key set expires_at = now() - interval '1 second' where id = ${expiring.id}`.execute(h.deps.db);
    await h.deps.directory.changed([`key:${expiring.id}`]);
    const expired = await h.http.get('/v1/key/me').set(bearer(expiring.secret));
    expect(expired.status).toBe(401);
    expect(expired.body.error.message).toMatch(/expired/);
  });

  it('records lastUsedAt off the request path, at most once a minute', async () => {
    const key = (await createKey(owner, { label: 'used', scope: 'full' })).body.data;
    for (let i = 0; i < 5; i++) await h.http.get('/v1/key/me').set(bearer(key.secret));
    await h.deps.directory.keyUse.flush();
    const first = await h.deps.db.selectFrom('api_key').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(first.last_used_at).toBeInstanceOf(Date);
    await h.http.get('/v1/key/me').set(bearer(key.secret));
    await h.deps.directory.keyUse.flush();
    const second = await h.deps.db.selectFrom('api_key').select('last_used_at').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(second.last_used_at!.getTime()).toBe(first.last_used_at!.getTime());
    const listed = (await owner.agent.get(`/v1/account/projects/${owner.projectId}/keys`)).body.data.find(
      (k: { id: string }) => k.id === key.id,
    );
    expect(listed.lastUsedAt).toBe(first.last_used_at!.toISOString());
  });
});

describe('rotating and revoking', () => {
  it('rotation answers a new key; the old one works through the overlap, then stops', async () => {
    const old = (await createKey(owner, { label: 'rotating', scope: 'read' })).body.data;
    const res = await owner.agent.post(`/v1/account/keys/${old.id}/rotate`).set(owner.csrf).send({ overlapSeconds: 1 });
    expect(res.status).toBe(201);
    const fresh = res.body.data;
    expect(fresh).toMatchObject({ label: 'rotating', scope: 'read', revokedAt: null });
    expect(fresh.secret).not.toBe(old.secret);
    expect((await h.http.get('/v1/key/me').set(bearer(old.secret))).status).toBe(200);
    expect((await h.http.get('/v1/key/me').set(bearer(fresh.secret))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect((await h.http.get('/v1/key/me').set(bearer(old.secret))).status).toBe(401);
    expect((await h.http.get('/v1/key/me').set(bearer(fresh.secret))).status).toBe(200);

    for (const overlapSeconds of [-1, 86_401, 1.5, '60']) {
      const bad = await owner.agent.post(`/v1/account/keys/${fresh.id}/rotate`).set(owner.csrf).send({ overlapSeconds });
      expect(bad.status).toBe(400);
    }
    // a revoked key cannot be rotated
    const again = await owner.agent.post(`/v1/account/keys/${old.id}/rotate`).set(owner.csrf).send({});
    expect(again.status).toBe(409);
  });

  it('revocation takes effect at once on every gateway, despite their caches', async () => {
    const replica = await h.replica();
    const key = (await createKey(owner)).body.data;
    // both gateways have the key cached now
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(200);
    expect((await supertest(replica.url).get('/v1/key/me').set(bearer(key.secret))).status).toBe(200);
    const res = await owner.agent.delete(`/v1/account/keys/${key.id}`).set(owner.csrf);
    expect(res.status).toBe(204);
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(401);
    // the other gateway hears of it through Redis within moments, not after its 60 s cache
    const deadline = Date.now() + 2_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      status = (await supertest(replica.url).get('/v1/key/me').set(bearer(key.secret))).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
    // revoking again changes nothing
    expect((await owner.agent.delete(`/v1/account/keys/${key.id}`).set(owner.csrf)).status).toBe(204);
  });

  it('a signed-out session ends on every gateway at once too', async () => {
    const replica = await h.replica();
    const user = await signIn(h, owner.email);
    const cookie = (await user.agent.get('/v1/account/me')).request.cookies;
    const other = supertest.agent(replica.url);
    await other.get('/v1/account/me').set('Cookie', cookie);
    expect((await supertest(replica.url).get('/v1/account/me').set('Cookie', cookie)).status).toBe(200);
    await user.agent.delete('/v1/account/sessions/current').set(user.csrf);
    const deadline = Date.now() + 2_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline)
      status = (await supertest(replica.url).get('/v1/account/me').set('Cookie', cookie)).status;
    expect(status).toBe(401);
  });
});

describe('roles', () => {
  it('developers create keys and manage their own; owners and admins every key; viewers make none', async () => {
    const developer = await member(h, owner.organizationId, 'developer');
    const admin = await member(h, owner.organizationId, 'admin');
    const viewer = await member(h, owner.organizationId, 'viewer');
    const ownersKey = (await createKey(owner, { label: 'owner key' })).body.data;
    const devKey = (await createKey(developer, { label: 'dev key' })).body.data;
    expect(devKey.createdBy).toBe(developer.userId);

    const devList = (await developer.agent.get(`/v1/account/projects/${owner.projectId}/keys`)).body.data;
    expect(devList.map((k: { id: string }) => k.id)).toEqual([devKey.id]);
    const adminList = (await admin.agent.get(`/v1/account/projects/${owner.projectId}/keys`)).body.data.map((k: { id: string }) => k.id);
    expect(adminList).toEqual(expect.arrayContaining([devKey.id, ownersKey.id]));

    const forbidden = await developer.agent.delete(`/v1/account/keys/${ownersKey.id}`).set(developer.csrf);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('FORBIDDEN');
    expect((await developer.agent.post(`/v1/account/keys/${ownersKey.id}/rotate`).set(developer.csrf).send({})).status).toBe(403);
    expect((await developer.agent.delete(`/v1/account/keys/${devKey.id}`).set(developer.csrf)).status).toBe(204);
    expect((await admin.agent.delete(`/v1/account/keys/${ownersKey.id}`).set(admin.csrf)).status).toBe(204);

    // a viewer made no keys: an empty list, and no new ones
    const viewerList = await viewer.agent.get(`/v1/account/projects/${owner.projectId}/keys`);
    expect(viewerList.status).toBe(200);
    expect(viewerList.body.data).toEqual([]);
    expect((await createKey(viewer)).status).toBe(403);
    expect((await viewer.agent.delete(`/v1/account/keys/${devKey.id}`).set(viewer.csrf)).status).toBe(403);
  });

  it('a developer demoted to viewer: their full key is read-only at once, shown so, and they may still revoke it', async () => {
    const developer = await member(h, owner.organizationId, 'developer');
    const key = (await createKey(developer, { label: 'made as developer', scope: 'full' })).body.data;
    expect(key.effectiveScope).toBe('full');
    const jobs = `/v1/key/projects/${owner.projectId}/jobs`;
    const webhooks = `/v1/key/projects/${owner.projectId}/webhooks`;
    expect((await h.http.get(jobs).set(bearer(key.secret))).status).toBe(200); // cached for a minute now

    const demoted = await owner.agent
      .patch(`/v1/account/organizations/${owner.organizationId}/members/${developer.userId}`)
      .set(owner.csrf)
      .send({ role: 'viewer' });
    expect(demoted.status).toBe(200);
    const write = await h.http
      .post(jobs)
      .set(bearer(key.secret))
      .send({ type: 'search', targets: ['x'] });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('FORBIDDEN');
    expect(write.body.error.message).toMatch(/the key's owner is now a viewer/);
    expect((await h.http.patch(webhooks).set(bearer(key.secret)).send({ configs: [] })).status).toBe(403);
    expect((await h.http.get(jobs).set(bearer(key.secret))).status).toBe(200);
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).body.data).toMatchObject({ scope: 'full', effectiveScope: 'read' });

    const theirs = await developer.agent.get(`/v1/account/projects/${owner.projectId}/keys`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([expect.objectContaining({ id: key.id, scope: 'full', effectiveScope: 'read' })]);
    const ownersView = (await owner.agent.get(`/v1/account/projects/${owner.projectId}/keys`)).body.data;
    expect(ownersView.find((k: { id: string }) => k.id === key.id).effectiveScope).toBe('read');
    expect((await developer.agent.post(`/v1/account/keys/${key.id}/rotate`).set(developer.csrf).send({})).status).toBe(403);
    expect((await createKey(developer)).status).toBe(403);
    expect((await developer.agent.delete(`/v1/account/keys/${key.id}`).set(developer.csrf)).status).toBe(204);
    expect((await h.http.get(jobs).set(bearer(key.secret))).status).toBe(401);
  });

  it('promoted again, the key writes again; a key of a user who is no member is refused; operator-made keys keep their scope', async () => {
    const developer = await member(h, owner.organizationId, 'viewer');
    const roleOf = (role: string) =>
      owner.agent.patch(`/v1/account/organizations/${owner.organizationId}/members/${developer.userId}`).set(owner.csrf).send({ role });
    await roleOf('developer');
    const key = (await createKey(developer, { label: 'flip', scope: 'full' })).body.data;
    const webhooks = `/v1/key/projects/${owner.projectId}/webhooks`;
    await roleOf('viewer');
    expect((await h.http.patch(webhooks).set(bearer(key.secret)).send({ configs: [] })).status).toBe(403);
    await roleOf('developer');
    expect((await h.http.patch(webhooks).set(bearer(key.secret)).send({ configs: [] })).status).toBe(200);

    // removal revokes the member's keys; a membership gone any other way is refused all the same
    await sql`delete from membership where user_id = ${developer.userId}`.execute(h.deps.db);
    await h.deps.directory.changed([`user:${developer.userId}`]);
    const gone = await h.http.get('/v1/key/me').set(bearer(key.secret));
    expect(gone.status).toBe(401);
    expect(gone.body.error.message).toMatch(/no longer a member/);

    // a user made by the admin CLI has no membership: its key acts with its own scope
    const operatorKey = await createTenantKey(h.deps.db, owner.projectId, { newUser: true });
    expect((await h.http.patch(webhooks).set(bearer(operatorKey.apiKey)).send({ configs: [] })).status).toBe(200);
    expect((await h.http.get('/v1/key/me').set(bearer(operatorKey.apiKey))).body.data.effectiveScope).toBe('full');
  });

  it("another organization's project or key is 404, and a write without CSRF is 403", async () => {
    const stranger = await signUp(h);
    const key = (await createKey(owner)).body.data;
    expect((await stranger.agent.get(`/v1/account/projects/${owner.projectId}/keys`)).status).toBe(404);
    expect((await createKey(stranger, { label: 'x' }, owner.projectId)).status).toBe(404);
    expect((await stranger.agent.post(`/v1/account/keys/${key.id}/rotate`).set(stranger.csrf).send({})).status).toBe(404);
    expect((await stranger.agent.delete(`/v1/account/keys/${key.id}`).set(stranger.csrf)).status).toBe(404);
    expect((await stranger.agent.delete('/v1/account/keys/key_0000000000000000').set(stranger.csrf)).status).toBe(404);
    const noCsrf = await owner.agent.post(`/v1/account/projects/${owner.projectId}/keys`).send({ label: 'x' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('CSRF_REQUIRED');
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(200);
  });
});

it('a project holds at most 100 live keys; revoking one makes room', async () => {
  const user = await signUp(h);
  const made: string[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await createKey(user, { label: `k${i}` }, user.projectId);
    expect(res.status).toBe(201);
    made.push(res.body.data.id);
  }
  const over = await createKey(user, { label: 'one too many' }, user.projectId);
  expect(over.status).toBe(409);
  expect(over.body.error.message).toMatch(/at most 100/);
  await user.agent.delete(`/v1/account/keys/${made[0]}`).set(user.csrf);
  expect((await createKey(user, { label: 'room again' }, user.projectId)).status).toBe(201);
}, 60_000);

describe('the live-key cap holds for rotations and concurrent creates', () => {
  /** Fills a project with live keys straight in the database (the cap's own path is what is tested). */
  async function fill(user: SignedIn, count: number): Promise<void> {
    await Promise.all(
      Array.from({ length: count }, (_, i) => {
        const key = generateApiKey();
        return h.deps.accounts.keys.insert({
          projectId: user.projectId,
          userId: user.userId,
          keyPrefix: key.keyPrefix,
          keyHash: key.keyHash,
          label: `filler ${i}`,
          scope: 'read',
          expiresAt: null,
        });
      }),
    );
  }
  const live = async (projectId: string) =>
    Number(
      (
        await sql<{ n: string }>`select count(*) as n from api_key where project_id = ${projectId}
          and (revoked_at is null or revoked_at > now())`.execute(h.deps.db)
      ).rows[0]!.n,
    );

  it('at the cap, a rotation with an overlap is refused (it would add a key); without one it replaces the key', async () => {
    const user = await signUp(h);
    const key = (await createKey(user, { label: 'to rotate' }, user.projectId)).body.data;
    await fill(user, 99);
    expect(await live(user.projectId)).toBe(100);
    const overlapping = await user.agent.post(`/v1/account/keys/${key.id}/rotate`).set(user.csrf).send({ overlapSeconds: 600 });
    expect(overlapping.status).toBe(409);
    expect(overlapping.body.error.code).toBe('INVALID_STATE');
    expect(overlapping.body.error.message).toMatch(/at most 100 live keys/);
    expect(await live(user.projectId)).toBe(100);
    const replaced = await user.agent.post(`/v1/account/keys/${key.id}/rotate`).set(user.csrf).send({ overlapSeconds: 0 });
    expect(replaced.status).toBe(201);
    expect(await live(user.projectId)).toBe(100);
  });

  it('concurrent creates one short of the cap: exactly one passes', async () => {
    const user = await signUp(h);
    await fill(user, 99);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => createKey(user, { label: `racer ${i}` }, user.projectId)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(7);
    expect(await live(user.projectId)).toBe(100);
  });
});

it('webhook signing secrets are shown to writers only: a read key and a viewer see them masked', async () => {
  const user = await signUp(h);
  const full = (await createKey(user, { label: 'writer', scope: 'full' }, user.projectId)).body.data;
  const read = (await createKey(user, { label: 'reader', scope: 'read' }, user.projectId)).body.data;
  const path = `/v1/key/projects/${user.projectId}/webhooks`;
  const saved = await h.http
    .patch(path)
    .set(bearer(full.secret))
    .send({ configs: [{ url: 'http://127.0.0.1:9/in', triggerAction: 'job.completed' }] });
  expect(saved.status).toBe(200);
  const secret = saved.body.data.configs[0].secret as string;
  expect((await h.http.get(path).set(bearer(full.secret))).body.data.configs[0].secret).toBe(secret);
  const masked = (await h.http.get(path).set(bearer(read.secret))).body.data.configs[0].secret as string;
  expect(masked).not.toBe(secret);
  expect(masked.startsWith(secret.slice(0, 8))).toBe(true);
  expect(masked).not.toContain(secret.slice(8, 16));
  const viewer = await member(h, user.organizationId, 'viewer');
  expect((await viewer.agent.get(path)).body.data.configs[0].secret).toBe(masked);
});
