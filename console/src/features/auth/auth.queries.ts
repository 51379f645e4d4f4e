import { api, type Schemas, setCsrfToken, unwrap } from '../../api/client';

/**
 * The account API's calls without a project: sign-up, verification, sign-in and out, password
 * resets and invitations. The session itself (`GET /v1/account/me`) is api/session.ts: the router,
 * the shell and every page read it.
 */

export const authKeys = {
  verification: (token: string | undefined) => ['email-verification', token] as const,
};

export const signUp = (body: Schemas['SignupBody']) => unwrap(api.POST('/v1/account/signup', { body }));

export const verifyEmail = (token: string) => unwrap(api.POST('/v1/account/email-verification', { body: { token } }));

export const resendVerification = (email: string) => unwrap(api.POST('/v1/account/email-verification/resend', { body: { email } }));

/** Signs in and keeps the new session's CSRF token for the writes that follow. */
export async function signIn(body: Schemas['SignInBody']) {
  const { data } = await unwrap(api.POST('/v1/account/sessions', { body }));
  setCsrfToken(data.csrfToken);
  return data;
}

/** Ends the session on the server (signed out either way: a failure here changes nothing for the browser). */
export async function signOut() {
  await unwrap(api.DELETE('/v1/account/sessions/current')).catch(() => undefined);
  setCsrfToken(null);
}

export const requestPasswordReset = (email: string) => unwrap(api.POST('/v1/account/password-reset', { body: { email } }));

export const confirmPasswordReset = (token: string, password: string) =>
  unwrap(api.POST('/v1/account/password-reset/confirm', { body: { token, password } }));

export const acceptInvitation = async (body: Schemas['AcceptInvitationBody']) =>
  (await unwrap(api.POST('/v1/account/invitations/accept', { body }))).data;
