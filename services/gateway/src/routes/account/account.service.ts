import { AppError, type MembershipResource } from '@crawl/core';
import { passwordResetMail, signupEmailTakenMail, verificationMail } from '@crawl/mail';
import type { AccountDeps } from '../../auth/account-deps';
import { hashToken, isWellFormedToken, newToken, csrfTokenFor } from '../../auth/secrets';
import type { AccountSession } from '../../auth/sessions';

const HOUR_MS = 3_600_000;
const VERIFICATION_TTL_MS = 24 * HOUR_MS;
const RESET_TTL_MS = HOUR_MS;

export interface RequestContext {
  clientAddress: string | null;
  userAgent: string | null;
}

const invalidToken = (what: string) => new AppError('INVALID_TOKEN', `This ${what} link is invalid, used or expired; ask for a new one.`);

/** A 23505 on `app_user_email_idx`: another sign-up for the same email won the race. */
const isEmailTaken = (err: unknown) => (err as { code?: string; constraint?: string })?.constraint === 'app_user_email_idx';

/**
 * Sign-up, email verification, sign-in and out, and passwords (docs/accounts.md). Answers never
 * tell whether an email has an account: sign-up and reset answer 202 either way and do the same
 * work (a password hash, a mail sent after answering), and sign-in says "wrong email or password"
 * in the same time for both.
 */
export class AccountService {
  constructor(private readonly deps: AccountDeps) {}

  get sessionSettings() {
    return this.deps.sessionSettings;
  }

