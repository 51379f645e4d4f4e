import { readOutbox } from '@crawl/mail';
import { sql } from '@crawl/db';
import { type Harness, startHarness } from '../../test-support/harness';
import { mailTo, PASSWORD, signIn, signUp, tokenOf, uniqueEmail } from '../../test-support/accounts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: { signInFailuresPerEmail: 3 } });
});
afterAll(() => h.close());

const cookieOf = (res: { headers: Record<string, unknown> }) => String((res.headers['set-cookie'] as string[] | undefined)?.[0] ?? '');

describe('sign-up', () => {
  it('creates the organization with its credits and Default project, and mails a verification link', async () => {
    const email = uniqueEmail('ada');
    const res = await h.http
      .post('/v1/account/signup')
      .send({ email: email.toUpperCase(), password: PASSWORD, organizationName: 'Ada Labs' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { status: 'verification_sent' } });
    const mail = await mailTo(h.outboxDir, email, 'verify-email');
    expect(mail.link).toMatch(/^http:\/\/console\.test\/console\/verify-email\?token=[\w-]{43}$/);
    expect(mail.text).toContain(mail.link);

    // not verified yet: the right password is told so, not signed in
    const early = await h.http.post('/v1/account/sessions').send({ email, password: PASSWORD });
    expect(early.status).toBe(403);
    expect(early.body.error.code).toBe('EMAIL_NOT_VERIFIED');

    const verified = await h.http.post('/v1/account/email-verification').send({ token: tokenOf(mail.link) });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ data: { verified: true, alreadyVerified: false } });
    expect(cookieOf(verified)).toMatch(/\S/);
    // the link opened again: its address is verified, so it says so (and proves no browser)
    const reused = await h.http.post('/v1/account/email-verification').send({ token: tokenOf(mail.link) });
    expect(reused.status).toBe(200);
    expect(reused.body).toEqual({ data: { verified: true, alreadyVerified: true } });
    expect(reused.headers['set-cookie']).toBeUndefined();

    const user = await signIn(h, email);
    const org = await user.agent.get(`/v1/account/organizations/${user.organizationId}`);
    expect(org.body.data).toMatchObject({ name: 'Ada Labs', plan: 'starter', creditBalance: 100, role: 'owner' });
    const projects = await user.agent.get(`/v1/account/organizations/${user.organizationId}/projects`);
    expect(projects.body.data).toEqual([expect.objectContaining({ name: 'Default', archivedAt: null })]);
  });

  it('answers a taken email exactly like a new one, and mails its owner instead of creating anything', async () => {
    const owner = await signUp(h);
    const before = await h.deps.db
      .selectFrom('organization')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await h.http
      .post('/v1/account/signup')
      .send({ email: owner.email, password: 'another password', organizationName: 'Squatter' });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { status: 'verification_sent' } });
    await mailTo(h.outboxDir, owner.email, 'signup-email-taken');
    const after = await h.deps.db
      .selectFrom('organization')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // the owner's password still works, the squatter's does not
    expect((await h.http.post('/v1/account/sessions').send({ email: owner.email, password: PASSWORD })).status).toBe(201);
    expect((await h.http.post('/v1/account/sessions').send({ email: owner.email, password: 'another password' })).status).toBe(401);
  });

  it('signing up again before verifying changes nothing: the first link and password stay, the owner gets a notice', async () => {
    const email = uniqueEmail();
    await h.http.post('/v1/account/signup').send({ email, password: 'first password 1', organizationName: 'One' });
    const first = await mailTo(h.outboxDir, email, 'verify-email');
    await h.http.post('/v1/account/signup').send({ email, password: 'second password 2', organizationName: 'Two' });
    await mailTo(h.outboxDir, email, 'signup-pending');
    expect(await readOutbox(h.outboxDir, { to: email, kind: 'verify-email' })).toHaveLength(1);
    expect((await h.http.post('/v1/account/email-verification').send({ token: tokenOf(first.link) })).status).toBe(200);
    expect((await h.http.post('/v1/account/sessions').send({ email, password: 'second password 2' })).status).toBe(401);
    expect((await h.http.post('/v1/account/sessions').send({ email, password: 'first password 1' })).status).toBe(201);
  });

  it('refuses bad bodies with every problem listed', async () => {
    const res = await h.http.post('/v1/account/signup').send({ email: 'not-an-email', password: 'short', organizationName: '', extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['body.email', 'body.password', 'body.organizationName']));
    expect((await h.http.post('/v1/account/signup').set('Content-Type', 'application/json').send('{"email":')).status).toBe(400);
    const huge = await h.http
      .post('/v1/account/signup')
      .send({ email: uniqueEmail(), password: PASSWORD, organizationName: 'x'.repeat(40_000) });
    expect(huge.status).toBe(413);
    const control = await h.http
      .post('/v1/account/signup')
      .send({ email: uniqueEmail(), password: PASSWORD, organizationName: 'Evil\nCorp' });
    expect(control.status).toBe(400);
  });

  it('a bad, unknown or expired verification token is INVALID_TOKEN', async () => {
    for (const token of ['nope', 'a'.repeat(43)]) {
      const res = await h.http.post('/v1/account/email-verification').send({ token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_TOKEN');
    }
    const email = uniqueEmail();
    await h.http.post('/v1/account/signup').send({ email, password: PASSWORD, organizationName: 'Late' });
    const mail = await mailTo(h.outboxDir, email, 'verify-email');
    await sql`update account_token set expires_at = now() - interval '1 second' where purpose = 'verify_email'`.execute(h.deps.db);
    expect((await h.http.post('/v1/account/email-verification').send({ token: tokenOf(mail.link) })).body.error.code).toBe('INVALID_TOKEN');
  });

  it('a used link says "already verified" only while its own address is verified', async () => {
    const email = uniqueEmail();
    await h.http.post('/v1/account/signup').send({ email, password: PASSWORD, organizationName: 'Twice' });
    const token = tokenOf((await mailTo(h.outboxDir, email, 'verify-email')).link);
    expect((await h.http.post('/v1/account/email-verification').send({ token })).body.data.alreadyVerified).toBe(false);
    // the same link once its address is not verified (as if an operator undid it): nothing to tell
    await sql`update app_user set email_verified_at = null where lower(email) = ${email}`.execute(h.deps.db);
    const unverified = await h.http.post('/v1/account/email-verification').send({ token });
    expect(unverified.status).toBe(400);
    expect(unverified.body.error.code).toBe('INVALID_TOKEN');
  });
});

