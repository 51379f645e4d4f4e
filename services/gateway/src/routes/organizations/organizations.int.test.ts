import { sql } from '@crawl/db';
import { PrivateRedis } from '@crawl/testing';
import { readOutbox } from '@crawl/mail';
import { mailTo, member, type SignedIn, signIn, signUp, tokenOf, uniqueEmail } from '../../test-support/accounts';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const org = (who: SignedIn) => `/v1/account/organizations/${who.organizationId}`;

describe('organization and projects', () => {
  it('any member reads the organization; another organization is 404', async () => {
    const owner = await signUp(h, { organizationName: 'Readers Inc' });
    const viewer = await member(h, owner.organizationId, 'viewer');
    const res = await viewer.agent.get(org(owner));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: owner.organizationId,
      name: 'Readers Inc',
      plan: 'starter',
      creditBalance: 100,
      rateLimit: { limit: 20, windowSeconds: 1 },
      role: 'viewer',
    });
    const stranger = await signUp(h);
    expect((await stranger.agent.get(org(owner))).status).toBe(404);
    expect((await stranger.agent.get(`${org(owner)}/projects`)).status).toBe(404);
    expect((await stranger.agent.get('/v1/account/organizations/org_0000000000000000')).status).toBe(404);
  });

  it('owners and admins create and rename projects; developers may not (403)', async () => {
    const owner = await signUp(h);
    const admin = await member(h, owner.organizationId, 'admin');
    const developer = await member(h, owner.organizationId, 'developer');
    const created = await admin.agent
      .post(`${org(owner)}/projects`)
      .set(admin.csrf)
      .send({ name: 'Price watch' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Price watch', organizationId: owner.organizationId, archivedAt: null });
    const renamed = await owner.agent
      .patch(`/v1/account/projects/${created.body.data.id}`)
      .set(owner.csrf)
      .send({ name: 'Price watch EU' });
    expect(renamed.body.data.name).toBe('Price watch EU');
    expect(
      (
        await developer.agent
          .post(`${org(owner)}/projects`)
          .set(developer.csrf)
          .send({ name: 'Nope' })
      ).status,
    ).toBe(403);
    expect(
      (await developer.agent.patch(`/v1/account/projects/${created.body.data.id}`).set(developer.csrf).send({ name: 'x' })).status,
    ).toBe(403);
    expect(
      (
        await owner.agent
          .post(`${org(owner)}/projects`)
          .set(owner.csrf)
          .send({ name: '' })
      ).status,
    ).toBe(400);
    expect((await owner.agent.post(`${org(owner)}/projects`).send({ name: 'no csrf' })).body.error.code).toBe('CSRF_REQUIRED');
    const names = (await developer.agent.get(`${org(owner)}/projects`)).body.data.map((p: { name: string }) => p.name);
    expect(names).toEqual(['Default', 'Price watch EU']);
  });

  it('archiving waits for running jobs, then revokes the keys and disables the schedules; the data stays readable', async () => {
    const owner = await signUp(h);
    const key = (await owner.agent.post(`/v1/account/projects/${owner.projectId}/keys`).set(owner.csrf).send({ label: 'k' })).body.data;
    const job = await h.http
      .post(`/v1/key/projects/${owner.projectId}/jobs`)
      .set(bearer(key.secret))
      .send({ type: 'details', targets: ['B0DR8G428S'] });
    expect(job.status).toBe(202);
    const schedule = await h.http
      .post(`/v1/key/projects/${owner.projectId}/schedules`)
      .set(bearer(key.secret))
      .send({ cron: '0 9 * * 1', crawlConfig: { type: 'search', targets: ['x'] } });
    expect(schedule.status).toBe(201);

    const busy = await owner.agent.delete(`/v1/account/projects/${owner.projectId}`).set(owner.csrf);
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('INVALID_STATE');
    await owner.agent.post(`/v1/key/jobs/${job.body.data.id}/cancel`).set(owner.csrf);

    expect((await owner.agent.delete(`/v1/account/projects/${owner.projectId}`).set(owner.csrf)).status).toBe(204);
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(401);
    const row = await h.deps.db.selectFrom('schedule').select('enabled').where('id', '=', schedule.body.data.id).executeTakeFirstOrThrow();
    expect(row.enabled).toBe(false);
    const projects = (await owner.agent.get(`${org(owner)}/projects`)).body.data;
    expect(projects[0].archivedAt).toEqual(expect.any(String));
    // readable with a session, not writable, and no new keys
    expect((await owner.agent.get(`/v1/key/jobs/${job.body.data.id}`)).status).toBe(200);
    const write = await owner.agent
      .post(`/v1/key/projects/${owner.projectId}/jobs`)
      .set(owner.csrf)
      .send({ type: 'search', targets: ['x'] });
    expect(write.status).toBe(409);
    expect((await owner.agent.post(`/v1/account/projects/${owner.projectId}/keys`).set(owner.csrf).send({ label: 'k' })).status).toBe(409);
    // archiving again is a no-op
    expect((await owner.agent.delete(`/v1/account/projects/${owner.projectId}`).set(owner.csrf)).status).toBe(204);
  });
});

