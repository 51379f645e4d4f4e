import { readOutbox } from '@crawl/mail';
import { sql } from '@crawl/db';
import { type Harness, startHarness } from '../../test-support/harness';
import { mailTo, PASSWORD, signIn, signUp, tokenOf, uniqueEmail } from '../../test-support/accounts';

/**
 * What a hostile stranger can do to someone else's account before and after it exists
 * (docs/accounts.md, "Threat model"): take it over before verification, lock its owner out,
 * spend its mail, flood sign-ins or sign-ups.
 */

const VICTIM_PASSWORD = 'victim chose this 1';
const ATTACKER_PASSWORD = 'attacker chose this 2';

const signUpAs = (h: Harness, email: string, password: string, organizationName: string) =>
  h.http.post('/v1/account/signup').send({ email, password, organizationName });
const signInAs = (h: Harness, email: string, password: string) => h.http.post('/v1/account/sessions').send({ email, password });

/**
 * The per-minute account limits count in fixed minutes of the clock: a test whose hits must fall
 * in one minute starts with at least half of one left (a CI run crossed the boundary: the hit
 * over the limit started a new minute's count and was let through).
 */
async function withHalfAMinuteLeft(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 30_000) await new Promise((r) => setTimeout(r, left + 50));
}

describe('no takeover before verification', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('victim first: a stranger signing up again changes no password and voids no link; the newest mail never lets the stranger in', async () => {
    const email = uniqueEmail('victim');
    expect((await signUpAs(h, email, VICTIM_PASSWORD, 'Victim Corp')).status).toBe(202);
    const firstLink = (await mailTo(h.outboxDir, email, 'verify-email')).link;
    for (let i = 0; i < 3; i++) expect((await signUpAs(h, email, ATTACKER_PASSWORD, 'Victim Corp')).status).toBe(202);

    // one notice for the three repeats (their own budget), and the victim's own budget untouched
    const notice = await mailTo(h.outboxDir, email, 'signup-pending');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await readOutbox(h.outboxDir, { to: email, kind: 'signup-pending' })).toHaveLength(1);
    expect(notice.text).toContain('nothing was changed');

    // the victim clicks the newest mail: a link to choose a password, which is the victim's to choose
    const reset = await h.http.post('/v1/account/password-reset/confirm').send({ token: tokenOf(notice.link), password: 'victim again 3' });
    expect(reset.status).toBe(204);
    expect((await signInAs(h, email, ATTACKER_PASSWORD)).status).toBe(401);
    expect((await signInAs(h, email, 'victim again 3')).status).toBe(201);
    // and the first link was never voided (it verifies an already verified address, harmlessly)
    expect((await h.http.post('/v1/account/email-verification').send({ token: tokenOf(firstLink) })).status).toBe(200);
    expect((await signInAs(h, email, ATTACKER_PASSWORD)).status).toBe(401);
  });

  it('attacker first: the victim signing up later gets a link that sets the victim’s password, never the attacker’s', async () => {
    const email = uniqueEmail('target');
    await signUpAs(h, email, ATTACKER_PASSWORD, 'Attacker Org');
    await mailTo(h.outboxDir, email, 'verify-email');
    await signUpAs(h, email, VICTIM_PASSWORD, 'Victim Corp');
    const newest = await mailTo(h.outboxDir, email, 'signup-pending');
    expect(
      (await h.http.post('/v1/account/password-reset/confirm').send({ token: tokenOf(newest.link), password: VICTIM_PASSWORD })).status,
    ).toBe(204);
    expect((await signInAs(h, email, ATTACKER_PASSWORD)).status).toBe(401);
    expect((await signInAs(h, email, VICTIM_PASSWORD)).status).toBe(201);
  });

  it('a reset ends every session and mails the keys made lately, with their creator and a link to the keys page', async () => {
    const owner = await signUp(h, { organizationName: 'Keys Inc' });
    const made = await owner.agent
      .post(`/v1/account/projects/${owner.projectId}/keys`)
      .set(owner.csrf)
      .send({ label: 'made while someone knew the password', scope: 'full' });
    expect(made.status).toBe(201);
    await h.http.post('/v1/account/password-reset').send({ email: owner.email });
    const resetMail = await mailTo(h.outboxDir, owner.email, 'password-reset');
    expect(
      (await h.http.post('/v1/account/password-reset/confirm').send({ token: tokenOf(resetMail.link), password: 'brand new secret 4' }))
        .status,
    ).toBe(204);
    expect((await owner.agent.get('/v1/account/me')).status).toBe(401);
    const changed = await mailTo(h.outboxDir, owner.email, 'password-changed');
    expect(changed.text).toContain('made while someone knew the password');
    expect(changed.text).toContain(made.body.data.prefix);
    expect(changed.text).toContain(owner.email);
    expect(changed.text).toContain(`http://console.test/console/projects/${owner.projectId}/keys`);
    expect(changed.html).toContain(`/console/projects/${owner.projectId}/keys`);
  });
});

