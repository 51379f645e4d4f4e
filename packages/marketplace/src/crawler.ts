import { type JobType, type PageStyle, type ResultItem, sanitizeDeep, type TargetErrorCode } from '@crawl/core';
import { MARKETPLACES, type MarketplaceOrigins, originFor } from '@crawl/core';
import type { Logger } from '@crawl/observability';
import { type ExitLease, type ExitOutcome, type ExitPool, ExitResting } from './egress/exits';
import { type FetchPageOptions, type FetchResult, fetchPage } from './egress/fetch-page';
import { type LocationSession, type LocationSessionLimits, LocationSessions } from './egress/location-sessions';
import { answerTrouble, setUpLocation, type SetupResult } from './egress/location-setup';
import { checkPageLocation, deliverToBlock } from './egress/page-location';
import { type CrawlInput, type FetchedPage, MARKETPLACE_KINDS, pageItems } from './kinds';
import type { ParsedPage, ParsePool } from './parse-pool';
import { detectPageKind } from './parsers';
import type { DeliveryLocation } from './parsers/delivery-location';
import { acceptLanguage, marketplaceOrigin, targetUrl } from './egress/urls';

export type { CrawlInput } from './kinds';

/** The target error codes a crawl attempt itself can end in. */
export type CrawlErrorCode = Extract<TargetErrorCode, 'NOT_FOUND' | 'BLOCKED' | 'UPSTREAM_ERROR' | 'PARSE_ERROR' | 'LOCATION_MISMATCH'>;

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
  LOCATION_MISMATCH: 'the marketplace did not show the page for the requested delivery location',
};

/**
 * BLOCKED by a sign-in wall: said as such, since another exit rarely helps and the tenant should
 * know why. A sign-in wall is what the marketplace shows every visitor without an account on
 * that page, not a refusal of the exit: the exit does not rest, and the target is retried at
 * most once, from another exit (see `signIn` on CrawlOutcome).
 */
export const SIGNIN_MESSAGES = {
  reviews: MARKETPLACE_KINDS.reviews.signInMessage,
  other: 'the marketplace asked for a sign-in instead of the page',
} as const;

/**
 * A page that answered: the job type its items were produced for (their schema), its items
 * (search cards carry `keyword` and `page`; positions are the page's own), whether a next result
 * page exists, whether the page is the marketplace's genuine "no results" answer (then
 * `items` is empty, and it is not a PARSE_ERROR), and how its next page is requested when its
 * layout decides that (`pageStyle`, see PageItems).
 */
export type CrawlOutcome =
  | {
      ok: true;
      type: JobType;
      items: ResultItem[];
      status: number;
      hasNextPage: boolean;
      noResults: boolean;
      pageStyle?: PageStyle;
      /** A job with a postal code: where the page was checked to deliver to (shown, or inherited). */
      deliveryLocation?: DeliveryLocation;
    }
  /**
   * `message` is tenant-facing (CRAWL_ERROR_MESSAGES); `detail` is for logs only. `signIn`: the
   * page was a sign-in wall (retryable only when another exit could be tried).
   */
  | { ok: false; code: CrawlErrorCode; message: string; detail: string; retryable: boolean; signIn?: true };

export interface CrawlerOptions {
  origins: MarketplaceOrigins;
  /** Where requests leave from, with per-exit politeness and cooldowns. */
  exits: ExitPool;
  /** Parses pages off the event loop (a worker-thread pool). */
  parser: Pick<ParsePool, 'parse' | 'pageKind'>;
  timeoutMs: number;
  /** Receives the detail of every failed attempt (what tenants are not shown). */
  log?: Logger;
  /**
   * Location sessions of jobs with a postal code (docs/crawling.md, "Delivery location"): their
   * bounds, and how many fresh sessions a target whose page shows another place gets before it
   * fails LOCATION_MISMATCH (default 1).
   */
  locations?: { limits?: LocationSessionLimits; retries?: number };
}

/** An empty or whitespace-only body (a real page is never small enough for this to cost anything). */
const isBlank = (body: Buffer) => body.length < 4096 && body.toString('utf8').trim().length === 0;

/**
 * Robot checks are small (5-10 KB; product, result and listing pages are 0.3-2 MB): a body this
 * small is classified here, at once, instead of waiting behind other pages for a parser thread.
 * The exit that got it must start resting before its next turn (about a second away).
 */