describe('members and invitations', () => {
  it('invites by mail; a new user accepts with a password and starts verified, the link works once', async () => {
    const owner = await signUp(h, { organizationName: 'Inviting <Co>' });
    const email = uniqueEmail('invitee');
    const res = await owner.agent
      .post(`${org(owner)}/invitations`)
      .set(owner.csrf)
      .send({ email, role: 'developer' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ email, role: 'developer', invitedBy: owner.userId });
    expect(new Date(res.body.data.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);
    const listed = (await owner.agent.get(`${org(owner)}/invitations`)).body.data;
    expect(listed.map((i: { email: string }) => i.email)).toEqual([email]);

    const mail = await mailTo(h.outboxDir, email, 'invitation');
    expect(mail.link).toMatch(/^http:\/\/console\.test\/console\/accept-invitation\?token=/);
    expect(mail.html).toContain('Inviting &lt;Co&gt;');
    const accepted = await h.http.post('/v1/account/invitations/accept').send({ token: tokenOf(mail.link), password: 'invitee password' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({
      organizationId: owner.organizationId,
      organizationName: 'Inviting <Co>',
      role: 'developer',
      permissions: ['organization.read', 'keys.mine', 'keys.own', 'data.write'],
    });
    const reused = await h.http.post('/v1/account/invitations/accept').send({ token: tokenOf(mail.link), password: 'invitee password' });
    expect(reused.body.error.code).toBe('INVALID_TOKEN');

    const invitee = await signIn(h, email, 'invitee password');
    expect(invitee.organizationId).toBe(owner.organizationId);
    const members = (await invitee.agent.get(`${org(owner)}/members`)).body.data;
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [email, 'developer'],
    ]);
    expect((await owner.agent.get(`${org(owner)}/invitations`)).body.data).toEqual([]);
  });

  it('a signed-in user accepts for their own email only; an existing email cannot accept as a new user', async () => {
    const owner = await signUp(h);
    const other = await signUp(h);
    await owner.agent
      .post(`${org(owner)}/invitations`)
      .set(owner.csrf)
      .send({ email: other.email, role: 'viewer' });
    const mail = await mailTo(h.outboxDir, other.email, 'invitation');
    const asNew = await h.http.post('/v1/account/invitations/accept').send({ token: tokenOf(mail.link), password: 'whatever password' });
    expect(asNew.status).toBe(409);
    const wrongUser = await signUp(h);
    const mismatch = await wrongUser.agent
      .post('/v1/account/invitations/accept')
      .set(wrongUser.csrf)
      .send({ token: tokenOf(mail.link) });
    expect(mismatch.status).toBe(403);
    const noCsrf = await other.agent.post('/v1/account/invitations/accept').send({ token: tokenOf(mail.link) });
    expect(noCsrf.body.error.code).toBe('CSRF_REQUIRED');
    const anonymous = await h.http.post('/v1/account/invitations/accept').send({ token: tokenOf(mail.link) });
    expect(anonymous.status).toBe(401);
    const ok = await other.agent
      .post('/v1/account/invitations/accept')
      .set(other.csrf)
      .send({ token: tokenOf(mail.link) });
    expect(ok.status).toBe(200);
    expect(ok.body.data.role).toBe('viewer');
    const me = (await other.agent.get('/v1/account/me')).body.data;
    expect(me.memberships.map((m: { organizationId: string }) => m.organizationId)).toContain(owner.organizationId);
  });

  it('an expired or revoked invitation is INVALID_TOKEN; a member cannot be invited again', async () => {
    const owner = await signUp(h);
    const first = uniqueEmail();
    await owner.agent
      .post(`${org(owner)}/invitations`)
      .set(owner.csrf)
      .send({ email: first, role: 'viewer' });
    const mail = await mailTo(h.outboxDir, first, 'invitation');
    await sql`update invitation set expires_at = now() - interval '1 second' where email = ${first}`.execute(h.deps.db);
    const expired = await h.http.post('/v1/account/invitations/accept').send({ token: tokenOf(mail.link), password: 'some password' });
    expect(expired.body.error.code).toBe('INVALID_TOKEN');

    const second = uniqueEmail();
    const invitation = (
      await owner.agent
        .post(`${org(owner)}/invitations`)
        .set(owner.csrf)
        .send({ email: second, role: 'viewer' })
    ).body.data;
    const secondMail = await mailTo(h.outboxDir, second, 'invitation');
    expect((await owner.agent.delete(`${org(owner)}/invitations/${invitation.id}`).set(owner.csrf)).status).toBe(204);
    const revoked = await h.http
      .post('/v1/account/invitations/accept')
      .send({ token: tokenOf(secondMail.link), password: 'some password' });
    expect(revoked.body.error.code).toBe('INVALID_TOKEN');
    expect((await owner.agent.delete(`${org(owner)}/invitations/${invitation.id}`).set(owner.csrf)).status).toBe(404);

    const again = await owner.agent
      .post(`${org(owner)}/invitations`)
      .set(owner.csrf)
      .send({ email: owner.email, role: 'admin' });
    expect(again.status).toBe(409);
    const bad = await owner.agent
      .post(`${org(owner)}/invitations`)
      .set(owner.csrf)
      .send({ email: 'nope', role: 'boss' });
    expect(bad.status).toBe(400);
  });

  it('admins manage members below owner; only owners touch owners; the last owner stays', async () => {
    const owner = await signUp(h);
    const admin = await member(h, owner.organizationId, 'admin');
    const developer = await member(h, owner.organizationId, 'developer');
    const members = `${org(owner)}/members`;

    expect(
      (
        await admin.agent
          .post(`${org(owner)}/invitations`)
          .set(admin.csrf)
          .send({ email: uniqueEmail(), role: 'owner' })
      ).status,
    ).toBe(403);
    expect((await admin.agent.patch(`${members}/${owner.userId}`).set(admin.csrf).send({ role: 'viewer' })).status).toBe(403);
    expect((await admin.agent.patch(`${members}/${developer.userId}`).set(admin.csrf).send({ role: 'owner' })).status).toBe(403);
    const demoted = await admin.agent.patch(`${members}/${developer.userId}`).set(admin.csrf).send({ role: 'viewer' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.data).toMatchObject({ userId: developer.userId, role: 'viewer' });
    // the change reaches the developer's session at once: a viewer cannot write
    const write = await developer.agent
      .post(`/v1/key/projects/${owner.projectId}/jobs`)
      .set(developer.csrf)
      .send({ type: 'search', targets: ['x'] });
    expect(write.status).toBe(403);
    expect((await developer.agent.patch(`${members}/${admin.userId}`).set(developer.csrf).send({ role: 'viewer' })).status).toBe(403);

    const last = await owner.agent.patch(`${members}/${owner.userId}`).set(owner.csrf).send({ role: 'admin' });
    expect(last.status).toBe(409);
    expect((await owner.agent.delete(`${members}/${owner.userId}`).set(owner.csrf)).status).toBe(409);
    expect((await owner.agent.patch(`${members}/usr_0000000000000000`).set(owner.csrf).send({ role: 'admin' })).status).toBe(404);
    expect((await owner.agent.patch(`${members}/${admin.userId}`).set(owner.csrf).send({ role: 'owner' })).status).toBe(200);
    expect((await owner.agent.patch(`${members}/${owner.userId}`).set(owner.csrf).send({ role: 'admin' })).status).toBe(200);
  });

  it('removing a member revokes the keys they made in the organization, and ends their access', async () => {
    const owner = await signUp(h);
    const developer = await member(h, owner.organizationId, 'developer');
    const key = (await developer.agent.post(`/v1/account/projects/${owner.projectId}/keys`).set(developer.csrf).send({ label: 'dev' })).body
      .data;
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(200);
    expect((await owner.agent.delete(`${org(owner)}/members/${developer.userId}`).set(owner.csrf)).status).toBe(204);
    expect((await h.http.get('/v1/key/me').set(bearer(key.secret))).status).toBe(401);
    expect((await developer.agent.get(`/v1/key/projects/${owner.projectId}/jobs`)).status).toBe(404);
    expect((await developer.agent.get(org(owner))).status).toBe(404);
    // any member may leave
    const viewer = await member(h, owner.organizationId, 'viewer');
    expect((await viewer.agent.delete(`${org(owner)}/members/${viewer.userId}`).set(viewer.csrf)).status).toBe(204);
  });
});

describe('audit log', () => {
  it('records account changes with actor, time and address, newest first, for owners and admins only', async () => {
    const owner = await signUp(h);
    const key = (await owner.agent.post(`/v1/account/projects/${owner.projectId}/keys`).set(owner.csrf).send({ label: 'audited' })).body
      .data;
    await owner.agent.post(`/v1/account/keys/${key.id}/rotate`).set(owner.csrf).send({ overlapSeconds: 60 });
    await owner.agent.delete(`/v1/account/keys/${key.id}`).set(owner.csrf);
    await owner.agent
      .post(`${org(owner)}/invitations`)
      .set(owner.csrf)
      .send({ email: uniqueEmail(), role: 'viewer' });
    const res = await owner.agent.get(`${org(owner)}/audit-log?limit=3`);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ limit: 3, offset: 0, hasMore: true });
    expect(res.body.data.map((e: { action: string }) => e.action)).toEqual(['member.invited', 'key.revoked', 'key.rotated']);
    expect(res.body.data[0]).toMatchObject({ actor: { userId: owner.userId, email: owner.email }, clientAddress: expect.any(String) });
    const all = (await owner.agent.get(`${org(owner)}/audit-log?limit=100`)).body.data.map((e: { action: string }) => e.action);
    expect(all).toEqual(expect.arrayContaining(['signup', 'session.created', 'key.created']));
    const developer = await member(h, owner.organizationId, 'developer');
    expect((await developer.agent.get(`${org(owner)}/audit-log`)).status).toBe(403);
    expect((await owner.agent.get(`${org(owner)}/audit-log?limit=0`)).status).toBe(400);
  });

  /** The newest `count` entries of the owner's organization. */
  const newest = async (owner: SignedIn, count: number) => (await owner.agent.get(`${org(owner)}/audit-log?limit=${count}`)).body.data;

  it('records webhook changes by key and by session: ids, origins, events and whether the secret changed, never a secret or a URL path', async () => {
    const owner = await signUp(h);
    const key = (await owner.agent.post(`/v1/account/projects/${owner.projectId}/keys`).set(owner.csrf).send({ label: 'hooks' })).body.data;
    const webhooks = `/v1/key/projects/${owner.projectId}/webhooks`;
    const url = 'http://127.0.0.1:9/hooks/tok_pathsecret42?token=querysecret42';
    const created = await h.http
      .patch(webhooks)
      .set(bearer(key.secret))
      .send({ configs: [{ url, triggerAction: 'job.completed', secret: 'whsec_my-own-signing-secret' }] });
    expect(created.status).toBe(200);
    const config = created.body.data.configs[0];
    const [first] = await newest(owner, 1);
    expect(first).toMatchObject({
      action: 'webhooks.changed',
      actorType: 'user',
      actor: { userId: owner.userId, email: owner.email },
      subject: { type: 'project', id: owner.projectId },
      clientAddress: expect.any(String),
      details: {
        keyId: key.id,
        configs: [
          { id: config.id, origin: 'http://127.0.0.1:9', event: 'job.completed', enabled: true, change: 'added', secretChanged: true },
        ],
        removed: [],
      },
    });

    // by session: the secret sent back is kept, the event changes, a second one is added and then the first removed
    const kept = await owner.agent
      .patch(webhooks)
      .set(owner.csrf)
      .send({
        configs: [
          { id: config.id, url, triggerAction: 'job.failed', secret: 'whsec_my-own-signing-secret' },
          { url: 'http://127.0.0.1:8/other/path', triggerAction: 'product.changed' },
        ],
      });
    expect(kept.status).toBe(200);
    const added = kept.body.data.configs[1];
    const [second] = await newest(owner, 1);
    expect(second.details).toEqual({
      configs: [
        {
          id: config.id,
          origin: 'http://127.0.0.1:9',
          event: 'job.failed',
          enabled: true,
          change: 'changed',
          fields: ['event'],
          secretChanged: false,
        },
        {
          id: added.id,
          origin: 'http://127.0.0.1:8',
          event: 'product.changed',
          enabled: true,
          change: 'added',
          secretChanged: true,
        },
      ],
      removed: [],
    });
    expect(second.actor.userId).toBe(owner.userId);
    const rotated = await owner.agent
      .patch(webhooks)
      .set(owner.csrf)
      .send({ configs: [{ id: added.id, url: 'http://127.0.0.1:8/other/path', triggerAction: 'product.changed' }] });
    expect(rotated.status).toBe(200);
    const [third] = await newest(owner, 1);
    expect(third.details).toEqual({
      configs: [
        {
          id: added.id,
          origin: 'http://127.0.0.1:8',
          event: 'product.changed',
          enabled: true,
          change: 'changed',
          fields: ['secret'],
          secretChanged: true,
        },
      ],
      removed: [{ id: config.id, origin: 'http://127.0.0.1:9', event: 'job.failed' }],
    });

    // one entry per PATCH, and no secret, path or query anywhere in the log
    const entries = (await newest(owner, 100)).filter((e: { action: string }) => e.action === 'webhooks.changed');
    expect(entries).toHaveLength(3);
    const log = JSON.stringify(await newest(owner, 100));
    for (const secret of [
      'whsec_my-own-signing-secret',
      added.secret,
      rotated.body.data.configs[0].secret,
      'tok_pathsecret42',
      'querysecret42',
      '/other/path',
    ]) {
      expect(log).not.toContain(secret);
    }
    // a refused PATCH changes nothing and records nothing
    expect(
      (
        await h.http
          .patch(webhooks)
          .set(bearer(key.secret))
          .send({ configs: [{ url: 'ftp://x.example/h', triggerAction: 'job.completed' }] })
      ).status,
    ).toBe(400);
    expect((await newest(owner, 1))[0].id).toBe(third.id);
  });

  it('records schedule creation, changes and deletion with what changed, and the key when one was used', async () => {
    const owner = await signUp(h);
    const key = (await owner.agent.post(`/v1/account/projects/${owner.projectId}/keys`).set(owner.csrf).send({ label: 'cron' })).body.data;
    const crawlConfig = { type: 'search', targets: ['desk lamp', 'usb hub'] };
    const created = await h.http
      .post(`/v1/key/projects/${owner.projectId}/schedules`)
      .set(bearer(key.secret))
      .send({ cron: '0 9 * * 1', crawlConfig });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const [made] = await newest(owner, 1);
    expect(made).toMatchObject({
      action: 'schedule.created',
      actorType: 'user',
      actor: { userId: owner.userId },
      subject: { type: 'schedule', id },
      clientAddress: expect.any(String),
    });
    expect(made.details).toEqual({
      cron: '0 9 * * 1',
      enabled: true,
      type: 'search',
      marketplace: 'US',
      targets: 2,
      pages: 1,
      keyId: key.id,
    });

    const updated = await owner.agent.patch(`/v1/key/schedules/${id}`).set(owner.csrf).send({ cron: '30 6 * * *', enabled: false });
    expect(updated.status).toBe(200);
    const [changed] = await newest(owner, 1);
    expect(changed).toMatchObject({ action: 'schedule.updated', actor: { userId: owner.userId }, subject: { type: 'schedule', id } });
    // by session: no keyId
    expect(changed.details).toEqual({
      changed: ['cron', 'enabled'],
      cron: { from: '0 9 * * 1', to: '30 6 * * *' },
      enabled: { from: true, to: false },
    });
    const retargeted = await h.http
      .patch(`/v1/key/schedules/${id}`)
      .set(bearer(key.secret))
      .send({ crawlConfig: { type: 'search', targets: ['desk lamp'] } });
    expect(retargeted.status).toBe(200);
    const [config] = await newest(owner, 1);
    expect(config.details).toEqual({
      changed: ['crawlConfig'],
      crawlConfig: {
        from: { type: 'search', marketplace: 'US', targets: 2, pages: 1 },
        to: { type: 'search', marketplace: 'US', targets: 1, pages: 1 },
      },
      keyId: key.id,
    });

    expect((await h.http.delete(`/v1/key/schedules/${id}`).set(bearer(key.secret))).status).toBe(204);
    const [deleted] = await newest(owner, 1);
    expect(deleted).toMatchObject({ action: 'schedule.deleted', actor: { userId: owner.userId }, subject: { type: 'schedule', id } });
    expect(deleted.details).toEqual({
      cron: '30 6 * * *',
      enabled: false,
      type: 'search',
      marketplace: 'US',
      targets: 1,
      pages: 1,
      keyId: key.id,
    });
    const actions = (await newest(owner, 100)).map((e: { action: string }) => e.action);
    expect(actions.filter((a: string) => a.startsWith('schedule.'))).toEqual([
      'schedule.deleted',
      'schedule.updated',
      'schedule.updated',
      'schedule.created',
    ]);
    // a schedule that is not there: 404, nothing recorded
    expect((await h.http.delete(`/v1/key/schedules/${id}`).set(bearer(key.secret))).status).toBe(404);
    expect((await newest(owner, 1))[0].id).toBe(deleted.id);
  });

  it("says who acted: 'operator' for an entry without a user", async () => {
    const owner = await signUp(h);
    await h.deps.accounts.audit.record({
      organizationId: owner.organizationId,
      actorUserId: null,
      action: 'credits.granted',
      details: { amount: 500 },
      clientAddress: null,
    });
    const [granted] = await newest(owner, 1);
    expect(granted).toMatchObject({ action: 'credits.granted', actorType: 'operator', actor: null });
  });
});

