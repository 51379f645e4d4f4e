import { promises as dnsPromises } from 'node:dns';
import { isIP } from 'node:net';
import { isPrivateAddress } from './address';

export type UrlCheck = { ok: true } | { ok: false; reason: string };

/**
 * Appended to every refusal of a loopback, private, link-local or internal address. Names the
 * one operator setting that allows them (a user cannot change it through the API), and nothing
 * else about the deployment: addresses that a host NAME resolved to are not echoed, since they
 * would map the operator's internal DNS for whoever submits URLs.
 */
export const PRIVATE_URL_HINT = 'private and loopback URLs are refused unless the operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true';

/**
 * The one answer for a host name whose lookup gives nothing usable: no record, a DNS timeout or
 * failure, or a private address among its records. Telling these apart would let a tenant probe
 * which internal names exist (a public name of theirs can CNAME to any internal one), so the
 * reason, and the error it becomes, is the same for all of them.
 */
export const UNUSABLE_HOST_REASON =
  'host does not resolve to an address webhooks may be sent to (public addresses only, unless the operator sets WEBHOOK_ALLOW_PRIVATE_URLS=true)';

/** Longest URL accepted for a webhook. */
export const MAX_URL_LENGTH = 2048;
/** Time limit of the DNS resolution done by {@link checkWebhookUrl}. */
export const DNS_CHECK_TIMEOUT_MS = 3_000;

/** Names that point at the local machine or an internal network; refused without DNS. */
const INTERNAL_NAMES = new Set(['localhost', 'internal', 'local', 'localdomain', 'home.arpa']);
const INTERNAL_SUFFIXES = ['.localhost', '.internal', '.local', '.localdomain', '.home.arpa'];

export interface ParsedTarget {
  url: URL;
  /** Hostname as used for DNS (IPv6 without brackets). */
  host: string;
  /** True when the host is a literal IPv4/IPv6 address (no DNS is done for it). */
  literal: boolean;
}

export type StaticCheck = { ok: true; target: ParsedTarget } | { ok: false; reason: string };

function isInternalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.+$/, '');
  return INTERNAL_NAMES.has(name) || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/** Everything that can be decided without DNS. Used by the config check and by each delivery. */
export function staticCheck(rawUrl: string, allowPrivate: boolean): StaticCheck {
  if (typeof rawUrl !== 'string' || rawUrl.trim() === '') return { ok: false, reason: 'URL is missing' };
  if (rawUrl.length > MAX_URL_LENGTH) return { ok: false, reason: `URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'only http and https URLs are allowed' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, reason: 'credentials in the URL are not allowed' };
  }
  const hostname = url.hostname;
  if (hostname === '') return { ok: false, reason: 'host is missing' };
  // got 11 treats the host name `unix` as "connect to a UNIX socket" (http://unix:/path.sock:/x),
  // which would bypass every address check: never allowed.
  if (hostname.toLowerCase() === 'unix') return { ok: false, reason: 'UNIX socket URLs are not allowed' };
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const literal = isIP(host) !== 0;
  if (!allowPrivate) {
    // The WHATWG parser has already normalised numeric forms (http://2130706433/, http://0x7f.1/)
    // to dotted IPv4, so `host` is canonical here.
    if (literal && isPrivateAddress(host)) return { ok: false, reason: `is a private address (${host}): ${PRIVATE_URL_HINT}` };
    if (!literal && isInternalName(host)) return { ok: false, reason: `host ${host} is an internal name: ${PRIVATE_URL_HINT}` };
  }
  return { ok: true, target: { url, host, literal } };
}

class DnsTimeoutError extends Error {}

/** All A/AAAA records of `host` via the system resolver (what a connection would use). */
export async function resolveAll(host: string, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DnsTimeoutError('DNS timeout')), timeoutMs);
    timer.unref();
  });
  try {
    const records = await Promise.race([dnsPromises.lookup(host, { all: true, verbatim: true }), timeout]);
    return records.map((r) => r.address);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For config validation: http(s) only, no credentials in the URL, host present; resolves the
 * host (all A/AAAA records, timeout ~3 s) and rejects when it does not resolve or ANY address is
 * private (unless `allowPrivate`), with one reason for both ({@link UNUSABLE_HOST_REASON}). Literal IPs are checked without DNS. Internal names (`localhost`,
 * `*.localhost`, `*.internal`, `*.local`, ...) are rejected without DNS unless `allowPrivate`.
 *
 * This is a config-time check only; {@link deliverWebhook} re-checks at connection time.
 */
export async function checkWebhookUrl(url: string, options: { allowPrivate: boolean }): Promise<UrlCheck> {
  const allowPrivate = options?.allowPrivate === true;
  const checked = staticCheck(url, allowPrivate);
  if (!checked.ok) return checked;
  const { host, literal } = checked.target;
  if (literal) return { ok: true };
  let addresses: string[];
  try {
    addresses = await resolveAll(host, DNS_CHECK_TIMEOUT_MS);
  } catch {
    return { ok: false, reason: UNUSABLE_HOST_REASON };
  }
  if (addresses.length === 0) return { ok: false, reason: UNUSABLE_HOST_REASON };
  if (!allowPrivate && addresses.some((a) => isPrivateAddress(a))) return { ok: false, reason: UNUSABLE_HOST_REASON };
  return { ok: true };
}
