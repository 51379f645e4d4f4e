import { meSchema as Me, sessionSchema as Session } from '@crawl/core';
import type { Request } from 'express';
import { z } from 'zod';
import { clientAddress, sessionOf } from '../../access/account-guards';
import { clearedSessionCookie, CSRF_HEADER, sessionCookie } from '../../access/sessions';
import { data } from '../operation';
import { type Resource, routesOf } from '../route';
import { AccountService, type RequestContext } from './account.service';
import { parseOrThrow } from '../../validation';
import { emptyBody } from '../schedules/schedules.schemas';
import {
  AccountSessionItem,
  ChangePasswordBody,
  EmailBody,
  ResetPasswordBody,
  SignInBody,
  SignupBody,
  VerifyEmailBody,
  VerifyEmailResult,
} from './account.schemas';

const route = routesOf<AccountService>();

export const context = (req: Request): RequestContext => ({
  clientAddress: clientAddress(req),
  userAgent: req.headers['user-agent'] ?? null,
  cookieHeader: req.headers.cookie,
});

const Accepted = (status: string) => data(z.object({ status: z.literal(status) }).strict());

const SET_COOKIE = {
  'Set-Cookie': {
    description:
      '`cds_session=...; HttpOnly; SameSite=Lax; Path=/` (and `Secure` unless the service runs on http), and `cds_device=...; Path=/v1/account`, which lets this browser past the limits strangers trip for the account (docs/accounts.md)',
    required: true,
    schema: { type: 'string' as const },
  },
};