describe('sessions', () => {
  it('sets an HttpOnly SameSite=Lax cookie, answers the CSRF token, and signs out server-side', async () => {
    const user = await signUp(h);
    const agent = h.agent();
    const res = await agent.post('/v1/account/sessions').send({ email: user.email, password: PASSWORD });
    expect(res.status).toBe(201);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^cds_session=[\w-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(res.body.data).toEqual({ user: { id: user.userId, email: user.email }, csrfToken: expect.any(String) });

    const me = await agent.get('/v1/account/me');
    expect(me.body.data).toEqual({
      user: { id: user.userId, email: user.email },
      memberships: [
        {
          organizationId: user.organizationId,
          organizationName: 'Acme',
          role: 'owner',
          permissions: [
            'organization.read',
            'projects.manage',
            'members.manage',
            'owners.manage',
            'keys.mine',
            'keys.own',
            'keys.all',
            'data.write',
            'audit.read',
          ],
        },
      ],
      csrfToken: res.body.data.csrfToken,
    });
    // the stored session is a hash, never the cookie's token
    const token = /cds_session=([\w-]+)/.exec(cookie)![1]!;
    const stored = await h.deps.db.selectFrom('user_session').select('token_hash').where('user_id', '=', user.userId).execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(token);

    expect((await agent.delete('/v1/account/sessions/current')).body.error.code).toBe('CSRF_REQUIRED');
    const out = await agent.delete('/v1/account/sessions/current').set('X-CSRF-Token', res.body.data.csrfToken);
    expect(out.status).toBe(204);
    expect(cookieOf(out)).toMatch(/^cds_session=; Max-Age=0/);
    // the old cookie no longer works, even replayed by hand
    const replayed = await h.http.get('/v1/account/me').set('Cookie', `cds_session=${token}`);
    expect(replayed.status).toBe(401);
  });

  it('a wrong password and an unknown email answer alike, and repeated failures per email get 429 with Retry-After', async () => {
    const user = await signUp(h);
    const wrong = await h.http.post('/v1/account/sessions').send({ email: user.email, password: 'wrong password!' });
    const unknown = await h.http.post('/v1/account/sessions').send({ email: uniqueEmail('nobody'), password: 'wrong password!' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    expect({ ...wrong.body.error, requestId: 0 }).toEqual({ ...unknown.body.error, requestId: 0 });
    // the limit in this harness is 3 failures per email: the 4th failure is limited, and so is the right password then
    await h.http.post('/v1/account/sessions').send({ email: user.email, password: 'wrong password!' });
    await h.http.post('/v1/account/sessions').send({ email: user.email, password: 'wrong password!' });
    const limited = await h.http.post('/v1/account/sessions').send({ email: user.email, password: 'wrong password!' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await h.http.post('/v1/account/sessions').send({ email: user.email, password: PASSWORD })).status).toBe(429);
  });

  it('refuses a request made by another site, before anything else', async () => {
    const user = await signUp(h);
    const res = await user.agent.get('/v1/account/me').set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CSRF_REQUIRED');
    const signInFromElsewhere = await h.http
      .post('/v1/account/sessions')
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ email: user.email, password: PASSWORD });
    expect(signInFromElsewhere.status).toBe(403);
    expect((await user.agent.get('/v1/account/me').set('Sec-Fetch-Site', 'same-origin')).status).toBe(200);
  });

  it('a session unused past the idle timeout, or past its absolute expiry, has ended', async () => {
    const idle = await startHarness({ accounts: { sessionIdleMinutes: 0.02 } });
    try {
      const user = await signUp(idle);
      expect((await user.agent.get('/v1/account/me')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await user.agent.get('/v1/account/me')).status).toBe(401);
    } finally {
      await idle.close();
    }
    const user = await signUp(h);
    const again = await signIn(h, user.email);
    await sql`update user_session set expires_at = now() - interval '1 second' where user_id = ${user.userId}`.execute(h.deps.db);
    expect((await again.agent.get('/v1/account/me')).status).toBe(401);
  });

  it('without a session the signed-in routes answer 401', async () => {
    expect((await h.http.get('/v1/account/me')).status).toBe(401);
    expect((await h.http.get('/v1/account/me').set('Cookie', 'cds_session=garbage')).status).toBe(401);
  });
});

describe('passwords', () => {
  it('a reset link works once, within the hour, and ends every session', async () => {
    const user = await signUp(h);
    const res = await h.http.post('/v1/account/password-reset').send({ email: user.email });
    expect(res.status).toBe(202);
    const unknown = await h.http.post('/v1/account/password-reset').send({ email: uniqueEmail('ghost') });
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(res.body);
    const mail = await mailTo(h.outboxDir, user.email, 'password-reset');
    expect(mail.link).toMatch(/^http:\/\/console\.test\/console\/reset-password\?token=/);

    const short = await h.http.post('/v1/account/password-reset/confirm').send({ token: tokenOf(mail.link), password: 'short' });
    expect(short.status).toBe(400);
    const done = await h.http
      .post('/v1/account/password-reset/confirm')
      .send({ token: tokenOf(mail.link), password: 'a brand new password' });
    expect(done.status).toBe(204);
    expect((await user.agent.get('/v1/account/me')).status).toBe(401);
    const reused = await h.http
      .post('/v1/account/password-reset/confirm')
      .send({ token: tokenOf(mail.link), password: 'yet another password' });
    expect(reused.body.error.code).toBe('INVALID_TOKEN');
    expect((await h.http.post('/v1/account/sessions').send({ email: user.email, password: 'a brand new password' })).status).toBe(201);

    await h.http.post('/v1/account/password-reset').send({ email: user.email });
    const late = await mailTo(h.outboxDir, user.email, 'password-reset', 2);
    await sql`update account_token set expires_at = now() - interval '1 second' where purpose = 'password_reset'`.execute(h.deps.db);
    const expired = await h.http
      .post('/v1/account/password-reset/confirm')
      .send({ token: tokenOf(late.link), password: 'too late password' });
    expect(expired.body.error.code).toBe('INVALID_TOKEN');
  });

  it('changing the password needs the current one, keeps this session and ends the others', async () => {
    const user = await signUp(h);
    const other = await signIn(h, user.email);
    const wrong = await user.agent
      .post('/v1/account/password')
      .set(user.csrf)
      .send({ currentPassword: 'nope nope nope', newPassword: 'new password 123' });
    expect(wrong.status).toBe(400);
    const noCsrf = await user.agent.post('/v1/account/password').send({ currentPassword: PASSWORD, newPassword: 'new password 123' });
    expect(noCsrf.body.error.code).toBe('CSRF_REQUIRED');
    const ok = await user.agent
      .post('/v1/account/password')
      .set(user.csrf)
      .send({ currentPassword: PASSWORD, newPassword: 'new password 123' });
    expect(ok.status).toBe(204);
    expect((await user.agent.get('/v1/account/me')).status).toBe(200);
    expect((await other.agent.get('/v1/account/me')).status).toBe(401);
  });

  it('mail-sending requests are limited per recipient silently', async () => {
    const user = await signUp(h);
    for (let i = 0; i < 7; i++) expect((await h.http.post('/v1/account/password-reset').send({ email: user.email })).status).toBe(202);
    // at most five mails an hour to one address: the verification mail and four resets
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await readOutbox(h.outboxDir, { to: user.email })).length).toBe(5);
  });
});

describe('sign-up modes', () => {
  it('invite and off refuse sign-up with 403', async () => {
    for (const signupMode of ['invite', 'off'] as const) {
      const closed = await startHarness({ accounts: { signupMode } });
      try {
        const res = await closed.http.post('/v1/account/signup').send({ email: uniqueEmail(), password: PASSWORD, organizationName: 'X' });
        expect(res.status).toBe(403);
        expect(res.body.error.message).toMatch(signupMode === 'off' ? /closed/ : /invitation/);
      } finally {
        await closed.close();
      }
    }
  });
});
