import { AppError, type MembershipResource, permissionsOf, roleAllows } from '@crawl/core';
import type { AccountUserRow, Transaction, Database } from '@crawl/db';
import {
  passwordChangedMail,
  passwordResetMail,
  type RecentKey,
  signupEmailTakenMail,
  signupPendingMail,
  verificationMail,
} from '@crawl/mail';
import type { AccountDeps } from '../../accounts/account-deps';
import { hashToken, isWellFormedToken, newToken, csrfTokenFor } from '../../access/secrets';
import type { AccountSession } from '../../access/sessions';
import { describeUserAgent } from './user-agent';

const HOUR_MS = 3_600_000;
const VERIFICATION_TTL_MS = 24 * HOUR_MS;
const RESET_TTL_MS = HOUR_MS;
/** How far back the password-changed mail lists the keys made in the user's organizations. */
const RECENT_KEYS_MS = 30 * 24 * HOUR_MS;
const MAX_RECENT_KEYS = 50;

export interface RequestContext {
  clientAddress: string | null;
  userAgent: string | null;
  /** The request's Cookie header: a device cookie there lets a known browser past the strangers' limits. */
  cookieHeader?: string;
}

/** A `Set-Cookie` value marking the browser as one that proved it knows the account (access/device-cookie.ts). */
export interface DeviceProof {
  deviceCookie: string;
}

/**
 * A verification link's outcome. `alreadyVerified`: the address was verified before this request
 * (a link opened twice, or after another link or a reset verified it). Only a link used now
 * proves the browser, so a link opened again sets no device cookie.
 */
export type EmailVerification = { alreadyVerified: false; deviceCookie: string } | { alreadyVerified: true; deviceCookie?: string };

const invalidToken = (what: string) => new AppError('INVALID_TOKEN', `This ${what} link is invalid, used or expired; ask for a new one.`);

/** A 23505 on `app_user_email_idx`: another sign-up for the same email won the race. */
const isEmailTaken = (err: unknown) => (err as { code?: string; constraint?: string })?.constraint === 'app_user_email_idx';