const SMALL_PAGE_BYTES = 64 * 1024;
const isSmallRobotCheck = (body: Buffer) => body.length < SMALL_PAGE_BYTES && detectPageKind(body) === 'captcha';

const fail = (code: CrawlErrorCode, detail: string, retryable: boolean, message: string = CRAWL_ERROR_MESSAGES[code]): CrawlOutcome => ({
  ok: false,
  code,
  message,
  detail,
  retryable,
});

/** An item of a page without a deliver-to block of its own carries the place its session's pages showed. */
function inheritLocation(item: ResultItem, location: DeliveryLocation): ResultItem {
  return 'deliveryLocation' in item && item.deliveryLocation == null ? ({ ...item, deliveryLocation: location } as ResultItem) : item;
}

/**
 * Fetches and parses one target, mapping every outcome as docs/fetch-contract.md says: 404 is final,
 * blocks / 429 / 5xx / timeouts are retryable (through another exit), a page that yields no
 * product is PARSE_ERROR. A robot check, an empty page or another product's page is never a
 * success. Requests go to the marketplace origin only (see targetUrl and fetchPage). Each
 * request waits for an exit that may send to the marketplace now (ExitPool), and tells it how
 * the request went, so a refused exit rests and the next attempt leaves from another.
 */
export class Crawler {
  /** The exit of each target's previous attempt, so that a retry leaves from another. */
  private lastExit = new Map<string, string>();
  readonly locations: LocationSessions;
  private readonly locationRetries: number;

  constructor(private readonly options: CrawlerOptions) {
    this.locations = new LocationSessions(options.locations?.limits);
    this.locationRetries = options.locations?.retries ?? 1;
  }

  async crawl(input: CrawlInput, attemptKey: string): Promise<CrawlOutcome> {
    const outcome = await this.attempt(input, attemptKey);
    if (!outcome.ok) {
      this.options.log?.warn(
        { attemptKey, type: input.type, marketplace: input.marketplace, code: outcome.code, detail: outcome.detail },
        'crawl attempt failed',
      );
    }
    return outcome;
  }

  private async attempt(input: CrawlInput, attemptKey: string): Promise<CrawlOutcome> {
    const origin = marketplaceOrigin(originFor(input.marketplace, this.options.origins));
    const url = targetUrl(input.type, input.target, origin, input.lang, input.page, input.sort ?? null, input.pageStyle ?? null);
    const lease = await this.options.exits.acquire(new URL(origin).host, this.lastExit.get(attemptKey), input.tenant, input.wanted);
    this.lastExit.set(attemptKey, lease.exit.spec.key);
    if (this.lastExit.size > 10_000) this.lastExit.delete(this.lastExit.keys().next().value!);
    if (!input.postalCode) return (await this.fetchThrough(lease, input, url, origin, lease.exit.session)).outcome;
    return this.locatedAttempt(input, url, origin, lease, input.postalCode);
  }

  private fetchOptions(input: CrawlInput, origin: string): FetchPageOptions {
    return {
      origin,
      timeoutMs: this.options.timeoutMs,
      acceptLanguage: acceptLanguage(input.lang ?? MARKETPLACES[input.marketplace].lang),
    };
  }

  /**
   * One page through `lease`'s exit and `session`: its outcome, and for a job with a postal code
   * its deliver-to block, read before the body goes to a parse thread (which takes its bytes).
   */
  private async fetchThrough(
    lease: ExitLease,
    input: CrawlInput,
    url: string,
    origin: string,
    session: LocationSession['session'],
  ): Promise<{ outcome: CrawlOutcome; block: ReturnType<typeof deliverToBlock> }> {
    let exitOutcome: ExitOutcome = 'other';
    try {
      const result = await fetchPage(url, session, this.fetchOptions(input, origin));
      const block = input.postalCode && result.kind === 'response' ? deliverToBlock(result.body, input.marketplace) : null;
      const { outcome, exit } = await this.classify(input, result, url, origin);
      exitOutcome = exit;
      return { outcome, block };
    } finally {
      this.done(lease, exitOutcome);
    }
  }

  /** A refused exit's identity is spent: its location sessions' cookies too (as freshIdentity for its own). */
  private done(lease: ExitLease, outcome: ExitOutcome): void {
    lease.done(outcome);
    if (outcome === 'blocked') this.locations.dropExit(lease.exit.spec.key);
  }

