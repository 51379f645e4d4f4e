import got from 'got';
import type { CrawlSession } from './sessions';
import { marketplaceOrigin } from './urls';

/** Redirect hops followed within the marketplace origin before the page counts as unreachable. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Largest page body read (Amazon's biggest product pages are about 3 MB); a bigger one is a network error. */
export const MAX_BODY_BYTES = 12 * 1024 * 1024;

export type FetchResult =
  /** `body` is bytes: the page is decoded where it is parsed (a worker thread), not on the event loop. */
  | { kind: 'response'; status: number; body: Buffer; url: string }
  | { kind: 'network_error'; message: string; timeout: boolean }
  /** A redirect that was not followed: off the origin, too many hops, or no usable Location. */
  | { kind: 'redirect_refused'; reason: 'off_origin' | 'too_many' | 'bad_location'; location: string };

export interface FetchPageOptions {
  /** The marketplace origin: the only host requests (and redirects) may go to. */
  origin: string;
  /** Budget for the whole fetch, redirects included. */
  timeoutMs: number;
  acceptLanguage: string;
  maxRedirects?: number;
  /**
   * A page's own script request instead of a navigation (a location session's setup, see
   * location-setup.ts): script headers plus `headers`, and a POST of `body` when given (a POST
   * follows no redirect: its answer is returned as it is).
   */
  xhr?: { headers?: Record<string, string>; body?: string };
}

/** A browser's navigation headers, in a browser's order. */
function browserHeaders(userAgent: string, acceptLanguage: string): Record<string, string> {
  return {
    'user-agent': userAgent,
    accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
    'accept-language': acceptLanguage,
    'accept-encoding': 'gzip, deflate, br',
    'upgrade-insecure-requests': '1',
    'sec-fetch-dest': 'document',
    'sec-fetch-mode': 'navigate',
    'sec-fetch-site': 'none',
    'sec-fetch-user': '?1',
  };
}

/** What a page's script sends to its own origin (fetch/XHR), in a browser's order. */
function scriptHeaders(userAgent: string, acceptLanguage: string, origin: string, xhr: NonNullable<FetchPageOptions['xhr']>) {
  return {
    'user-agent': userAgent,
    accept: 'text/html,*/*',
    'accept-language': acceptLanguage,
    'accept-encoding': 'gzip, deflate, br',
    ...(xhr.body !== undefined ? { 'content-type': 'application/json' } : {}),
    'x-requested-with': 'XMLHttpRequest',
    origin,
    referer: `${origin}/`,
    'sec-fetch-dest': 'empty',
    'sec-fetch-mode': 'cors',
    'sec-fetch-site': 'same-origin',
    ...xhr.headers,
  };
}

/**
 * GETs a marketplace page with a browser's headers through a session: keep-alive, its cookie
 * jar, no retries (the queue retries with backoff and another session), every failure returned
 * as a value.
 *
 * Redirects are followed by hand, one hop at a time, and only while they stay on `origin`
 * (scheme, host and port): got would follow a Location to any host, which would let a
 * marketplace page (or whatever answers for it) point a worker at internal addresses. A hop
 * off the origin, or more than `maxRedirects` hops, is returned as `redirect_refused` without
 * requesting it. `message` of a network error is for logs only: it can name addresses, ports
 * and proxies.
 */
export async function fetchPage(url: string, session: CrawlSession, options: FetchPageOptions): Promise<FetchResult> {
  const allowed = marketplaceOrigin(options.origin);
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const deadline = Date.now() + options.timeoutMs;
  let current = url;
  const first = new URL(current);
  if (first.origin !== allowed || first.username || first.password)
    return { kind: 'redirect_refused', reason: 'off_origin', location: current };
  for (let hop = 0; ; hop++) {
    const { result, location } = await getOnce(current, session, options, allowed, Math.max(1, deadline - Date.now()));
    if (result.kind !== 'response' || !REDIRECT_STATUSES.has(result.status) || !location) return result;
    if (options.xhr?.body !== undefined) return result;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { kind: 'redirect_refused', reason: 'bad_location', location };
    }
    if (next.origin !== allowed || next.username || next.password)
      return { kind: 'redirect_refused', reason: 'off_origin', location: next.toString() };
    if (hop >= maxRedirects) return { kind: 'redirect_refused', reason: 'too_many', location: next.toString() };
    next.hash = '';
    current = next.toString();
  }
}

/**
 * One request, no redirects followed. got's own timeout starts with the socket, so a proxy
 * that accepts the connection but never answers CONNECT would hold the request (and a worker
 * slot) forever: a timer cancels it at the deadline whatever stage it is in.
 */
async function getOnce(
  url: string,
  session: CrawlSession,
  options: FetchPageOptions,
  origin: string,
  timeoutMs: number,
): Promise<{ result: FetchResult; location?: string }> {
  const { acceptLanguage, xhr } = options;
  const request = got(url, {
    method: xhr?.body !== undefined ? 'POST' : 'GET',
    ...(xhr?.body !== undefined ? { body: xhr.body } : {}),
    headers: xhr ? scriptHeaders(session.userAgent, acceptLanguage, origin, xhr) : browserHeaders(session.userAgent, acceptLanguage),
    agent: session.agents,
    cookieJar: session.cookieJar,
    timeout: { request: timeoutMs },
    retry: 0,
    throwHttpErrors: false,
    followRedirect: false,
    responseType: 'buffer',
  });
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    request.cancel(`no response within ${timeoutMs} ms`);
  }, timeoutMs + 50);
  // a body without end (or a huge one) must not fill the worker's memory
  void request.on('downloadProgress', ({ transferred }: { transferred: number }) => {
    if (transferred > MAX_BODY_BYTES) request.cancel(`body larger than ${MAX_BODY_BYTES} bytes`);
  });
  try {
    const res = await request;
    return { result: { kind: 'response', status: res.statusCode, body: res.body, url: res.url }, location: res.headers.location };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string };
    const timeout = expired || e.name === 'TimeoutError';
    return { result: { kind: 'network_error', message: `${e.code ?? e.name ?? 'Error'}: ${e.message ?? 'request failed'}`, timeout } };
  } finally {
    clearTimeout(timer);
  }
}
