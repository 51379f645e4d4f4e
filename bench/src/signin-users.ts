/** The legitimate users of `pnpm bench signin`: signed up and verified through the API, each its own browser. */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A verified user as a browser at its own client address: it keeps the cookies the gateway sets
 * and sends them back, so a gateway that recognizes browsers which signed in before can tell it
 * from a flood.
 */
export interface BrowserUser {
  email: string;
  password: string;
  address: string;
  cookies: Map<string, string>;
}

/** Each request's own limit: an answer slower than this counts as none. */
export const REQUEST_TIMEOUT_MS = 10_000;

export const postJson = (base: string, route: string, body: unknown, address: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Forwarded-For': address, ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });

/** A POST from the user's browser: its address, its cookies sent, the answer's cookies kept. */
export async function userPost(base: string, user: BrowserUser, route: string, body: unknown): Promise<Response> {
  const cookie = [...user.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const res = await postJson(base, route, body, user.address, cookie ? { Cookie: cookie } : {});
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const name = pair.slice(0, pair.indexOf('=')).trim();
    const value = pair.slice(pair.indexOf('=') + 1).trim();
    if (!name) continue;
    if (value && !/;\s*max-age=0\b/i.test(line)) user.cookies.set(name, value);
    else user.cookies.delete(name);
  }
  return res;
}

/**
 * `addresses.length` users, each signed up from its address, verified with the mailed link
 * (read from the gateway's MAIL_OUTBOX_DIR) and signed in once, so each browser holds what a
 * real one would after its first sign-in.
 */
export async function verifiedUsers(base: string, outboxDir: string, addresses: string[]): Promise<BrowserUser[]> {
  const users = addresses.map((address) => ({
    email: `bench-signin-${randomBytes(5).toString('hex')}@example.com`,
    password: `bench ${randomBytes(12).toString('base64url')}`,
    address,
    cookies: new Map<string, string>(),
  }));
  for (const user of users) {
    const signup = await userPost(base, user, '/v1/account/signup', {
      email: user.email,
      password: user.password,
      organizationName: 'bench signin',
    });
    if (signup.status !== 202) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  }
  const links = await verificationLinks(
    outboxDir,
    users.map((u) => u.email),
  );
  for (const user of users) {
    const token = new URL(links.get(user.email)!).searchParams.get('token');
    const verified = await userPost(base, user, '/v1/account/email-verification', { token });
    if (verified.status !== 200) throw new Error(`verification answered ${verified.status}: ${await verified.text()}`);
    const first = await userPost(base, user, '/v1/account/sessions', { email: user.email, password: user.password });
    if (first.status !== 201) throw new Error(`the first sign-in answered ${first.status}: ${await first.text()}`);
  }
  return users;
}

/**
 * The verification link mailed to each of `emails`, polled for (mail goes out after the answer).
 * Only two headers of each file are needed, so they are read here rather than with @crawl/mail's
 * MIME parser: headers end at the first empty line, and a long one continues on lines that start
 * with white space.
 */
async function verificationLinks(outboxDir: string, emails: string[]): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const names = (await readdir(outboxDir).catch(() => [] as string[])).filter(
      (n) => n.includes('-verify-email-') && n.endsWith('.eml') && !n.startsWith('.'),
    );
    for (const name of names) {
      const text = await readFile(path.join(outboxDir, name), 'utf8');
      const head = text.slice(0, text.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
      const headers = new Map(
        head.split(/\r?\n/).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const to = headers.get('to')?.toLowerCase();
      const link = headers.get('x-crawl-mail-link');
      if (to && link && emails.includes(to)) links.set(to, link);
    }
    if (links.size === emails.length) return links;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`verification mails for ${emails.length - links.size} of ${emails.length} users missing in ${outboxDir}`);
}