/** Sign-up, verification, sessions and passwords (docs/accounts.md). */
export const accountRoutes = [
  route({
    method: 'post',
    path: '/v1/account/signup',
    operationId: 'signUp',
    access: 'anonymous',
    tag: 'Account',
    summary: 'Sign up',
    description:
      'Creates a user, its organization (starter plan; the sign-up credits come when the email is verified) and a first project named `Default`, and mails a verification link. Answers 202 at once whether or not the email already has an account; an existing account is never changed (its address gets a notice instead). Sign-ups are limited per client address and across the service (429), and shed with 503 while too many passwords are being hashed.',
    body: SignupBody,
    status: 202,
    response: Accepted('verification_sent'),
    errors: [403],
    handler: async ({ req, service, body }) => {
      await service.signup(body(), context(req));
      return { status: 202, body: { data: { status: 'verification_sent' } } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/email-verification',
    operationId: 'verifyEmail',
    access: 'anonymous',
    tag: 'Account',
    summary: 'Verify an email',
    description:
      'Uses the token of a verification mail (valid 24 hours, once). A link opened again, once its address is verified, answers 200 with `alreadyVerified: true`; a bad or expired token, or a used one whose address is not verified, is `400 INVALID_TOKEN`.',
    body: VerifyEmailBody,
    status: 200,
    response: data(VerifyEmailResult),
    errors: [],
    handler: async ({ req, service, body }) => {
      const { deviceCookie, alreadyVerified } = await service.verifyEmail(body().token, context(req));
      const answer = { data: { verified: true as const, alreadyVerified } };
      return deviceCookie ? { status: 200, headers: { 'Set-Cookie': deviceCookie }, body: answer } : { status: 200, body: answer };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/email-verification/resend',
    operationId: 'resendVerificationEmail',
    access: 'anonymous',
    tag: 'Account',
    summary: 'Send a new verification mail',
    description: 'Mails a new verification link if the email has an account that is not verified yet; answers 202 either way.',
    body: EmailBody,
    status: 202,
    response: Accepted('verification_sent'),
    errors: [],
    handler: async ({ req, service, body }) => {
      await service.resendVerification(body().email, context(req));
      return { status: 202, body: { data: { status: 'verification_sent' } } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/sessions',
    operationId: 'signIn',
    access: 'anonymous',
    tag: 'Account',
    summary: 'Sign in',
    description: `Sets the session cookie and returns the session's CSRF token, to send as \`${CSRF_HEADER}\` on every write. A wrong email and a wrong password answer alike (\`401 INVALID_CREDENTIALS\`); repeated failures per email and per address answer 429 with Retry-After before any password is checked, except from a browser that signed in to the account before (its device cookie), which is limited by its own failures.`,
    body: SignInBody,
    status: 201,
    response: data(Session),
    responseHeaders: SET_COOKIE,
    errors: [401, 403],
    handler: async ({ req, service, body }) => {
      const { token, deviceCookie, body: session } = await service.signIn(body(), context(req));
      const cookies = [sessionCookie(token, service.sessionSettings), deviceCookie];
      return { status: 201, headers: { 'Set-Cookie': cookies }, body: { data: session } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/account/sessions/current',
    operationId: 'signOut',
    access: 'session',
    tag: 'Account',
    summary: 'Sign out',
    description: 'Revokes the session on the server (the cookie stops working on every gateway at once) and clears the cookie.',
    status: 204,
    responseDescription: 'Signed out',
    errors: [],
    handler: async ({ req, service }) => {
      await service.signOut(sessionOf(req));
      return { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(service.sessionSettings) } };
    },
  }),
  route({
    method: 'get',
    path: '/v1/account/sessions',
    operationId: 'listSessions',
    access: 'session',
    tag: 'Account',
    summary: 'List your sessions',
    description:
      "The signed-in user's live sessions (signed in, not signed out, not expired), newest first, the current one marked. Never a session's token.",
    status: 200,
    response: data(z.array(AccountSessionItem)),
    errors: [],
    handler: async ({ req, service }) => ({ status: 200, body: { data: await service.listSessions(sessionOf(req)) } }),
  }),
  route({
    method: 'delete',
    path: '/v1/account/sessions',
    operationId: 'signOutEverywhere',
    access: 'session',
    tag: 'Account',
    summary: 'Sign out everywhere',
    description: 'Ends every session of the user, this one included, on every gateway at once, and clears the cookie.',
    status: 204,
    responseDescription: 'Signed out everywhere',
    errors: [],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      await service.endAllSessions(sessionOf(req));
      return { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(service.sessionSettings) } };
    },
  }),
  route({
    method: 'delete',
    path: '/v1/account/sessions/{sessionId}',
    operationId: 'endSession',
    access: 'session',
    tag: 'Account',
    summary: 'End a session',
    description:
      "Ends one of the signed-in user's sessions (another browser's, or this one). Another user's session, or one already ended, is `404 NOT_FOUND`.",
    status: 204,
    responseDescription: 'Ended',
    errors: [404],
    handler: async ({ req, service }) => {
      parseOrThrow(emptyBody, req.body, 'body');
      const session = sessionOf(req);
      const sessionId = String(req.params.sessionId);
      await service.endSession(session, sessionId);
      return sessionId === session.sessionId
        ? { status: 204, headers: { 'Set-Cookie': clearedSessionCookie(service.sessionSettings) } }
        : { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/v1/account/me',
    operationId: 'getAccount',
    access: 'session',
    tag: 'Account',
    summary: 'The signed-in user',
    description: "The user, their organizations with their role in each, and the session's CSRF token.",
    status: 200,
    response: data(Me),
    errors: [],
    handler: ({ req, service }) => ({ status: 200, body: { data: service.me(sessionOf(req)) } }),
  }),
  route({
    method: 'post',
    path: '/v1/account/password',
    operationId: 'changePassword',
    access: 'session',
    tag: 'Account',
    summary: 'Change the password',
    description: 'Needs the current password. Every other session of the user ends; this one stays.',
    body: ChangePasswordBody,
    status: 204,
    responseDescription: 'Changed',
    errors: [],
    handler: async ({ req, service, body }) => {
      await service.changePassword(sessionOf(req), body(), context(req));
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/password-reset',
    operationId: 'requestPasswordReset',
    access: 'anonymous',
    tag: 'Account',
    summary: 'Ask for a password reset',
    description: 'Mails a reset link valid one hour, if the email has an account; answers 202 either way.',
    body: EmailBody,
    status: 202,
    response: Accepted('reset_sent'),
    errors: [],
    handler: async ({ req, service, body }) => {
      await service.requestPasswordReset(body().email, context(req));
      return { status: 202, body: { data: { status: 'reset_sent' } } };
    },
  }),
  route({
    method: 'post',
    path: '/v1/account/password-reset/confirm',
    operationId: 'confirmPasswordReset',
    access: 'anonymous',
    tag: 'Account',
    summary: 'Set a new password',
    description:
      "Uses the reset mail's token (once). Every session of the user is revoked, every other reset link stops working, and a mail confirms the change with the API keys made in the user's organizations in the last 30 days.",
    body: ResetPasswordBody,
    status: 204,
    responseDescription: 'Password changed',
    errors: [],
    handler: async ({ req, service, body }) => {
      const { deviceCookie } = await service.confirmPasswordReset(body(), context(req));
      return { status: 204, headers: { 'Set-Cookie': deviceCookie } };
    },
  }),
];

export const accountResource: Resource<AccountService> = {
  routes: accountRoutes,
  service: (ctx) => new AccountService(ctx.accounts),
};