it('invitations count against the mail limits: a sixth invitation of one address in an hour is 429', async () => {
  const owner = await signUp(h);
  const email = uniqueEmail('popular');
  for (let i = 0; i < 5; i++) {
    expect(
      (
        await owner.agent
          .post(`${org(owner)}/invitations`)
          .set(owner.csrf)
          .send({ email, role: 'viewer' })
      ).status,
    ).toBe(201);
  }
  const sixth = await owner.agent
    .post(`${org(owner)}/invitations`)
    .set(owner.csrf)
    .send({ email, role: 'viewer' });
  expect(sixth.status).toBe(429);
  expect(sixth.headers['retry-after']).toBeDefined();
  // only the newest of the five is still pending
  expect((await owner.agent.get(`${org(owner)}/invitations`)).body.data).toHaveLength(1);
});

describe('invitation limits (per organization and per inviter, per hour)', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await startHarness({ accounts: { invitationLimits: { perOrganizationPerHour: 3, perInviterPerHour: 2 } } });
  });
  afterAll(() => small.close());

  const invite = (who: SignedIn, organizationId = who.organizationId) =>
    who.agent
      .post(`/v1/account/organizations/${organizationId}/invitations`)
      .set(who.csrf)
      .send({ email: uniqueEmail('invited'), role: 'viewer' });

  it('an inviter over their hourly limit is 429 naming that limit; a colleague may still invite', async () => {
    const owner = await signUp(small);
    const admin = await member(small, owner.organizationId, 'admin');
    expect((await invite(owner)).status).toBe(201);
    expect((await invite(owner)).status).toBe(201);
    const refused = await invite(owner);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(refused.body.error.message).toMatch(/^You sent 2 invitations in the last hour, the most one member may send/);
    expect(refused.body.error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.body.error.details.retryAfterSeconds).toBeLessThanOrEqual(3_600);
    expect(Number(refused.headers['retry-after'])).toBe(refused.body.error.details.retryAfterSeconds);
    // the inviter's limit is theirs in every organization: a second organization of theirs does not reset it
    const elsewhere = await signUp(small);
    const invited = await elsewhere.agent
      .post(`/v1/account/organizations/${elsewhere.organizationId}/invitations`)
      .set(elsewhere.csrf)
      .send({ email: owner.email, role: 'admin' });
    const mail = await mailTo(small.outboxDir, owner.email, 'invitation');
    expect(
      (
        await owner.agent
          .post('/v1/account/invitations/accept')
          .set(owner.csrf)
          .send({ token: tokenOf(mail.link) })
      ).status,
    ).toBe(200);
    expect(invited.status).toBe(201);
    expect((await invite(owner, elsewhere.organizationId)).status).toBe(429);
    const last = await invite(admin);
    expect(last.status).toBe(201);
    // the refused invitations were neither stored nor mailed
    const pending = (await owner.agent.get(`${org(owner)}/invitations`)).body.data;
    expect(pending).toHaveLength(3);
    await mailTo(small.outboxDir, last.body.data.email, 'invitation');
    const mailed = (await readOutbox(small.outboxDir, { kind: 'invitation' })).map((m) => m.to);
    expect(mailed).toEqual(expect.arrayContaining([...pending.map((p: { email: string }) => p.email), owner.email]));
    expect(mailed).toHaveLength(4);
  });

  it('an organization over its hourly limit is 429 naming that limit, whoever invites; other organizations are not affected', async () => {
    const owner = await signUp(small);
    const admin = await member(small, owner.organizationId, 'admin');
    const other = await member(small, owner.organizationId, 'admin');
    expect((await invite(owner)).status).toBe(201);
    expect((await invite(admin)).status).toBe(201);
    expect((await invite(other)).status).toBe(201);
    const refused = await invite(other);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^This organization sent 3 invitations in the last hour, the most it may send/);
    expect(refused.body.error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.headers['retry-after']).toBeDefined();
    const stranger = await signUp(small);
    expect((await invite(stranger)).status).toBe(201);
  });
});

it('invitations fail closed while Redis is down (503, no mail), and work again once it is back', async () => {
  const redis = await PrivateRedis.start();
  const down = await startHarness({ redisUrl: redis.url });
  try {
    const owner = await signUp(down);
    await redis.kill();
    const email = uniqueEmail('unsent');
    const refused = await owner.agent
      .post(`${org(owner)}/invitations`)
      .set(owner.csrf)
      .send({ email, role: 'viewer' });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('UNAVAILABLE');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await owner.agent.get(`${org(owner)}/invitations`)).body.data).toEqual([]);
    await redis.start();
    // ioredis reconnects with a backoff of up to 2 s
    const deadline = Date.now() + 10_000;
    while (down.deps.redis.status !== 'ready' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(
      (
        await owner.agent
          .post(`${org(owner)}/invitations`)
          .set(owner.csrf)
          .send({ email, role: 'viewer' })
      ).status,
    ).toBe(201);
    await mailTo(down.outboxDir, email, 'invitation');
    // one mail: the refused request sent none
    expect(await readOutbox(down.outboxDir, { to: email, kind: 'invitation' })).toHaveLength(1);
  } finally {
    await down.close();
    await redis.kill();
  }
});
