import { type ConnectionOptions, openTransport } from './connection';
import { isCrawlApiError } from './errors';
import { seg } from './pagination';
import { ApiKeysResource } from './resources/api-keys';
import type { RequestSpec, Transport } from './transport';
import type { AccountUser, Project, SignedInUser } from './types';

export interface CrawlAccountSignInOptions extends ConnectionOptions {
  email: string;
  password: string;
}

const SESSION_COOKIE = 'cds_session';

interface Session {
  /** The value of the `cds_session` cookie. */
  token: string;
  /** Sent as `X-CSRF-Token` on every write. */
  csrfToken: string;
}

/**
 * The account API (`/v1/account`) with a console session: what a signed-in user manages, API
 * keys first. The session cookie and CSRF token live in this object only (never on disk); call
 * `signOut()` when done, so that the session ends on the server too.
 */
export class CrawlAccount {
  readonly keys: ApiKeysResource;
  private readonly transport: Transport;
  private session: Session | null = null;
  private signedIn: AccountUser | null = null;

  private constructor(options: ConnectionOptions) {
    this.transport = openTransport(options, (spec) => this.credentials(spec));
    this.keys = new ApiKeysResource(this.transport);
  }

  /**
   * Signs in (`POST /v1/account/sessions`). A wrong email or password throws `INVALID_CREDENTIALS`
   * (401), an unverified email `EMAIL_NOT_VERIFIED` (403). Retried on 429, 503 and network errors
   * like a read: a repeat only opens a second session, which nobody holds and which idles out.
   * A lockout longer than a minute is thrown rather than waited for.
   */
  static async signIn(options: CrawlAccountSignInOptions): Promise<CrawlAccount> {
    if (!options || typeof options.email !== 'string' || typeof options.password !== 'string')
      throw new TypeError('CrawlAccount.signIn needs an email and a password');
    const account = new CrawlAccount(options);
    const { body, headers } = await account.transport.jsonWithHeaders<{ data: { user: AccountUser; csrfToken: string } }>({
      method: 'POST',
      path: '/v1/account/sessions',
      body: { email: options.email, password: options.password },
      retryable: true,
      maxRetryAfterSeconds: 60,
    });
    const token = sessionCookieOf(headers);
    if (!token) throw new Error(`sign-in answered no ${SESSION_COOKIE} cookie (a proxy in between dropping Set-Cookie?)`);
    account.session = { token, csrfToken: body.data.csrfToken };
    account.signedIn = body.data.user;
    return account;
  }

  /** The user signed in (from sign-in; `me()` reads it anew with the memberships). */
  get user(): AccountUser {
    if (!this.signedIn) throw new Error('signed out');
    return this.signedIn;
  }

  /** The user, their organizations with their role in each, and the session's CSRF token. */
  async me(): Promise<SignedInUser> {
    const res = await this.transport.json<{ data: SignedInUser }>({ method: 'GET', path: '/v1/account/me', retryable: true });
    if (this.session) this.session.csrfToken = res.data.csrfToken;
    return res.data;
  }

  /** An organization's projects, archived ones included (with `archivedAt`), oldest first. */
  async projects(organizationId: string): Promise<Project[]> {
    const res = await this.transport.json<{ data: Project[] }>({
      method: 'GET',
      path: `/v1/account/organizations/${seg(organizationId)}/projects`,
      retryable: true,
    });
    return res.data;
  }

  /**
   * Ends the session on the server (`DELETE /v1/account/sessions/current`) and forgets it here.
   * A session that already ended (idle timeout, password change) counts as signed out.
   */
  async signOut(): Promise<void> {
    if (!this.session) return;
    try {
      await this.transport.json<undefined>({ method: 'DELETE', path: '/v1/account/sessions/current', retryable: true });
    } catch (err) {
      if (!isCrawlApiError(err, 'UNAUTHORIZED')) throw err;
    }
    this.session = null;
    this.signedIn = null;
  }

  /** The cookie on every request; the CSRF token on writes, the only requests that need it. */
  private credentials(spec: RequestSpec): Record<string, string> {
    if (!this.session) return {};
    const cookie = { Cookie: `${SESSION_COOKIE}=${this.session.token}` };
    return spec.method === 'GET' ? cookie : { ...cookie, 'X-CSRF-Token': this.session.csrfToken };
  }
}

/** The session token of a sign-in answer's Set-Cookie headers. */
function sessionCookieOf(headers: Headers): string | undefined {
  const lines =
    typeof headers.getSetCookie === 'function'
      ? headers.getSetCookie()
      : // a fetch without getSetCookie joins the headers with commas; Expires dates have a comma too
        (headers.get('set-cookie')?.split(/,(?=\s*[^;,=\s]+=)/) ?? []);
  for (const line of lines) {
    const match = new RegExp(`^\\s*${SESSION_COOKIE}=([^;]*)`).exec(line);
    if (match?.[1]) return match[1];
  }
  return undefined;
}
