import { type JobType, sanitizeDeep, type TargetErrorCode } from '@crawl/core';
import { fetchPage } from './fetch-page';
import { detectPageKind, parseDetailsPage, parseSearchPage } from './parsers';
import { MARKETPLACES, type MarketplaceCode, type MarketplaceOrigins, originFor } from '@crawl/core';
import type { CrawlSession, SessionPool } from './sessions';
import { acceptLanguage, expectedAsin, targetUrl } from './urls';

export interface CrawlInput {
  type: JobType;
  target: string;
  marketplace: MarketplaceCode;
  lang: string | null;
}

export type CrawlOutcome =
  | { ok: true; items: Record<string, unknown>[]; status: number }
  | { ok: false; code: TargetErrorCode; message: string; retryable: boolean };

/** Shared by every worker: at most N requests per second to one marketplace host. */
export interface HostThrottle {
  acquire(host: string): Promise<void>;
}

export interface CrawlerOptions {
  origins: MarketplaceOrigins;
  sessions: SessionPool;
  throttle: HostThrottle;
  timeoutMs: number;
}

const fail = (code: TargetErrorCode, message: string, retryable: boolean): CrawlOutcome => ({ ok: false, code, message, retryable });

/**
 * Fetches and parses one target, mapping every outcome to DESIGN section 3: 404 is final,
 * blocks / 429 / 5xx / timeouts are retryable (with another session), a page that yields no
 * product is PARSE_ERROR. A robot check, an empty page or another product's page is never a
 * success.
 */
export class Crawler {
  private lastSession = new Map<string, number>();

  constructor(private readonly options: CrawlerOptions) {}

  async crawl(input: CrawlInput, attemptKey: string): Promise<CrawlOutcome> {
    const origin = originFor(input.marketplace, this.options.origins);
    const url = targetUrl(input.type, input.target, origin, input.lang);
    const session = this.options.sessions.take(this.lastSession.get(attemptKey));
    this.lastSession.set(attemptKey, session.id);
    if (this.lastSession.size > 10_000) this.lastSession.delete(this.lastSession.keys().next().value!);

    await this.options.throttle.acquire(new URL(origin).host);
    const result = await fetchPage(url, session, {
      timeoutMs: this.options.timeoutMs,
      acceptLanguage: acceptLanguage(input.lang ?? MARKETPLACES[input.marketplace].lang),
    });
    if (result.kind === 'network_error') {
      return fail('UPSTREAM_ERROR', result.timeout ? `timed out after ${this.options.timeoutMs} ms` : result.message, true);
    }
    const { status, body } = result;
    if (status === 404 || status === 410) return fail('NOT_FOUND', `the marketplace answered ${status} for ${url}`, false);
    if (status === 429) return this.blocked(session, `the marketplace answered 429 (throttled)`);
    if (status >= 500) {
      if (detectPageKind(body) === 'captcha') return this.blocked(session, `robot check (HTTP ${status})`);
      return fail('UPSTREAM_ERROR', `the marketplace answered ${status}`, true);
    }
    if (status < 200 || status >= 300) return this.blocked(session, `the marketplace answered ${status}`);
    if (body.trim().length === 0) return fail('UPSTREAM_ERROR', 'the marketplace answered an empty page', true);
    if (detectPageKind(body) === 'captcha') return this.blocked(session, 'robot check page');
    const parsed = this.parse(input, body, origin, status);
    // Page text can carry NULs or broken surrogates that Postgres cannot store.
    return parsed.ok ? { ...parsed, items: sanitizeDeep(parsed.items) } : parsed;
  }

  private blocked(session: CrawlSession, message: string): CrawlOutcome {
    this.options.sessions.burn(session);
    return fail('BLOCKED', message, true);
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
