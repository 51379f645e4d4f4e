import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Session, mail and invitation tokens: 256 random bits, URL-safe. Only their SHA-256 is
 * stored; like API keys, a fast hash is enough for secrets this long.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Tokens we issued are 43 base64url characters; anything else is refused before any lookup. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]{43}$/.test(token);
}

/**
 * The CSRF token of a session: derived from the session token, so it is bound to the session,
 * needs no storage, and cannot be computed by a page that cannot read the HttpOnly cookie.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('csrf').digest('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
