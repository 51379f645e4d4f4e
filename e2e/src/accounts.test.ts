/**
 * The self-serve customer path (docs/accounts.md) against a real gateway, real workers and the
 * marketplace simulator: sign up and verify through the mailed link, sign in, make an API key and
 * crawl with it on the sign-up credits, rotate the key with an overlap, revoke it, invite a viewer
 * who can read but not write, and read it all back in the audit log. The steps run in order and
 * share the state of one organization.
 */
import { permissionsOf } from '@crawl/core';
import { readOutbox } from '@crawl/mail';
import type { Response } from 'supertest';
import { type Stack, startStack } from './stack';

type Agent = ReturnType<Stack['agent']>;

const PASSWORD = 'correct horse battery';
const SIGNUP_CREDITS = 100;
/** A details job costs 2 credits per target; any ASIN of this shape gets a template page from the simulator. */
const TARGETS = ['B0ACCT0001', 'B0ACCT0002'];
const DETAILS_CREDITS_PER_TARGET = 2;

const emailFor = (name: string) => `${name}.${process.pid}.${Date.now()}@example.com`;
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

/** The newest mail to `to` of `kind`: account mail is sent just after the answer, so it is polled for. */
async function mailTo(outboxDir: string, to: string, kind: 'verify-email' | 'invitation') {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const mails = await readOutbox(outboxDir, { to, kind });
    if (mails.length > 0) return mails[mails.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no ${kind} mail to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The `cds_session` Set-Cookie line of a response, if any. */
function sessionCookie(res: Response): string | undefined {
  const header = res.headers['set-cookie'] as unknown as string[] | string | undefined;
  const lines = Array.isArray(header) ? header : header ? [header] : [];
  return lines.find((line) => line.startsWith('cds_session='));
}

/** Polls `GET /v1/key/me` with `secret` until it answers `status`, for up to `timeoutMs`; the last answer. */
async function keyMeUntil(stack: Stack, secret: string, status: number, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await stack.http.get('/v1/key/me').set(bearer(secret));
    if (res.status === status || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe('a customer from sign-up to an audited organization', () => {
  const ownerEmail = emailFor('owner');
  const viewerEmail = emailFor('viewer');
  let owner: Agent;
  let csrf: Record<string, string>;
  let ownerId: string;
  let orgId: string;
  let projectId: string;
  let jobId: string;
  let firstKey: { id: string; secret: string };
  let rotatedKey: { id: string; secret: string };

  it('signs up, verifies the email through the mailed link and signs in with an HttpOnly SameSite=Lax cookie', async () => {
    const signup = await stack.http
      .post('/v1/account/signup')
      .send({ email: ownerEmail, password: PASSWORD, organizationName: 'Acme Retail' });
    expect(signup.status).toBe(202);
    expect(signup.body).toEqual({ data: { status: 'verification_sent' } });

    // the account is made after the answer; once its mail is out, it exists but is not verified:
    // signing in is refused
    const mail = await mailTo(stack.outboxDir, ownerEmail, 'verify-email');
    const early = await stack.agent().post('/v1/account/sessions').send({ email: ownerEmail, password: PASSWORD });
    expect(early.status).toBe(403);
    expect(sessionCookie(early)).toBeUndefined();

    expect(mail.link).toMatch(/^http:\/\/console\.test\/console\/verify-email\?token=[^&]+$/);
    expect(mail.text).toContain(mail.link);
    const token = new URL(mail.link!).searchParams.get('token')!;
    const verified = await stack.http.post('/v1/account/email-verification').send({ token });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ data: { verified: true, alreadyVerified: false } });
    // the link works once; opened again, it says the address is verified already
    const again = await stack.http.post('/v1/account/email-verification').send({ token });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ data: { verified: true, alreadyVerified: true } });

    owner = stack.agent();
    const wrong = await owner.post('/v1/account/sessions').send({ email: ownerEmail, password: 'not the password at all' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    const session = await owner.post('/v1/account/sessions').send({ email: ownerEmail, password: PASSWORD });
    expect(session.status).toBe(201);
    const cookie = sessionCookie(session);
    expect(cookie).toMatch(/^cds_session=[^;]+;/);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//);
    expect(session.body.data).toEqual({ user: { id: expect.any(String), email: ownerEmail }, csrfToken: expect.any(String) });
    ownerId = session.body.data.user.id;
    csrf = { 'X-CSRF-Token': session.body.data.csrfToken };

    const me = await owner.get('/v1/account/me');
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      user: { id: ownerId, email: ownerEmail },
      memberships: [
        { organizationId: expect.any(String), organizationName: 'Acme Retail', role: 'owner', permissions: permissionsOf('owner') },
      ],
      csrfToken: csrf['X-CSRF-Token'],
    });
    orgId = me.body.data.memberships[0].organizationId;

    const projects = await owner.get(`/v1/account/organizations/${orgId}/projects`);
    expect(projects.status).toBe(200);
    expect(projects.body.data).toEqual([
      { id: expect.any(String), organizationId: orgId, name: 'Default', createdAt: expect.any(String), archivedAt: null },
    ]);
    projectId = projects.body.data[0].id;

    const org = await owner.get(`/v1/account/organizations/${orgId}`);
    expect(org.status).toBe(200);
    expect(org.body.data).toMatchObject({ id: orgId, name: 'Acme Retail', role: 'owner', creditBalance: SIGNUP_CREDITS });
  });

  it('makes a key, which says who it is and crawls a real job on the sign-up credits', async () => {
    const created = await owner.post(`/v1/account/projects/${projectId}/keys`).set(csrf).send({ label: 'ci', scope: 'full' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      projectId,
      label: 'ci',
      scope: 'full',
      createdBy: ownerId,
      createdByEmail: ownerEmail,
      revokedAt: null,
    });
    expect(created.body.data.secret).toEqual(expect.any(String));
    expect(created.body.data.secret.startsWith(created.body.data.prefix)).toBe(true);
    firstKey = { id: created.body.data.id, secret: created.body.data.secret };

    const me = await stack.http.get('/v1/key/me').set(bearer(firstKey.secret));
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({
      keyId: firstKey.id,
      label: 'ci',
      scope: 'full',
      effectiveScope: 'full',
      projectId,
      organizationId: orgId,
      userId: ownerId,
    });

    const job = await stack.http
      .post(`/v1/key/projects/${projectId}/jobs`)
      .set(bearer(firstKey.secret))
      .send({ type: 'details', targets: TARGETS });
    expect(job.status).toBe(202);
    jobId = job.body.data.id;
    const cost = TARGETS.length * DETAILS_CREDITS_PER_TARGET;
    const done = await stack.waitForJob(jobId);
    expect(done).toMatchObject({
      status: 'completed',
      progress: { total: TARGETS.length, succeeded: TARGETS.length, failed: 0 },
      credits: { reserved: cost, consumed: cost, refunded: 0 },
    });
    const results = await stack.http.get(`/v1/key/jobs/${jobId}/results`).set(bearer(firstKey.secret));
    expect(results.status).toBe(200);
    expect(results.body.data.map((r: { asin: string }) => r.asin).sort()).toEqual(TARGETS);

    const org = await owner.get(`/v1/account/organizations/${orgId}`);
    expect(org.body.data.creditBalance).toBe(SIGNUP_CREDITS - cost);
  });

  it('rotates the key with an overlap: both work, then only the new one', async () => {
    const rotated = await owner.post(`/v1/account/keys/${firstKey.id}/rotate`).set(csrf).send({ overlapSeconds: 2 });
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toMatchObject({ projectId, label: 'ci', scope: 'full', revokedAt: null });
    expect(rotated.body.data.id).not.toBe(firstKey.id);
    expect(rotated.body.data.secret).not.toBe(firstKey.secret);
    rotatedKey = { id: rotated.body.data.id, secret: rotated.body.data.secret };
    const rotatedAt = Date.now();

    const [oldDuring, newDuring] = await Promise.all([
      stack.http.get('/v1/key/me').set(bearer(firstKey.secret)),
      stack.http.get('/v1/key/me').set(bearer(rotatedKey.secret)),
    ]);
    // the overlap has not ended yet when both answers are in (else this step proves nothing)
    expect(Date.now() - rotatedAt).toBeLessThan(2_000);
    expect(oldDuring.status).toBe(200);
    expect(oldDuring.body.data.keyId).toBe(firstKey.id);
    expect(newDuring.status).toBe(200);
    expect(newDuring.body.data).toMatchObject({ keyId: rotatedKey.id, label: 'ci', projectId });

    const oldAfter = await keyMeUntil(stack, firstKey.secret, 401, 5_000);
    expect(oldAfter.status).toBe(401);
    // not before the overlap: the old key kept working for the 2 s it was given
    expect(Date.now() - rotatedAt).toBeGreaterThanOrEqual(1_500);
    const newAfter = await stack.http.get('/v1/key/me').set(bearer(rotatedKey.secret));
    expect(newAfter.status).toBe(200);

    const list = await owner.get(`/v1/account/projects/${projectId}/keys`);
    expect(list.status).toBe(200);
    const byId = Object.fromEntries(list.body.data.map((k: { id: string }) => [k.id, k]));
    expect(Object.keys(byId).sort()).toEqual([firstKey.id, rotatedKey.id].sort());
    expect(byId[firstKey.id].revokedAt).toEqual(expect.any(String));
    const revokedAt = Date.parse(byId[firstKey.id].revokedAt);
    expect(revokedAt).toBeGreaterThanOrEqual(rotatedAt + 1_000);
    expect(revokedAt).toBeLessThanOrEqual(Date.now());
    expect(byId[rotatedKey.id]).toMatchObject({ label: 'ci', revokedAt: null });
    // secrets are never listed
    expect(list.body.data.some((k: object) => 'secret' in k)).toBe(false);
  });

  it('revokes the new key, which stops working at once', async () => {
    const revoked = await owner.delete(`/v1/account/keys/${rotatedKey.id}`).set(csrf);
    expect(revoked.status).toBe(204);
    const me = await stack.http.get('/v1/key/me').set(bearer(rotatedKey.secret));
    expect(me.status).toBe(401);
    const jobs = await stack.http.get(`/v1/key/projects/${projectId}/jobs`).set(bearer(rotatedKey.secret));
    expect(jobs.status).toBe(401);
  });

  it('invites a viewer, who signs up through the mail, can read but not write', async () => {
    const invited = await owner
      .post(`/v1/account/organizations/${orgId}/invitations`)
      .set(csrf)
      .send({ email: viewerEmail, role: 'viewer' });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ email: viewerEmail, role: 'viewer', invitedBy: ownerId });

    const mail = await mailTo(stack.outboxDir, viewerEmail, 'invitation');
    expect(mail.link).toMatch(/^http:\/\/console\.test\/console\/accept-invitation\?token=[^&]+$/);
    const token = new URL(mail.link!).searchParams.get('token')!;
    const accepted = await stack.http.post('/v1/account/invitations/accept').send({ token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toEqual({
      organizationId: orgId,
      organizationName: 'Acme Retail',
      role: 'viewer',
      permissions: ['organization.read', 'keys.mine'],
    });

    const members = await owner.get(`/v1/account/organizations/${orgId}/members`);
    expect(members.body.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [ownerEmail, 'owner'],
      [viewerEmail, 'viewer'],
    ]);

    const viewer = stack.agent();
    const session = await viewer.post('/v1/account/sessions').send({ email: viewerEmail, password: PASSWORD });
    expect(session.status).toBe(201);
    const viewerCsrf = { 'X-CSRF-Token': session.body.data.csrfToken as string };

    const jobs = await viewer.get(`/v1/key/projects/${projectId}/jobs`);
    expect(jobs.status).toBe(200);
    expect(jobs.body.data.map((j: { id: string }) => j.id)).toContain(jobId);
    const job = await viewer.get(`/v1/key/jobs/${jobId}`);
    expect(job.status).toBe(200);
    expect(job.body.data).toMatchObject({ id: jobId, status: 'completed' });

    const write = await viewer
      .post(`/v1/key/projects/${projectId}/jobs`)
      .set(viewerCsrf)
      .send({ type: 'details', targets: ['B0ACCT0003'] });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('FORBIDDEN');
    const noCsrf = await viewer.post(`/v1/key/projects/${projectId}/jobs`).send({ type: 'details', targets: ['B0ACCT0003'] });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('CSRF_REQUIRED');

    const makeKey = await viewer.post(`/v1/account/projects/${projectId}/keys`).set(viewerCsrf).send({ label: 'mine', scope: 'read' });
    expect(makeKey.status).toBe(403);
    expect(makeKey.body.error.code).toBe('FORBIDDEN');
    // a viewer sees only the keys they made (none here)
    const listKeys = await viewer.get(`/v1/account/projects/${projectId}/keys`);
    expect(listKeys.status).toBe(200);
    expect(listKeys.body.data).toEqual([]);

    // the owner's session writes without the header are refused alike
    const ownerNoCsrf = await owner.post(`/v1/account/projects/${projectId}/keys`).send({ label: 'no-csrf', scope: 'full' });
    expect(ownerNoCsrf.status).toBe(403);
    expect(ownerNoCsrf.body.error.code).toBe('CSRF_REQUIRED');

    // nothing was written by the refused requests: still the one job, and the credits it used
    const all = await owner.get(`/v1/key/projects/${projectId}/jobs`);
    expect(all.body.data.map((j: { id: string }) => j.id)).toEqual([jobId]);
    const org = await owner.get(`/v1/account/organizations/${orgId}`);
    expect(org.body.data.creditBalance).toBe(SIGNUP_CREDITS - TARGETS.length * DETAILS_CREDITS_PER_TARGET);
  });

  it('shows every step in the audit log, with who did it and from where', async () => {
    const res = await owner.get(`/v1/account/organizations/${orgId}/audit-log?limit=200`);
    expect(res.status).toBe(200);
    const entries: {
      action: string;
      actor: { userId: string; email: string | null } | null;
      subject: { type: string; id: string } | null;
      clientAddress: string | null;
      createdAt: string;
    }[] = res.body.data;
    const actions = entries.map((e) => e.action);
    for (const action of [
      'signup',
      'session.created',
      'key.created',
      'key.rotated',
      'key.revoked',
      'member.invited',
      'invitation.accepted',
    ]) {
      expect(actions).toContain(action);
    }
    // newest first
    const times = entries.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const entry of entries) {
      expect(entry.actor).not.toBeNull();
      expect(entry.clientAddress).toEqual(expect.stringMatching(/\S/));
    }
    const one = (action: string) => entries.filter((e) => e.action === action);
    expect(one('signup')[0]!.actor).toEqual({ userId: ownerId, email: ownerEmail });
    expect(one('key.created')[0]).toMatchObject({ actor: { userId: ownerId }, subject: { type: 'key', id: firstKey.id } });
    expect(one('key.rotated')[0]).toMatchObject({ actor: { userId: ownerId }, subject: { type: 'key', id: firstKey.id } });
    expect(one('key.revoked').map((e) => e.subject?.id)).toContain(rotatedKey.id);
    expect(one('member.invited')[0]!.actor).toEqual({ userId: ownerId, email: ownerEmail });
    expect(one('invitation.accepted')[0]!.actor).toMatchObject({ email: viewerEmail });
    // both sign-ins into this organization: the owner's and the viewer's
    expect(
      one('session.created')
        .map((e) => e.actor?.email)
        .sort(),
    ).toEqual([ownerEmail, viewerEmail].sort());
  });
});