  async signup(input: { email: string; password: string; organizationName: string }, ctx: RequestContext): Promise<void> {
    const { mode, credits } = this.deps.signup;
    if (mode === 'off') throw new AppError('FORBIDDEN', 'Sign-up is closed on this service.');
    if (mode === 'invite') throw new AppError('FORBIDDEN', "Sign-up is by invitation only: ask an organization's owner to invite you.");
    const mayMail = await this.deps.mailThrottle.allow(ctx.clientAddress ?? 'unknown', input.email);
    const passwordHash = await this.deps.hasher.hash(input.password);
    const existing = await this.deps.users.findByEmail(input.email);
    if (existing?.emailVerifiedAt) {
      if (mayMail) this.deps.mail.send(signupEmailTakenMail(this.deps.mailLinks, { to: existing.email }));
      return;
    }
    const token = newToken();
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        if (existing) {
          // Signing up again before verifying: the new password replaces the old one, and the
          // earlier links stop working, so whoever verifies knows the password in force.
          await this.deps.users.setPassword(existing.id, passwordHash, trx);
          await this.deps.tokens.expireOutstanding(existing.id, 'verify_email', trx);
          await this.deps.tokens.create(
            { purpose: 'verify_email', userId: existing.id, tokenHash: hashToken(token), expiresAt: inFuture(VERIFICATION_TTL_MS) },
            trx,
          );
          return;
        }
        const organizationId = await this.deps.tenancy.createOrganization({ name: input.organizationName, plan: 'starter' }, trx);
        if (credits > 0) await this.deps.credits.grant(organizationId, credits, trx);
        const userId = await this.deps.users.create({ email: input.email, passwordHash, organizationId, verified: false }, trx);
        await this.deps.memberships.add({ organizationId, userId, role: 'owner' }, trx);
        const projectId = await this.deps.tenancy.createProject({ organizationId, name: 'Default' }, trx);
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
      if (mayMail) this.deps.mail.send(signupEmailTakenMail(this.deps.mailLinks, { to: input.email }));
      return;
    }
    if (mayMail) this.deps.mail.send(verificationMail(this.deps.mailLinks, { to: input.email, token }));
  }

  async resendVerification(email: string, ctx: RequestContext): Promise<void> {
    const mayMail = await this.deps.mailThrottle.allow(ctx.clientAddress ?? 'unknown', email);
    const user = await this.deps.users.findByEmail(email);
    if (!user || user.emailVerifiedAt || user.disabledAt || !mayMail) return;
    const token = newToken();
    await this.deps.tokens.create({
      purpose: 'verify_email',
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: inFuture(VERIFICATION_TTL_MS),
    });
    this.deps.mail.send(verificationMail(this.deps.mailLinks, { to: user.email, token }));
  }

  async verifyEmail(token: string): Promise<void> {
    if (!isWellFormedToken(token)) throw invalidToken('verification');
    await this.deps.db.transaction().execute(async (trx) => {
      const userId = await this.deps.tokens.consume('verify_email', hashToken(token), trx);
      if (!userId) throw invalidToken('verification');
      await this.deps.users.markVerified(userId, trx);
    });
  }

  /** A new session: its token (for the cookie), once. */
  async signIn(input: { email: string; password: string }, ctx: RequestContext) {
    const outcome = await this.deps.signIns.attempt({ email: input.email, address: ctx.clientAddress ?? 'unknown' }, async () => {
      const user = await this.deps.users.findByEmail(input.email);
      return (await this.deps.hasher.verify(user?.passwordHash, input.password)) ? user : undefined;
    });
    if (outcome.kind === 'limited') {
      const retryAfterSeconds = outcome.retryAfterSeconds;
      const who = outcome.scope === 'email' ? 'this account' : 'this address';
      throw new AppError('RATE_LIMITED', `Too many failed sign-ins for ${who}; retry after ${retryAfterSeconds} s.`, {
        details: { retryAfterSeconds },
      });
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
    const token = newToken();
    const memberships = await this.deps.memberships.ofUser(user.id);
    await this.deps.db.transaction().execute(async (trx) => {
      const sessionId = await this.deps.sessions.create(
        { userId: user.id, tokenHash: hashToken(token), expiresAt: inFuture(this.deps.sessionSettings.maxAgeMs), ...ctx },
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
    });
    return { token, body: { user: { id: user.id, email: user.email }, csrfToken: csrfTokenFor(token) } };
  }

  async signOut(session: AccountSession): Promise<void> {
    await this.deps.sessions.revoke(session.sessionId);
    await this.deps.directory.changed([`session:${session.sessionId}`]);
  }

  me(session: AccountSession) {
    return {
      user: { id: session.userId, email: session.email },
      memberships: session.memberships satisfies MembershipResource[],
      csrfToken: session.csrfToken,
    };
  }

  async requestPasswordReset(email: string, ctx: RequestContext): Promise<void> {
    const mayMail = await this.deps.mailThrottle.allow(ctx.clientAddress ?? 'unknown', email);
    const user = await this.deps.users.findByEmail(email);
    if (!user || user.disabledAt || !mayMail) return;
    const token = newToken();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.tokens.expireOutstanding(user.id, 'password_reset', trx);
      await this.deps.tokens.create(
        { purpose: 'password_reset', userId: user.id, tokenHash: hashToken(token), expiresAt: inFuture(RESET_TTL_MS) },
        trx,
      );
    });
    this.deps.mail.send(passwordResetMail(this.deps.mailLinks, { to: user.email, token }));
  }

  /** A new password from a mailed link: every session of the user ends; the mailbox is proven, so the email counts as verified. */
  async confirmPasswordReset(input: { token: string; password: string }, ctx: RequestContext): Promise<void> {
    if (!isWellFormedToken(input.token)) throw invalidToken('password reset');
    const passwordHash = await this.deps.hasher.hash(input.password);
    const userId = await this.deps.db.transaction().execute(async (trx) => {
      const id = await this.deps.tokens.consume('password_reset', hashToken(input.token), trx);
      if (!id) throw invalidToken('password reset');
      await this.deps.users.setPassword(id, passwordHash, trx);
      await this.deps.users.markVerified(id, trx);
      await this.deps.sessions.revokeAllOfUser(id, trx);
      await this.recordForEveryOrganization(id, 'password.reset', ctx, trx);
      return id;
    });
    await this.deps.directory.changed([`user:${userId}`]);
  }

  /** A signed-in user's new password: the other sessions end, this one stays. */
  async changePassword(
    session: AccountSession,
    input: { currentPassword: string; newPassword: string },
    ctx: RequestContext,
  ): Promise<void> {
    const user = await this.deps.users.findById(session.userId);
    const outcome = await this.deps.signIns.attempt({ email: session.email, address: ctx.clientAddress ?? 'unknown' }, async () =>
      (await this.deps.hasher.verify(user?.passwordHash, input.currentPassword)) ? true : undefined,
    );
    if (outcome.kind === 'limited') {
      throw new AppError('RATE_LIMITED', `Too many wrong passwords; retry after ${outcome.retryAfterSeconds} s.`, {
        details: { retryAfterSeconds: outcome.retryAfterSeconds },
      });
    }
    if (outcome.kind === 'rejected') {
      throw new AppError('VALIDATION_ERROR', 'The current password is wrong.', {
        details: [{ path: 'body.currentPassword', message: 'is wrong' }],
      });
    }
    const passwordHash = await this.deps.hasher.hash(input.newPassword);
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
    trx: Parameters<AccountDeps['audit']['record']>[1],
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