describe('the work of anonymous routes happens after the answer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  /** Holds a table locked while `run` goes: any write to it, before or after answering, waits. */
  async function whileLocked<T>(table: 'account_token' | 'organization', run: () => Promise<T>): Promise<T> {
    return h.deps.db.connection().execute(async (holder) => {
      await sql`begin`.execute(holder);
      try {
        await sql.raw(`lock table ${table} in exclusive mode`).execute(holder);
        return await run();
      } finally {
        await sql`rollback`.execute(holder);
      }
    });
  }

  it('a password reset for an existing account answers before its token is written (known and unknown emails take the same path)', async () => {
    const user = await signUp(h);
    const answer = await whileLocked('account_token', () =>
      h.http.post('/v1/account/password-reset').send({ email: user.email }).timeout(5_000),
    );
    expect(answer.status).toBe(202);
    await mailTo(h.outboxDir, user.email, 'password-reset');
  });

  it('a sign-up answers before its organization is created', async () => {
    const email = uniqueEmail();
    const answer = await whileLocked('organization', () => signUpAs(h, email, PASSWORD, 'Later Inc').timeout(5_000));
    expect(answer.status).toBe(202);
    await mailTo(h.outboxDir, email, 'verify-email');
  });
});

describe('sign-in limits refuse guesses without refusing the owner', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ accounts: { signInFailuresPerEmail: 3, signInFailuresPerAddress: 5, signInFailuresPerDevice: 2 } });
  });
  afterAll(() => h.close());

  it('wrong guesses lock the email for strangers, while the browser that signed in before still gets in', async () => {
    const owner = await signUp(h);
    for (let i = 0; i < 3; i++) expect((await signInAs(h, owner.email, `wrong guess ${i}xx`)).status).toBe(401);
    const stranger = await signInAs(h, owner.email, PASSWORD);
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
    // owner.agent kept the device cookie of its sign-in
    expect((await owner.agent.post('/v1/account/sessions').send({ email: owner.email, password: PASSWORD })).status).toBe(201);
    // the known browser's own failures are limited too
    await owner.agent.post('/v1/account/sessions').send({ email: owner.email, password: 'wrong from device 1' });
    await owner.agent.post('/v1/account/sessions').send({ email: owner.email, password: 'wrong from device 2' });
    expect((await owner.agent.post('/v1/account/sessions').send({ email: owner.email, password: PASSWORD })).status).toBe(429);
  });

  it('a device cookie made for another email, or forged, is no exemption', async () => {
    const owner = await signUp(h);
    const other = await signUp(h);
    for (let i = 0; i < 3; i++) await signInAs(h, owner.email, `wrong guess ${i}yy`);
    // other.agent carries a cookie issued for other.email
    expect((await other.agent.post('/v1/account/sessions').send({ email: owner.email, password: PASSWORD })).status).toBe(429);
    const forged = `cds_device=${'a'.repeat(22)}.${'b'.repeat(43)}`;
    expect((await h.http.post('/v1/account/sessions').set('Cookie', forged).send({ email: owner.email, password: PASSWORD })).status).toBe(
      429,
    );
  });

  it('an address over its failure limit is refused before any password is hashed', async () => {
    const flooder = '203.0.113.7';
    const trusting = await startHarness({ trustProxy: true, accounts: { signInFailuresPerAddress: 5 } });
    try {
      const flood = (email: string, password: string) =>
        trusting.http.post('/v1/account/sessions').set('X-Forwarded-For', flooder).send({ email, password });
      for (let i = 0; i < 5; i++) expect((await flood(uniqueEmail('fresh'), 'not a password 1')).status).toBe(401);
      const verify = jest.spyOn(trusting.deps.accounts.hasher, 'verify');
      for (let i = 0; i < 20; i++) expect((await flood(uniqueEmail('fresh'), 'not a password 1')).status).toBe(429);
      expect(verify).not.toHaveBeenCalled();
      // another address is not affected
      const fine = await trusting.http
        .post('/v1/account/sessions')
        .set('X-Forwarded-For', '198.51.100.9')
        .send({ email: uniqueEmail(), password: 'x' });
      expect(fine.status).toBe(401);
      expect(verify).toHaveBeenCalledTimes(1);
    } finally {
      await trusting.close();
    }
  });

  it('successful sign-ins per user are limited, and a user keeps a bounded number of sessions (the oldest end)', async () => {
    await withHalfAMinuteLeft();
    const capped = await startHarness({ accounts: { signInsPerUserPerMinute: 4, sessionsPerUser: 2 } });
    try {
      const user = await signUp(capped); // sign-in 1
      const second = await signIn(capped, user.email); // 2
      const third = await signIn(capped, user.email); // 3: the first session ends
      expect((await user.agent.get('/v1/account/me')).status).toBe(401);
      expect((await second.agent.get('/v1/account/me')).status).toBe(200);
      expect((await third.agent.get('/v1/account/me')).status).toBe(200);
      const live = await sql<{
        n: number;
      }>`select count(*)::int as n from user_session where user_id = ${user.userId} and revoked_at is null`.execute(capped.deps.db);
      expect(live.rows[0]!.n).toBe(2);
      expect((await signInAs(capped, user.email, PASSWORD)).status).toBe(201); // 4
      const fifth = await signInAs(capped, user.email, PASSWORD);
      expect(fifth.status).toBe(429);
      expect(fifth.body.error.message).toContain('Too many sign-ins to this account');
    } finally {
      await capped.close();
    }
  }, 90_000);
});

