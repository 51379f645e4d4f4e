/**
 * Public types of the simulator. Kept apart from the server so the control API, the fault
 * engine and callers (tests, bench, chaos run) share one definition of a rule.
 */

export type Fault =
  /** Delay, then serve normally: exercises client timeouts that are longer than the delay. */
  | { kind: 'latency'; ms: number }
  /** Small HTML error body; 429 and 503 also send `Retry-After: 1` like Amazon's throttling pages. */
  | { kind: 'status'; status: number }
  /** Robot-check page with status 200, as Amazon serves it: only the body tells it apart. */
  | { kind: 'captcha' }
  /** Amazon's sign-in wall with status 200 (review pages without a signed-in session). */
  | { kind: 'signin' }
  /** 404 with an Amazon-like "Page Not Found" body. */
  | { kind: 'not_found' }
  /** Destroy the socket without answering (TCP reset where the platform allows it). */
  | { kind: 'reset' }
  /** Never answer; the socket is destroyed when the simulator closes. */
  | { kind: 'hang' }
  /** 200 with an empty body: a page that must never be stored as a success. */
  | { kind: 'empty' }
  /** The normal page with text replaced (e.g. a new price): a product that changed between crawls. */
  | { kind: 'rewrite'; replace: [from: string, to: string][] }
  /**
   * A redirect (default 302) to `location`, sent as given: a path, another host, a
   * protocol-relative `//host/...`. Tests of where a crawler follows redirects to.
   */
  | { kind: 'redirect'; location: string; status?: RedirectStatus };

export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/**
 * Offer listing served for an ASIN without a saved one: `legacy` = the saved "Buying Choices"
 * page re-targeted (no buy box marked), `aod` = the generated 2021+ All Offers Display page.
 */
export type OffersLayout = 'legacy' | 'aod';

export type FaultKind = Fault['kind'];

export interface FaultRule {
  /**
   * Matched against the request path+query. A string of the form `/source/flags` with flags or
   * a regex metacharacter in `source` is a regular expression (`'/\\/dp\\/B0.+/'`, `'/tv/i'`);
   * any other string, including `'/dp/'`, is a plain substring; absent matches every request.
   */
  match?: string;
  fault: Fault;
  /** Apply to the first N matching requests, then stop matching (default: always). */
  times?: number;
  /** 0..1, drawn per matching request from the simulator's seeded PRNG (default 1). */
  probability?: number;
}

export interface SimulatorOptions {
  /** Default 0: a random free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only); `0.0.0.0` when the simulator runs in its own container. */
  host?: string;
  /**
   * Folder of saved pages (`details-*.html`, `search-*.html`, `captcha-*.html`, ...). Default:
   * the folder `CRAWL_REAL_PAGES_DIR` names (`none`: no folder), else the saved real pages next to
   * the checkout when present (docs/testing.md); `null` forces the built-in pages.
   */
  fixturesDir?: string | null;
  /**
   * The built-in details and search pages show known values ($19.99, 4.5 stars, 1,234 ratings,
   * In Stock; search cards 4.3 stars, 512 ratings) that tests rewrite, rather than each product's
   * own. Default: true with `fixturesDir: null`, false otherwise (a plain clone's `pnpm start:sim`
   * shows varied products).
   */
  knownValues?: boolean;
  /** Initial drift epochs (see `setDrift`); default none. */
  drift?: Record<string, number>;
  /** Default true: any ASIN gets the details template with its ASIN substituted; false = 404. */
  anyAsin?: boolean;
  /** Default true: any keyword gets the search template; false = 404. */
  anyKeyword?: boolean;
  /** Seed of the PRNG used by `probability` rules, so fault sequences are reproducible. */
  seed?: number;
  /** File name (in fixturesDir) of the details template; default `details-US-B0DR8G428S.html`. */
  detailsTemplate?: string;
  /** File name (in fixturesDir) of the search template; default `search-US-portable-charger.html`. */
  searchTemplate?: string;
  /** Request log capacity (oldest entries are dropped). Default 10,000. */
  logLimit?: number;
  /**
   * Per-request latency drawn from a log-normal fitted to p50/p99, on every page answer
   * (faults and robot checks included, control routes never). Default off.
   */
  latency?: LatencyConfig | null;
  /**
   * Forward-proxy exits: N extra ports, each a distinct client identity ("exit i") that serves
   * only this simulator (absolute-form requests and CONNECT tunnels). Default 0.
   */
  exits?: number;
  /** First exit port (exit i listens on exitPortBase + i); default 0 = random free ports. */
  exitPortBase?: number;
  /** Robot-check rules per identity (each exit, and `direct`); default off. */
  antiBot?: AntiBotConfig | null;
}

export interface LatencyConfig {
  /** Median in ms; 0 turns latency off. */
  p50Ms: number;
  /** 99th percentile in ms (>= p50Ms; equal means a constant delay). Default p50Ms. */
  p99Ms?: number;
  /** Cap of a single draw, so the log-normal's tail cannot park a request for minutes. Default 4 x p99Ms. */
  maxMs?: number;
}