const retryLater = (message: string, retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', `${message}; retry after ${retryAfterSeconds} s.`, { details: { retryAfterSeconds } });

/**
 * Sign-up, email verification, sign-in and out, and passwords (docs/accounts.md). Answers never
 * tell whether an email has an account: sign-up, reset and resend answer 202 at once and do their
 * work after answering (accounts/after-answer.ts), and sign-in says "wrong email or password" in the
 * same time for both. A repeated sign-up changes nothing: the password in force is always the one
 * its mailbox's owner chose.
 */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  get sessionSettings() {
    return this.deps.sessionSettings;
  }

  async signup(input: { email: string; password: string; organizationName: string }, ctx: RequestContext): Promise<void> {
    const { mode } = this.deps.signup;
    if (mode === 'off') throw new AppError('FORBIDDEN', 'Sign-up is closed on this service.');
    if (mode === 'invite') throw new AppError('FORBIDDEN', "Sign-up is by invitation only: ask an organization's owner to invite you.");
    await this.deps.mailThrottle.admitAddress(ctx.clientAddress ?? 'unknown');
    const everyone = await this.deps.limits.signups.hit('service');
    if (everyone.over) throw retryLater('Too many sign-ups on this service right now', everyone.retryAfterSeconds);
    // checked before answering: once answered, the sign-up's hash waits as long as it takes
    if (!this.deps.hasher.hasRoom()) throw new AppError('UNAVAILABLE', 'Too many sign-ups are being processed; retry in a second.');
    this.deps.afterAnswer.run('sign-up', () => this.completeSignup(input, ctx));
  }

  private async completeSignup(input: { email: string; password: string; organizationName: string }, ctx: RequestContext): Promise<void> {
    const passwordHash = await this.deps.hasher.hash(input.password, 'background');
    const existing = await this.deps.users.findByEmail(input.email);
    if (existing) return this.signupAgain(existing);
    const token = newToken();
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        // no credits yet: they come with the verified email (activate)
        const organizationId = await this.deps.organizations.create({ name: input.organizationName, plan: 'starter' }, trx);
        const userId = await this.deps.users.create({ email: input.email, passwordHash, organizationId, verified: false }, trx);
        await this.deps.memberships.add({ organizationId, userId, role: 'owner' }, trx);
        const projectId = await this.deps.projects.create({ organizationId, name: 'Default' }, trx);
        await this.deps.tokens.create(
          { purpose: 'verify_email', userId, tokenHash: hashToken(token), expiresAt: inFuture(VERIFICATION_TTL_MS) },
          trx,
        );
        await this.deps.audit.record(
          {
            organizationId,
            actorUserId: userId,
            action: 'signup',
            subject: { type: 'project', id: projectId },
            clientAddress: ctx.clientAddress,
          },
          trx,
        );
      });
    } catch (err) {
      if (!isEmailTaken(err)) throw err;
      const winner = await this.deps.users.findByEmail(input.email);
      return winner ? this.signupAgain(winner) : undefined;
    }
    if (await this.deps.mailThrottle.mayMail(input.email, 'anonymous')) {
      this.deps.mail.send(verificationMail(this.deps.mailLinks, { to: input.email, token }));
    }
  }

  /**
   * Someone signed up with an address that has an account. Nothing changes (no password, no
   * link is replaced); the address gets a notice, on a budget of its own so repeated sign-ups
   * cannot spend the owner's mail: a verified account is told so, an unverified one gets a link
   * to choose a password, which only the mailbox's owner can use.
   */
  private async signupAgain(user: AccountUserRow): Promise<void> {
    if (user.disabledAt || !(await this.deps.mailThrottle.mayMail(user.email, 'notice'))) return;
    if (user.emailVerifiedAt) {
      this.deps.mail.send(signupEmailTakenMail(this.deps.mailLinks, { to: user.email }));
      return;
    }
    const token = newToken();
    await this.deps.tokens.create({
      purpose: 'password_reset',
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: inFuture(RESET_TTL_MS),
    });
    this.deps.mail.send(signupPendingMail(this.deps.mailLinks, { to: user.email, token }));
  }

  async resendVerification(email: string, ctx: RequestContext): Promise<void> {
    await this.deps.mailThrottle.admitAddress(ctx.clientAddress ?? 'unknown');
    const lane = this.deps.devices.trusted(ctx.cookieHeader, email) ? 'trusted' : 'anonymous';
    this.deps.afterAnswer.run('verification mail', async () => {
      const user = await this.deps.users.findByEmail(email);
      if (!user || user.emailVerifiedAt || user.disabledAt || !(await this.deps.mailThrottle.mayMail(email, lane))) return;
      const token = newToken();
      await this.deps.tokens.create({
        purpose: 'verify_email',
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: inFuture(VERIFICATION_TTL_MS),
      });
      this.deps.mail.send(verificationMail(this.deps.mailLinks, { to: user.email, token }));
    });
  }

  /**
   * Verifies the address; the first verification activates the account (its sign-up credits).
   * A used link answers "already verified" only when it was really issued for an address that is
   * verified now: anything else (unknown, expired unused, an address still unverified) stays
   * INVALID_TOKEN, so the answer tells nothing to whoever does not hold a real link.
   */
  async verifyEmail(token: string, ctx: RequestContext): Promise<EmailVerification> {
    if (!isWellFormedToken(token)) throw invalidToken('verification');
    const tokenHash = hashToken(token);
    const consumed = await this.deps.db.transaction().execute(async (trx) => {
      const userId = await this.deps.tokens.consume('verify_email', tokenHash, trx);
      if (!userId) return undefined;
      const verifiedNow = await this.deps.users.markVerified(userId, trx);
      if (verifiedNow) await this.activate(userId, ctx, trx);
      return { email: (await this.deps.users.findById(userId, trx))!.email, verifiedNow };
    });
    if (consumed) {
      const deviceCookie = this.deps.devices.issue(consumed.email);
      return consumed.verifiedNow ? { alreadyVerified: false, deviceCookie } : { alreadyVerified: true, deviceCookie };
    }
    const usedBy = await this.deps.tokens.findUsed('verify_email', tokenHash);
    const user = usedBy ? await this.deps.users.findById(usedBy) : undefined;
    if (user?.emailVerifiedAt) return { alreadyVerified: true };
    throw invalidToken('verification');
  }

  /**
   * A first verified email: the organization its user made by signing up gets the sign-up
   * credits, unless the day's grants are used up (a flood of sign-ups, each with a mailbox, then
   * costs no credits; an operator grants them by hand). Recorded as `email.verified`.
   */
  private async activate(userId: string, ctx: RequestContext, trx: Transaction<Database>): Promise<void> {
    const user = await this.deps.users.findAny(userId);
    const organizationId = user?.organization_id;
    if (!organizationId) return;
    const { credits, creditGrantsPerDay } = this.deps.signup;
    let granted = 0;
    if (credits > 0 && (await this.deps.audit.signedUp(organizationId, userId, trx))) {
      if ((await this.deps.audit.lockAndCountSignupGrantsToday(trx)) < creditGrantsPerDay) {
        await this.deps.credits.grant(organizationId, credits, trx);
        granted = credits;
      }
    }
    await this.deps.audit.record(
      {
        organizationId,
        actorUserId: userId,
        action: 'email.verified',
        subject: { type: 'user', id: userId },
        details: { signupCredits: granted },
        clientAddress: ctx.clientAddress,
      },
      trx,
    );
  }

  /** A new session: its token (for the cookie) and the device cookie, once. */
  async signIn(input: { email: string; password: string }, ctx: RequestContext) {
    const device = this.deps.devices.trusted(ctx.cookieHeader, input.email);
    // A browser that signed in before is judged by its own failures only; any other request by
    // the email's and the address's, both refused before the hash once over their limit.
    const subjects = device ? { device } : { email: input.email, address: ctx.clientAddress ?? 'unknown' };
    const outcome = await this.deps.signIns.attempt(subjects, async () => {
      const user = await this.deps.users.findByEmail(input.email);
      return (await this.deps.hasher.verify(user?.passwordHash, input.password, device ? 'trusted' : 'anonymous')) ? user : undefined;
    });
    if (outcome.kind === 'limited') {
      const who = { email: 'this account', address: 'this address', device: 'this browser' }[outcome.scope];
      throw retryLater(`Too many failed sign-ins for ${who}`, outcome.retryAfterSeconds);
    }
    if (outcome.kind === 'rejected') throw new AppError('INVALID_CREDENTIALS', 'Wrong email or password.');
    const user = outcome.value;
    if (user.disabledAt) throw new AppError('FORBIDDEN', 'This account is disabled; contact support.');
    if (!user.emailVerifiedAt) {
      throw new AppError(
        'EMAIL_NOT_VERIFIED',
        'Verify your email first with the link we sent (POST /v1/account/email-verification/resend sends a new one).',
      );
    }
    const recent = await this.deps.limits.signInsPerUser.hit(user.id);
    if (recent.over) throw retryLater('Too many sign-ins to this account in a short time', recent.retryAfterSeconds);
    const token = newToken();
    const memberships = await this.deps.memberships.ofUser(user.id);
    const ended = await this.deps.db.transaction().execute(async (trx) => {
      const sessionId = await this.deps.sessions.create(
        {
          userId: user.id,
          tokenHash: hashToken(token),
          expiresAt: inFuture(this.deps.sessionSettings.maxAgeMs),
          clientAddress: ctx.clientAddress,
          userAgent: ctx.userAgent,
        },
        trx,
      );
      await this.deps.audit.record(
        memberships.map((m) => ({
          organizationId: m.organizationId,
          actorUserId: user.id,
          action: 'session.created' as const,
          subject: { type: 'session', id: sessionId },
          clientAddress: ctx.clientAddress,
        })),
        trx,
      );
      // the newest sessions stay; the oldest beyond the cap end (sign-ins cannot pile up rows)
      return this.deps.sessions.revokeOldestBeyond(user.id, this.deps.limits.sessionsPerUser, trx);
    });
    await this.deps.directory.changed(ended.map((id) => `session:${id}`));
    return {
      token,
      deviceCookie: this.deps.devices.issue(user.email),
      body: { user: { id: user.id, email: user.email }, csrfToken: csrfTokenFor(token) },
    };
  }

  async signOut(session: AccountSession): Promise<void> {
    await this.deps.sessions.revoke(session.sessionId);
    await this.deps.directory.changed([`session:${session.sessionId}`]);
  }

  /** The user's live sessions (idle ones left out), the current one marked. */
  async listSessions(session: AccountSession) {
    const now = Date.now();
    const rows = await this.deps.sessions.listLiveOfUser(session.userId);
    return rows
      .map((r) => ({ ...r, lastSeen: Math.max(r.lastSeenAt.getTime(), this.deps.directory.sessionUse.lastRecorded(r.id) ?? 0) }))
      .filter((r) => now - r.lastSeen <= this.deps.sessionSettings.idleTimeoutMs)
      .map((r) => ({
        id: r.id,
        createdAt: r.createdAt.toISOString(),
        lastSeenAt: new Date(r.lastSeen).toISOString(),
        expiresAt: r.expiresAt.toISOString(),
        device: describeUserAgent(r.userAgent),
        current: r.id === session.sessionId,
      }));
  }

  /** Ends one of the user's own sessions; another user's id (or an ended one) is a 404 like an unknown one. */
  async endSession(session: AccountSession, sessionId: string): Promise<void> {
    if (!(await this.deps.sessions.revokeOfUser(session.userId, sessionId))) {
      throw new AppError('NOT_FOUND', `Session ${sessionId} not found.`);
    }
    await this.deps.directory.changed([`session:${sessionId}`]);
  }

  /** Sign out everywhere: every session of the user ends, this one included. */
  async endAllSessions(session: AccountSession): Promise<void> {
    await this.deps.sessions.revokeAllOfUser(session.userId);
    await this.deps.directory.changed([`user:${session.userId}`]);
  }

  me(session: AccountSession) {
    return {
      user: { id: session.userId, email: session.email },
      memberships: session.memberships.map((m) => ({ ...m, permissions: permissionsOf(m.role) })) satisfies MembershipResource[],
      csrfToken: session.csrfToken,
    };
  }

  /**
   * Mails a reset link, after answering. Earlier links stay valid (a stranger's request must not
   * void the owner's); the first one used ends the others. A browser that proved it knows the
   * account mails on a budget strangers cannot spend.
   */
  async requestPasswordReset(email: string, ctx: RequestContext): Promise<void> {
    await this.deps.mailThrottle.admitAddress(ctx.clientAddress ?? 'unknown');
    const lane = this.deps.devices.trusted(ctx.cookieHeader, email) ? 'trusted' : 'anonymous';
    this.deps.afterAnswer.run('password reset mail', async () => {
      const user = await this.deps.users.findByEmail(email);
      if (!user || user.disabledAt || !(await this.deps.mailThrottle.mayMail(email, lane))) return;
      const token = newToken();
      await this.deps.tokens.create({
        purpose: 'password_reset',
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: inFuture(RESET_TTL_MS),
      });
      this.deps.mail.send(passwordResetMail(this.deps.mailLinks, { to: user.email, token }));
    });
  }

  /**
   * A new password from a mailed link: every session of the user ends, every other reset link
   * stops working, and the mailbox is proven, so the email counts as verified. A mail confirms
   * it and lists the keys made in the user's organizations lately: a key made by whoever knew the
   * old password keeps working, and its owner must be able to see it.
   */
  async confirmPasswordReset(input: { token: string; password: string }, ctx: RequestContext): Promise<DeviceProof> {
    if (!isWellFormedToken(input.token)) throw invalidToken('password reset');
    const passwordHash = await this.deps.hasher.hash(input.password);
    const userId = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.deps.tokens.consume('password_reset', hashToken(input.token), trx);
      if (!id) throw invalidToken('password reset');
      await this.deps.users.setPassword(id, passwordHash, trx);
      if (await this.deps.users.markVerified(id, trx)) await this.activate(id, ctx, trx);
      await this.deps.sessions.revokeAllOfUser(id, trx);
      await this.deps.tokens.expireOutstanding(id, 'password_reset', trx);
      await this.recordForEveryOrganization(id, 'password.reset', ctx, trx);
      return id;
    });
    await this.deps.directory.changed([`user:${userId}`]);
    const user = (await this.deps.users.findById(userId))!;
    const changedAt = new Date();
    this.deps.afterAnswer.run('password changed mail', async () => {
      this.deps.mail.send(passwordChangedMail(this.deps.mailLinks, { to: user.email, changedAt, keys: await this.recentKeys(userId) }));
    });
    return { deviceCookie: this.deps.devices.issue(user.email) };
  }

  /** Live keys made in the last 30 days that the user may see: every key where they are owner or admin, their own elsewhere. */
  private async recentKeys(userId: string): Promise<RecentKey[]> {
    const since = Date.now() - RECENT_KEYS_MS;
    const now = new Date();
    const keys: RecentKey[] = [];
    for (const membership of await this.deps.memberships.ofUser(userId)) {
      const all = roleAllows(membership.role, 'keys.all');
      for (const project of await this.deps.projects.list(membership.organizationId)) {
        for (const key of await this.deps.keys.list(project.id, all ? undefined : userId)) {
          if (key.createdAt.getTime() < since || (key.revokedAt && key.revokedAt <= now)) continue;
          keys.push({
            label: key.label,
            prefix: key.prefix,
            createdBy: key.createdByEmail,
            projectName: project.name,
            projectId: project.id,
            createdAt: key.createdAt,
          });
        }
      }
    }
    return keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, MAX_RECENT_KEYS);
  }

  /** A signed-in user's new password: the other sessions end, this one stays. */
  async changePassword(
    session: AccountSession,
    input: { currentPassword: string; newPassword: string },
    ctx: RequestContext,
  ): Promise<void> {
    const user = await this.deps.users.findById(session.userId);
    // a session that guesses the current password is limited like a sign-in to the account
    const outcome = await this.deps.signIns.attempt({ email: session.email }, async () =>
      (await this.deps.hasher.verify(user?.passwordHash, input.currentPassword, 'trusted')) ? true : undefined,
    );
    if (outcome.kind === 'limited') throw retryLater('Too many wrong passwords', outcome.retryAfterSeconds);
    if (outcome.kind === 'rejected') {
      throw new AppError('VALIDATION_ERROR', 'The current password is wrong.', {
        details: [{ path: 'body.currentPassword', message: 'is wrong' }],
      });
    }
    const passwordHash = await this.deps.hasher.hash(input.newPassword, 'trusted');
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.users.setPassword(session.userId, passwordHash, trx);
      await this.deps.sessions.revokeAllOfUser(session.userId, trx, session.sessionId);
      await this.deps.tokens.expireOutstanding(session.userId, 'password_reset', trx);
      await this.recordForEveryOrganization(session.userId, 'password.changed', ctx, trx);
    });
    await this.deps.directory.changed([`user:${session.userId}`]);
  }

  private async recordForEveryOrganization(
    userId: string,
    action: 'password.reset' | 'password.changed',
    ctx: RequestContext,
    trx: Transaction<Database>,
  ): Promise<void> {
    const memberships = await this.deps.memberships.ofUser(userId);
    await this.deps.audit.record(
      memberships.map((m) => ({
        organizationId: m.organizationId,
        actorUserId: userId,
        action,
        subject: { type: 'user', id: userId },
        clientAddress: ctx.clientAddress,
      })),
      trx,
    );
  }
}

function inFuture(ms: number): Date {
  return new Date(Date.now() + ms);
}
