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
   * Folder of saved pages (`details-*.html`, `search-*.html`, `captcha-*.html`). Default: the
   * repository's shared fixtures when present; `null` forces the built-in synthetic pages.
   */
  fixturesDir?: string | null;
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
  /** Stops listening and destroys every open socket, including hung and keep-alive ones. */
  close(): Promise<void>;
}