describe('mail budgets', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ accounts: { mailLimits: { perAddressPerHour: 100, perEmailPerHour: 2, noticesPerEmailPerHour: 1 } } });
  });
  afterAll(() => h.close());

  it('strangers asking for resets do not use up the owner’s own: a browser that signed in before still gets its mail', async () => {
    const owner = await signUp(h);
    for (let i = 0; i < 4; i++) expect((await h.http.post('/v1/account/password-reset').send({ email: owner.email })).status).toBe(202);
    // the anonymous budget of 2 held the verification mail and one reset
    await mailTo(h.outboxDir, owner.email, 'password-reset', 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await readOutbox(h.outboxDir, { to: owner.email, kind: 'password-reset' })).toHaveLength(1);
    const anonymousAgain = await h.http.post('/v1/account/password-reset').send({ email: owner.email });
    expect(anonymousAgain.status).toBe(202);
    expect((await owner.agent.post('/v1/account/password-reset').send({ email: owner.email })).status).toBe(202);
    await mailTo(h.outboxDir, owner.email, 'password-reset', 2);
  });
});

describe('passwords', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it.each([
    ['ten letters alike', 'aaaaaaaaaa', 'different characters'],
    ['only spaces', ' '.repeat(12), 'only spaces'],
    ['NUL characters', '\u0000'.repeat(10), 'control characters'],
    ['a tab inside', 'good\tpassword 1', 'control characters'],
    ['a common password', 'password123', 'most common passwords'],
    ['a common password in capitals', 'QWERTYUIOP', 'most common passwords'],
  ])('refuses %s at sign-up, reset and change', async (_name, password, reason) => {
    const signup = await signUpAs(h, uniqueEmail(), password, 'Weak');
    expect(signup.status).toBe(400);
    expect(signup.body.error.details).toEqual([
      expect.objectContaining({ path: 'body.password', message: expect.stringContaining(reason) }),
    ]);
    const reset = await h.http.post('/v1/account/password-reset/confirm').send({ token: 'a'.repeat(43), password });
    expect(reset.status).toBe(400);
    expect(reset.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('accepts a long passphrase', async () => {
    expect((await signUpAs(h, uniqueEmail(), 'four random words here', 'Strong')).status).toBe(202);
  });
});

describe('sign-up floods', () => {
  it('are limited service-wide per minute, whatever the address', async () => {
    await withHalfAMinuteLeft();
    const h = await startHarness({ trustProxy: true, accounts: { signupsPerMinute: 3 } });
    try {
      const from = (i: number) => signUpAs(h, uniqueEmail('flood'), PASSWORD, 'Flood').set('X-Forwarded-For', `198.51.100.${i}`);
      for (let i = 1; i <= 3; i++) expect((await from(i)).status).toBe(202);
      const over = await from(4);
      expect(over.status).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  }, 90_000);

  it('grant sign-up credits only once the email is verified, to a bounded number of organizations a day', async () => {
    const h = await startHarness({ accounts: { signupCreditGrantsPerDay: 1, signupCredits: 100 } });
    try {
      await sql`delete from audit_log where action = 'email.verified'`.execute(h.deps.db);
      const email = uniqueEmail();
      await signUpAs(h, email, PASSWORD, 'Unverified');
      await mailTo(h.outboxDir, email, 'verify-email');
      const unverified = await sql<{
        b: number;
      }>`select o.credit_balance as b from organization o join app_user u on u.organization_id = o.id where lower(u.email) = ${email}`.execute(
        h.deps.db,
      );
      expect(Number(unverified.rows[0]!.b)).toBe(0);
      const first = await signUp(h);
      const second = await signUp(h);
      const balance = async (u: typeof first) =>
        (await u.agent.get(`/v1/account/organizations/${u.organizationId}`)).body.data.creditBalance;
      expect(await balance(first)).toBe(100);
      expect(await balance(second)).toBe(0);
    } finally {
      await h.close();
    }
  });
});
