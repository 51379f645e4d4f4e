import { createHmac, randomBytes } from 'node:crypto';
import { parse, serialize } from 'cookie';
import { sameSecret } from './secrets';

export const DEVICE_COOKIE = 'cds_device';
const MAX_AGE_SECONDS = 180 * 24 * 3600;

/**
 * A browser that proved it knows an account: it signed in to it, verified its email or reset its
 * password. The cookie names a random device id and an HMAC binding it to the account's email
 * under a server key; it grants nothing by itself (it is no session), it only lets that browser
 * past the limits that strangers trip for everyone: the per-email lock after failed guesses, the
 * per-address refusal, and the anonymous mail budget (docs/accounts.md, "Sign-in limits").
 * It is sent only to the account API (`Path=/v1/account`), HttpOnly and SameSite=Lax.
 */
export class DeviceCookies {
  constructor(
    private readonly key: Buffer,
    private readonly secure: boolean,
  ) {}

  /** A `Set-Cookie` value marking this browser as one that proved it knows `email`. */
  issue(email: string): string {
    const id = randomBytes(16).toString('base64url');
    return serialize(DEVICE_COOKIE, `${id}.${this.mac(id, email)}`, {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secure,
      path: '/v1/account',
      maxAge: MAX_AGE_SECONDS,
    });
  }

  /** The device id when the request's cookie (its Cookie header) was issued for `email`; undefined for any other browser. */
  trusted(cookieHeader: string | undefined, email: string): string | undefined {
    const value = cookieHeader ? parse(cookieHeader)[DEVICE_COOKIE] : undefined;
    const match = value ? /^([\w-]{22})\.([\w-]{43})$/.exec(value) : null;
    if (!match) return undefined;
    return sameSecret(match[2]!, this.mac(match[1]!, email)) ? match[1] : undefined;
  }

  private mac(id: string, email: string): string {
    return createHmac('sha256', this.key).update(`${id}\n${email.toLowerCase()}`).digest('base64url');
  }
}
