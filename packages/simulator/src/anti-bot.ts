/**
 * Robot-check rules per client identity (each exit, and `direct` for the main port), the way
 * a marketplace treats one IP address:
 *
 * - rate: more than `maxRps` requests within any sliding 1000 ms window starts a block;
 * - cookies: a request without a `session-id` cookie this simulator issued (none, or an
 *   unknown/forged one) is a cookie-less visit and is handed a new session-id. More than
 *   `maxCookielessVisits` of them within `cookieWindowSeconds` starts a block. A crawler that
 *   keeps one cookie jar per exit pays one cookie-less visit per jar (a few more when it sends
 *   several requests before the first answer arrives), so a handful of worker processes each
 *   starting once stays under the limit; a crawler that never sends cookies back makes every
 *   request a cookie-less visit and is blocked after `maxCookielessVisits + 1` requests.
 *
 * A blocked identity gets the robot-check page for `blockSeconds`, then recovers with clean
 * counters. Requests while blocked neither extend the block nor count toward a new one, so a
 * recovery time is exactly T. Every check is O(1): the sliding windows are rings of the last
 * limit+1 timestamps (the window is exceeded when the oldest of them is still inside it).
 */
import type { AntiBotConfig, ExitId, ExitStats } from './types';

const DEFAULT_BLOCK_SECONDS = 60;
const DEFAULT_COOKIE_WINDOW_SECONDS = 60;
/** Issued session ids remembered; beyond that the oldest are forgotten (and count as forged). */
const MAX_SESSIONS = 200_000;

export type ResolvedAntiBot = Required<Omit<AntiBotConfig, 'maxRps' | 'maxCookielessVisits'>> &
  Pick<AntiBotConfig, 'maxRps' | 'maxCookielessVisits'>;

function fail(message: string): never {
  throw new TypeError(`invalid antiBot: ${message}`);
}

function positiveInt(value: unknown, name: string, allowZero = false): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1))
    fail(`${name} must be an integer >= ${allowZero ? 0 : 1}`);
  return value;
}

/** Checks a config (e.g. parsed JSON); null, or one without any rule, means off. */
export function validateAntiBot(input: unknown): ResolvedAntiBot | null {
  if (input === null || input === undefined) return null;
  if (typeof input !== 'object' || Array.isArray(input)) fail('must be an object or null');
  const raw = input as Record<string, unknown>;
  const maxRps = positiveInt(raw.maxRps, 'maxRps');
  const maxCookielessVisits = positiveInt(raw.maxCookielessVisits, 'maxCookielessVisits', true);
  const blockSeconds = raw.blockSeconds ?? DEFAULT_BLOCK_SECONDS;
  if (typeof blockSeconds !== 'number' || !(blockSeconds > 0) || !Number.isFinite(blockSeconds)) fail('blockSeconds must be a number > 0');
  const cookieWindowSeconds = raw.cookieWindowSeconds ?? DEFAULT_COOKIE_WINDOW_SECONDS;
  if (typeof cookieWindowSeconds !== 'number' || !(cookieWindowSeconds > 0) || !Number.isFinite(cookieWindowSeconds))
    fail('cookieWindowSeconds must be a number > 0');
  const blockStatus = raw.blockStatus ?? 200;
  if (blockStatus !== 200 && blockStatus !== 503) fail('blockStatus must be 200 or 503');
  if (maxRps === undefined && maxCookielessVisits === undefined) return null;
  return { maxRps, maxCookielessVisits, blockSeconds, cookieWindowSeconds, blockStatus };
}

/** The last `limit + 1` event times; `hit` says whether more than `limit` fell within `windowMs`. */
class SlidingWindow {
  private readonly times: Float64Array;
  private next = 0;
  private count = 0;

  constructor(private readonly limit: number) {
    this.times = new Float64Array(limit + 1);
  }

  hit(now: number, windowMs: number): boolean {
    this.times[this.next] = now;
    this.next = (this.next + 1) % this.times.length;
    if (this.count < this.times.length) this.count += 1;
    // Full ring: `next` now points at the oldest of the last limit+1 events.
    return this.count === this.times.length && now - this.times[this.next]! < windowMs;
  }
}

/** One client identity: counters, block state and its rule windows. */
export class Identity {
  requests = 0;
  blocked = 0;
  blocks = 0;
  blockedUntil = 0;
  private rate: SlidingWindow | null = null;
  private cookieless: SlidingWindow | null = null;

  constructor(
    readonly exit: ExitId,
    readonly port: number,
    readonly url: string,
  ) {}

  /**
   * Counts a request and says whether it gets the robot check. `cookieless` is whether it
   * carried no valid session-id.
   */
  admit(rules: ResolvedAntiBot | null, cookieless: boolean, now: number): boolean {
    this.requests += 1;
    if (!rules) return false;
    if (this.blockedUntil > now) {
      this.blocked += 1;
      return true;
    }
    let over = false;
    if (rules.maxRps !== undefined) {
      this.rate ??= new SlidingWindow(rules.maxRps);
      over = this.rate.hit(now, 1000);
    }
    if (cookieless && rules.maxCookielessVisits !== undefined) {
      this.cookieless ??= new SlidingWindow(rules.maxCookielessVisits);
      over = this.cookieless.hit(now, rules.cookieWindowSeconds * 1000) || over;
    }
    if (!over) return false;
    this.blockedUntil = now + rules.blockSeconds * 1000;
    this.blocks += 1;
    this.blocked += 1;
    this.rate = null; // recovery starts from clean windows
    this.cookieless = null;
    return true;
  }

  /** New rules: windows sized for the old limits are dropped. */
  resetWindows(): void {
    this.rate = null;
    this.cookieless = null;
  }

  reset(): void {
    this.requests = 0;
    this.blocked = 0;
    this.blocks = 0;
    this.blockedUntil = 0;
    this.resetWindows();
  }

  stats(now: number): ExitStats {
    return {
      exit: this.exit,
      port: this.port,
      url: this.url,
      requests: this.requests,
      blocked: this.blocked,
      blocks: this.blocks,
      blockedUntil: this.blockedUntil > now ? this.blockedUntil : null,
    };
  }
}

/** Amazon-shaped session id (`123-1234567-1234567`), unique per simulator instance. */
function sessionIdFactory(): () => string {
  const prefix = 100 + Math.floor(Math.random() * 900);
  let n = Math.floor(Math.random() * 1e9);
  return () => {
    n += 1;
    return `${prefix}-${String(Math.floor(n / 1e7) % 1e7).padStart(7, '0')}-${String(n % 1e7).padStart(7, '0')}`;
  };
}

const SESSION_ID_RE = /(?:^|;)\s*session-id=([^;]*)/;

/** Session ids this simulator issued (bounded, oldest forgotten first). */
export class SessionRegistry {
  private readonly issued = new Set<string>();
  private readonly nextId = sessionIdFactory();

  issue(): string {
    const id = this.nextId();
    this.issued.add(id);
    if (this.issued.size > MAX_SESSIONS) {
      // Sets iterate in insertion order: the first value is the oldest.
      for (const oldest of this.issued) {
        this.issued.delete(oldest);
        break;
      }
    }
    return id;
  }

  /** The request's session-id cookie value, null when absent. */
  static cookieOf(cookieHeader: string | undefined): string | null {
    if (!cookieHeader) return null;
    const m = SESSION_ID_RE.exec(cookieHeader);
    return m ? m[1]!.trim() : null;
  }

  isKnown(id: string | null): boolean {
    return id !== null && this.issued.has(id);
  }
}