  /**
   * A page of a job with a postal code, through the location session of its exit: a page that
   * shows another place (or a refused address change) is never a success; the target gets a
   * fresh session `locationRetries` times, then fails LOCATION_MISMATCH (not retried: the
   * marketplace keeps showing another place).
   */
  private async locatedAttempt(
    input: CrawlInput,
    url: string,
    origin: string,
    first: ExitLease,
    postalCode: string,
  ): Promise<CrawlOutcome> {
    let lease: ExitLease | null = first;
    for (let round = 0; ; round++) {
      lease ??= await this.options.exits.acquire(new URL(origin).host, undefined, input.tenant, input.wanted);
      const entry = this.locations.get(lease.exit, input.marketplace, postalCode, input.tenant ?? '');
      const outcome = await this.throughLocation(input, url, origin, entry, lease);
      lease = null;
      if (!('mismatch' in outcome)) return outcome;
      this.locations.drop(entry);
      if (round >= this.locationRetries) return fail('LOCATION_MISMATCH', outcome.mismatch, false);
    }
  }

  /**
   * Sets the session up when it is new (once: other pages wait for the same setup), then fetches
   * the page through it and checks the place it shows. `lease` is this page's turn of the
   * session's exit; further requests (the setup's) wait for turns of that same exit.
   */
  private async throughLocation(
    input: CrawlInput,
    url: string,
    origin: string,
    entry: LocationSession,
    lease: ExitLease,
  ): Promise<CrawlOutcome | { mismatch: string }> {
    let unused: ExitLease | null = lease;
    const turn = async (): Promise<ExitLease> => {
      if (!unused) return this.options.exits.acquireExit(new URL(origin).host, entry.exitKey, input.wanted);
      const own = unused;
      unused = null;
      return own;
    };
    try {
      if (entry.setup && !this.locations.isSettled(entry) && unused) {
        // Another page's setup is under way. A turn is a moment, not a token: used once the setup
        // ends, it would leave with every other page that waited, at once (a robot check). It
        // goes unused; the page takes the exit's next turn after the setup.
        (unused as ExitLease).done('other');
        unused = null;
      }
      let interrupted: { err: unknown } | null = null;
      entry.setup ??= setUpLocation(origin, entry.postalCode, (u, xhr) => this.sendSetup(turn, entry, u, xhr, input, origin)).catch(
        (err: unknown): SetupResult => {
          // a cancel, a shutdown or a resting exit: this page's concern; pages waiting for the same setup retry
          interrupted = { err };
          return { ok: false, refused: false, code: 'UPSTREAM_ERROR', detail: 'location setup interrupted', retryable: true };
        },
      );
      const setup = await entry.setup;
      this.locations.settled(entry, setup);
      if (interrupted) {
        this.locations.drop(entry);
        throw (interrupted as { err: unknown }).err;
      }
      if (!setup.ok) {
        this.locations.drop(entry);
        return setup.refused ? { mismatch: setup.detail } : fail(setup.code, setup.detail, setup.retryable);
      }
      const { outcome, block } = await this.fetchThrough(await turn(), input, url, origin, entry.session);
      if (!outcome.ok) return outcome;
      const before = entry.lastShown ?? { text: entry.postalCode, postalCode: entry.postalCode };
      const check = checkPageLocation(block, entry.postalCode, before);
      if (!check.ok) {
        this.locations.mismatched();
        return { mismatch: check.detail };
      }
      if (!check.inherited) entry.lastShown = check.location;
      const items = check.inherited ? outcome.items.map((item) => inheritLocation(item, check.location)) : outcome.items;
      return { ...outcome, items, deliveryLocation: check.location };
    } catch (err) {
      if (err instanceof ExitResting) return fail('UPSTREAM_ERROR', `location session: ${err.message}`, true);
      throw err;
    } finally {
      if (unused) (unused as ExitLease).done('other');
    }
  }

  /** One request of a session's setup, on a turn of its exit. */
  private async sendSetup(
    turn: () => Promise<ExitLease>,
    entry: LocationSession,
    url: string,
    xhr: FetchPageOptions['xhr'],
    input: CrawlInput,
    origin: string,
  ): Promise<FetchResult> {
    const lease = await turn();
    let exit: ExitOutcome = 'other';
    try {
      const result = await fetchPage(url, entry.session, { ...this.fetchOptions(input, origin), ...(xhr ? { xhr } : {}) });
      exit = answerTrouble(result)?.exit ?? 'ok';
      return result;
    } finally {
      this.done(lease, exit);
    }
  }