export interface AntiBotConfig {
  /** Block an identity that sends more than this many requests within any sliding 1000 ms. */
  maxRps?: number;
  /**
   * Block an identity that makes more than this many cookie-less visits (no session-id, or
   * one this simulator never issued) within `cookieWindowSeconds`.
   */
  maxCookielessVisits?: number;
  /** Window of the cookie rule; default 60. */
  cookieWindowSeconds?: number;
  /** How long a block lasts; default 60. Requests while blocked do not extend it. */
  blockSeconds?: number;
  /** Status of the robot-check answer while blocked: 200 (Amazon's usual, default) or 503. */
  blockStatus?: 200 | 503;
}

/** Which client identity a request came through: an exit index, or the main port. */
export type ExitId = number | 'direct';

export interface ExitStats {
  exit: ExitId;
  /** Listening port (the main port for `direct`). */
  port: number;
  /** Proxy URL to configure in a client (`http://127.0.0.1:port`). */
  url: string;
  /** Page requests received (control routes excluded). */
  requests: number;
  /** Requests answered with the robot check because this identity was blocked. */
  blocked: number;
  /** Blocks started so far. */
  blocks: number;
  /** End of the current block (ms since epoch), null when not blocked. */
  blockedUntil: number | null;
}

export interface RequestLogEntry {
  method: string;
  /** Path and query as requested. */
  path: string;
  status: number | 'reset' | 'hang';
  /** Arrival time (ms since epoch). */
  at: number;
  /** The request headers as received (lower-case names), incl. accept-language, user-agent, cookie. */
  headers: Record<string, string | string[] | undefined>;
  /** The exit the request came through; `direct` for the main port. */
  exit: ExitId;
  /** Present when the answer was an anti-bot robot check. */
  blocked?: true;
}

export interface Simulator {
  /** e.g. http://127.0.0.1:45123 */
  url: string;
  port: number;
  /** Replaces the rule list. Throws TypeError on an invalid rule (nothing is changed then). */
  setFaults(rules: FaultRule[]): void;
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  /** Requests served, oldest first (bounded by `logLimit`); control-API calls are not logged. */
  requests(): RequestLogEntry[];
  resetLog(): void;
  /** Proxy URLs of the exits, index = exit id (empty without `exits`). */
  exitUrls: string[];
  /** Counters and block state of every exit, index = exit id. */
  exits(): ExitStats[];
  /** Zeroes exit counters and lifts every block (also of `direct`). */
  resetExits(): void;
  /** Replaces the latency distribution; null or p50Ms 0 turns it off. Throws TypeError when invalid. */
  setLatency(config: LatencyConfig | null): void;
  /** Replaces the anti-bot rules; null turns them off (current blocks are lifted). Throws TypeError when invalid. */
  setAntiBot(config: AntiBotConfig | null): void;
  /**
   * Replaces the page counts: `{ keyword or ASIN: pages }` (result pages of a keyword, review
   * pages of an ASIN; default 7 and 10); null clears them. Throws TypeError when invalid.
   */
  setPageCounts(counts: Record<string, number> | null): void;
  /**
   * Layout of the offer listing for ASINs without a saved one (default `legacy`); saved
   * listings are served as saved. Throws TypeError on anything but `legacy` or `aod`.
   */
  setOffersLayout(layout: OffersLayout): void;
  /**
   * Replaces the drift epochs: `{ ASIN | keyword | category | '*': epoch }`. A built-in page of a
   * target at epoch n > 0 has another price, stock, rating and count of ratings than at 0 (the
   * same ones for the same n), so a recrawl sees a changed product; null clears them. Throws
   * TypeError when invalid.
   */
  setDrift(epochs: Record<string, number> | null): void;
  /**
   * The places sessions chose through the "Deliver to" flow (session id, marketplace, postal
   * code) and the refused postal codes.
   */
  locations(): { sessions: { sessionId: string; marketplace: string; postalCode: string }[]; refused: PostalRefusal[] };
  /**
   * Drops the chosen place of every session that chose `postalCode` (every session without it),
   * as when Amazon forgets a location: their pages show the marketplace's default place again.
   * Returns how many sessions lost theirs.
   */
  expireLocations(postalCode?: string | null): number;
  /**
   * Replaces the refused postal codes (null clears them): an address change to one answers
   * `isAddressUpdated: 0` (`mode: 'not-updated'`, the default) or says it was updated while the
   * session keeps showing the place it had (`'other-place'`). Case, spaces and hyphens ignored.
   * Throws TypeError when invalid.
   */
  setRefusedPostalCodes(refusals: PostalRefusal[] | null): void;
  /** Stops listening and destroys every open socket, including hung and keep-alive ones. */
  close(): Promise<void>;
}

/** A postal code the address change refuses (`Simulator.setRefusedPostalCodes`). */
export interface PostalRefusal {
  postalCode: string;
  /** 'not-updated' (default): the answer says not updated; 'other-place': it says updated, pages keep the place before. */
  mode?: 'not-updated' | 'other-place';
}
