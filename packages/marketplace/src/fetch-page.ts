import got from 'got';
import type { CrawlSession } from './sessions';

export type FetchResult =
  | { kind: 'response'; status: number; body: string; url: string }
  | { kind: 'network_error'; message: string; timeout: boolean };

/**
 * One GET with a browser's headers through a session: keep-alive, its cookie jar, no retries
 * (the queue retries with backoff and another session), and every failure returned as a value.
 */
export async function fetchPage(url: string, session: CrawlSession, options: { timeoutMs: number; acceptLanguage: string }): Promise<FetchResult> {
  try {
    const res = await got(url, {
      headers: {
        'user-agent': session.userAgent,
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
        'accept-language': options.acceptLanguage,
        'accept-encoding': 'gzip, deflate, br',
        'upgrade-insecure-requests': '1',
        'sec-fetch-dest': 'document',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-site': 'none',
        'sec-fetch-user': '?1',
      },
      agent: session.agents,
      cookieJar: session.cookieJar,
      timeout: { request: options.timeoutMs },
      retry: 0,
      throwHttpErrors: false,
      followRedirect: true,
      maxRedirects: 5,
      responseType: 'text',
    });
    return { kind: 'response', status: res.statusCode, body: res.body, url: res.url };
  } catch (err) {
    const e = err as { name?: string; code?: string; message?: string };
    return { kind: 'network_error', message: `${e.code ?? e.name ?? 'Error'}: ${e.message ?? 'request failed'}`, timeout: e.name === 'TimeoutError' };
  }
}