  /** The crawl outcome of a fetch, and what it says about the exit it went through. */
  private async classify(
    input: CrawlInput,
    result: FetchResult,
    url: string,
    origin: string,
  ): Promise<{ outcome: CrawlOutcome; exit: ExitOutcome }> {
    if (result.kind !== 'response')
      return { outcome: this.unfetched(result, url), exit: result.kind === 'network_error' ? 'error' : 'other' };
    const { status, body } = result;
    const fetchedAt = new Date();
    const blocked = (detail: string) => ({ outcome: fail('BLOCKED', detail, true), exit: 'blocked' as const });
    if (status === 404 || status === 410) return { outcome: fail('NOT_FOUND', `${url} answered ${status}`, false), exit: 'ok' };
    if (status === 429) return blocked(`${url} answered 429 (throttled)`);
    if (status >= 500) {
      if ((await this.options.parser.pageKind(body).catch(() => 'unknown')) === 'captcha')
        return blocked(`robot check (HTTP ${status}) at ${url}`);
      return { outcome: fail('UPSTREAM_ERROR', `${url} answered ${status}`, true), exit: 'error' };
    }
    if (status < 200 || status >= 300) return blocked(`${url} answered ${status}`);
    if (isBlank(body)) return { outcome: fail('UPSTREAM_ERROR', `${url} answered an empty page`, true), exit: 'error' };
    if (isSmallRobotCheck(body)) return blocked(`robot check page at ${url}`);
    const page = await this.parsed(input, body, origin, fetchedAt);
    if (page.kind === 'captcha') return blocked(`robot check page at ${url}`);
    if (page.kind === 'signin') {
      const message = MARKETPLACE_KINDS[input.type].signInMessage ?? SIGNIN_MESSAGES.other;
      // The exit is not refused ('other': no rest, no fresh identity); another exit may get the page.
      const retryable = this.options.exits.exits.length > 1;
      return { outcome: { ok: false, code: 'BLOCKED', message, detail: `sign-in wall at ${url}`, retryable, signIn: true }, exit: 'other' };
    }
    const outcome = this.itemsOf(input, page, status, { origin, fetchedAt: fetchedAt.toISOString(), sourceUrl: url });
    // Page text can carry NULs or broken surrogates that Postgres cannot store.
    return { outcome: outcome.ok ? { ...outcome, items: sanitizeDeep(outcome.items) } : outcome, exit: 'ok' };
  }

  /** Parsed in the pool; a parser that throws is a page without what was asked for. */
  private async parsed(
    input: CrawlInput,
    html: Buffer,
    origin: string,
    fetchedAt: Date,
  ): Promise<ParsedPage | { kind: 'failed'; message: string }> {
    try {
      return await this.options.parser.parse({ type: input.type, html, marketplace: input.marketplace, origin, fetchedAt }, input.tenant);
    } catch (err) {
      return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * No page: a network failure is retried through another exit; a redirect off the origin is
   * final (the marketplace sent us elsewhere, and we do not go there); a redirect loop may be
   * a session's cookies, so another exit gets a try.
   */
  private unfetched(result: Exclude<FetchResult, { kind: 'response' }>, url: string): CrawlOutcome {
    if (result.kind === 'network_error') {
      return fail(
        'UPSTREAM_ERROR',
        result.timeout ? `${url} timed out after ${this.options.timeoutMs} ms (${result.message})` : `${url}: ${result.message}`,
        true,
      );
    }
    return fail('UPSTREAM_ERROR', `${url}: redirect not followed (${result.reason}) to ${result.location}`, result.reason === 'too_many');
  }

  /** The page's items, mapped by the module of the job type the page was fetched and parsed for. */
  private itemsOf(
    input: CrawlInput,
    page: ParsedPage | { kind: 'failed'; message: string },
    status: number,
    fetched: FetchedPage,
  ): CrawlOutcome {
    if (page.kind === 'failed') return fail('PARSE_ERROR', `the parser failed: ${page.message}`, false);
    if (page.kind === 'captcha' || page.kind === 'signin' || page.kind !== input.type)
      return fail('PARSE_ERROR', `a ${input.type} target got a ${page.kind} page`, false);
    const items = pageItems(input, page, fetched);
    if ('error' in items) return fail('PARSE_ERROR', items.error, false);
    return { ok: true, type: page.kind, status, ...items };
  }
}
