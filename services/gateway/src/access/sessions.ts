import { AppError } from '@crawl/core';
import type { UserMembership } from '@crawl/db';
import { parse, serialize } from 'cookie';
import type { Request } from 'express';
import type { Directory } from './directory';
import { csrfTokenFor, hashToken, isWellFormedToken, sameSecret } from './secrets';

export const SESSION_COOKIE = 'cds_session';
export const CSRF_HEADER = 'X-CSRF-Token';

export interface SessionSettings {
  /** A session unused this long ends (SESSION_IDLE_TIMEOUT_MINUTES). */
  idleTimeoutMs: number;
  /** A session ends this long after sign-in, however used (SESSION_MAX_AGE_HOURS). */
  maxAgeMs: number;
  /** `Secure` cookies unless PUBLIC_URL is http. */
  secureCookie: boolean;
}

/** A signed-in console user, as every account route and `/v1/key` route with a cookie sees it. */
export interface AccountSession {
  sessionId: string;
  userId: string;
  email: string;
  memberships: UserMembership[];
  csrfToken: string;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const isWrite = (req: Request): boolean => !READS.has(req.method);

function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const token = parse(header)[SESSION_COOKIE];
  return isWellFormedToken(token) ? token : undefined;
}

/**
 * The request's live session, if its cookie names one: not revoked, not past its absolute
 * expiry, used within the idle timeout, its user enabled. Cached (directory.ts), so a
 * signed-in request costs Postgres nothing; the idle clock is kept in the background.
 */
export async function loadSession(
  deps: { directory: Directory; sessionSettings: SessionSettings },
  req: Request,
): Promise<AccountSession | undefined> {
  const token = sessionToken(req);
  if (!token) return undefined;
  const record = await deps.directory.session(hashToken(token));
  if (!record) return undefined;
  const now = Date.now();
  const lastSeen = Math.max(record.lastSeenAt.getTime(), deps.directory.sessionUse.lastRecorded(record.id) ?? 0);
  if (now - lastSeen > deps.sessionSettings.idleTimeoutMs || record.expiresAt.getTime() <= now) return undefined;
  deps.directory.sessionUse.seen(record.id, now);
  return {
    sessionId: record.id,
    userId: record.userId,
    email: record.email,
    memberships: record.memberships,
    csrfToken: csrfTokenFor(token),
  };
}

/**
 * A browser says where a request comes from (`Sec-Fetch-Site`); a cookie-carrying request made
 * by another site is refused whatever it asks, before any CSRF token is even looked at.
 */
export function refuseCrossSite(req: Request): void {
  if (req.headers['sec-fetch-site'] === 'cross-site') {
    throw new AppError('CSRF_REQUIRED', 'Requests from another site are refused for console sessions.');
  }
}

export function requireCsrf(req: Request, session: AccountSession): void {
  const sent = req.headers['x-csrf-token'];
  if (typeof sent !== 'string' || !sameSecret(sent, session.csrfToken)) {
    throw new AppError(
      'CSRF_REQUIRED',
      `A write with a console session needs the ${CSRF_HEADER} header from sign-in or GET /v1/account/me.`,
    );
  }
}

/** The `Set-Cookie` value that starts a session in this browser. */
export function sessionCookie(token: string, settings: SessionSettings): string {
  return serialize(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: settings.secureCookie,
    path: '/',
    maxAge: Math.floor(settings.maxAgeMs / 1000),
  });
}

/** The `Set-Cookie` value that removes the session cookie. */
export function clearedSessionCookie(settings: SessionSettings): string {
  return serialize(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: settings.secureCookie, path: '/', maxAge: 0 });
}
