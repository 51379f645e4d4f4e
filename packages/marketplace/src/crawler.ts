import { type JobType, type ResultItem, sanitizeDeep, type TargetErrorCode } from '@crawl/core';
import { MARKETPLACES, type MarketplaceCode, type MarketplaceOrigins, originFor } from '@crawl/core';
import type { Logger } from '@crawl/observability';
import { type FetchResult, fetchPage } from './fetch-page';
import { detectPageKind, parseDetailsPage, parseSearchPage } from './parsers';
import type { CrawlSession, SessionPool } from './sessions';
import { acceptLanguage, expectedAsin, marketplaceOrigin, targetUrl } from './urls';

export interface CrawlInput {
  type: JobType;
  target: string;
  marketplace: MarketplaceCode;
  lang: string | null;
}

/** The target error codes a crawl attempt itself can end in. */
export type CrawlErrorCode = Extract<TargetErrorCode, 'NOT_FOUND' | 'BLOCKED' | 'UPSTREAM_ERROR' | 'PARSE_ERROR'>;

/**
 * What a tenant reads in `errors[].message`: one fixed sentence per code. Never built from the
 * failure itself, whose text can hold addresses, ports, errno strings, proxy hosts or URLs (a
 * free port scanner if shown); that detail goes to the worker's log.
 */
export const CRAWL_ERROR_MESSAGES: Readonly<Record<CrawlErrorCode, string>> = {
  NOT_FOUND: 'the marketplace has no page for this target',
  BLOCKED: 'the marketplace refused the request (robot check or throttling)',
  UPSTREAM_ERROR: 'the marketplace did not return a usable page (error, timeout, connection failure or redirect)',
  PARSE_ERROR: 'the page did not contain the requested product or search results',
};

export type CrawlOutcome =
  | { ok: true; items: ResultItem[]; status: number }
  /** `message` is tenant-facing (CRAWL_ERROR_MESSAGES); `detail` is for logs only. */
  | { ok: false; code: CrawlErrorCode; message: string; detail: string; retryable: boolean };

/** Shared by every worker: at most N requests per second to one marketplace host. */
export interface HostThrottle {
  acquire(host: string): Promise<void>;
}

export interface CrawlerOptions {
  origins: MarketplaceOrigins;
  sessions: SessionPool;
  throttle: HostThrottle;
  timeoutMs: number;
  /** Receives the detail of every failed attempt (what tenants are not shown). */
  log?: Logger;
}

const fail = (code: CrawlErrorCode, detail: string, retryable: boolean): CrawlOutcome => ({ ok: false, code, message: CRAWL_ERROR_MESSAGES[code], detail, retryable });

/**
 * Fetches and parses one target, mapping every outcome to DESIGN section 3: 404 is final,
 * blocks / 429 / 5xx / timeouts are retryable (with another session), a page that yields no
 * product is PARSE_ERROR. A robot check, an empty page or another product's page is never a
 * success. Requests go to the marketplace origin only (see targetUrl and fetchPage).
 */
export class Crawler {
  private lastSession = new Map<string, number>();

  constructor(private readonly options: CrawlerOptions) {}

  async crawl(input: CrawlInput, attemptKey: string): Promise<CrawlOutcome> {
    const outcome = await this.attempt(input, attemptKey);
    if (!outcome.ok) {
      this.options.log?.warn({ attemptKey, type: input.type, marketplace: input.marketplace, code: outcome.code, detail: outcome.detail }, 'crawl attempt failed');
    }
    return outcome;
  }

  private async attempt(input: CrawlInput, attemptKey: string): Promise<CrawlOutcome> {
    const origin = marketplaceOrigin(originFor(input.marketplace, this.options.origins));
    const url = targetUrl(input.type, input.target, origin, input.lang);
    const session = this.options.sessions.take(this.lastSession.get(attemptKey));
    this.lastSession.set(attemptKey, session.id);
    if (this.lastSession.size > 10_000) this.lastSession.delete(this.lastSession.keys().next().value!);

    await this.options.throttle.acquire(new URL(origin).host);
    const result = await fetchPage(url, session, {
      origin,
      timeoutMs: this.options.timeoutMs,
      acceptLanguage: acceptLanguage(input.lang ?? MARKETPLACES[input.marketplace].lang),
    });
    if (result.kind !== 'response') return this.unfetched(result, url);
    const { status, body } = result;
    if (status === 404 || status === 410) return fail('NOT_FOUND', `${url} answered ${status}`, false);
    if (status === 429) return this.blocked(session, `${url} answered 429 (throttled)`);
    if (status >= 500) {
      if (detectPageKind(body) === 'captcha') return this.blocked(session, `robot check (HTTP ${status}) at ${url}`);
      return fail('UPSTREAM_ERROR', `${url} answered ${status}`, true);
    }
    if (status < 200 || status >= 300) return this.blocked(session, `${url} answered ${status}`);
    if (body.trim().length === 0) return fail('UPSTREAM_ERROR', `${url} answered an empty page`, true);
    if (detectPageKind(body) === 'captcha') return this.blocked(session, `robot check page at ${url}`);
    const parsed = this.parse(input, body, origin, status);
    // Page text can carry NULs or broken surrogates that Postgres cannot store.
    return parsed.ok ? { ...parsed, items: sanitizeDeep(parsed.items) } : parsed;
  }

  /**
   * No page: a network failure is retried with another session; a redirect off the origin is
   * final (the marketplace sent us elsewhere, and we do not go there); a redirect loop may be
   * a session's cookies, so another session gets a try.
   */
  private unfetched(result: Exclude<FetchResult, { kind: 'response' }>, url: string): CrawlOutcome {
    if (result.kind === 'network_error') {
      return fail('UPSTREAM_ERROR', result.timeout ? `${url} timed out after ${this.options.timeoutMs} ms (${result.message})` : `${url}: ${result.message}`, true);
    }
    return fail('UPSTREAM_ERROR', `${url}: redirect not followed (${result.reason}) to ${result.location}`, result.reason === 'too_many');
  }

  private blocked(session: CrawlSession, detail: string): CrawlOutcome {
    this.options.sessions.burn(session);
    return fail('BLOCKED', detail, true);
  }

  private parse(input: CrawlInput, html: string, origin: string, status: number): CrawlOutcome {
    const ctx = { marketplace: input.marketplace, origin };
    if (input.type === 'search') {
      const cards = parseSearchPage(html, ctx);
      if (!cards.length) return fail('PARSE_ERROR', 'the page has no search result cards', false);
      return { ok: true, status, items: cards.map((card) => ({ keyword: input.target, ...card })) };
    }
    const item = parseDetailsPage(html, ctx);
    if (!item) return fail('PARSE_ERROR', 'the page has no product', false);
    const wanted = expectedAsin(input.type, input.target);
    if (wanted && item.asin !== wanted && !item.variants.some((v) => v.asin === wanted)) {
      return fail('PARSE_ERROR', `the page shows product ${item.asin}, not ${wanted}`, false);
    }
    return { ok: true, status, items: [{ target: input.target, ...item }] };
  }
}
