import type { MarketplaceCode } from '@crawl/core';
import type { DeliveryLocation } from '../parsers/delivery-location';
import type { Exit } from './exits';
import type { SetupResult } from './location-setup';
import { type CrawlSession, cookieSession } from './sessions';

/**
 * The bounds of a worker's location sessions (docs/crawling.md, "Delivery location"). A session
 * is a cookie jar (Amazon sets about ten cookies: a few KB) on its exit's keep-alive agents, so
 * 256 cost about 1-2 MB; what bounds them is the setup cost (three requests through the exit,
 * about 4 s of its turns at 0.8/s), which a session saves for every page after it.
 */
export interface LocationSessionLimits {
  /** Sessions in this process at once; the least recently used goes first. */
  max: number;
  /**
   * Sessions one tenant may hold at once, at which its next one replaces its own least recently
   * used. A tenant needs one per exit and postal code (one code through 50 exits is 50), so the
   * default is `max`: what shares a full process is the biggest holder giving up its oldest.
   */
  perTenant: number;
  /** A session unused this long is dropped (its cookies would be stale anyway). */
  idleMs: number;
}

export const LOCATION_SESSION_LIMITS: LocationSessionLimits = { max: 256, perTenant: 256, idleMs: 10 * 60_000 };

/** How a setup ended: set, refused by the marketplace (not updated), or failed like a page (robot check, 5xx, no token, interrupted). */
export type SetupOutcome = 'ok' | 'refused' | 'blocked' | 'upstream_error';

/** What `/metrics` shows of a worker's location sessions (read on scrape, services/worker/src/metrics.ts). */
export interface LocationSessionStats {
  /** Sessions held now. */
  live: number;
  /** An estimate of their heap (sessionBytes), in bytes. */
  bytes: number;
  /** Setups since the process started, by how they ended. */
  setups: Record<SetupOutcome, number>;
  /** Pages through a set-up session that showed another place or none, since the process started. */
  mismatches: number;
}

/**
 * Heap of a location session without cookies (its entry, its CrawlSession, an empty jar and
 * store), and of each cookie besides its name and value, measured with `node --expose-gc` over
 * 2,000 sessions (1.5 KB; 3 cookies 3.5 KB; ten Amazon-like cookies 7.2 KB each).
 */
const SESSION_BYTES = 1_536;
const COOKIE_BYTES = 560;

/** The estimated heap of `session`: its fixed part and its cookies (names and values are one-byte strings). */
export function sessionBytes(session: LocationSession['session']): number {
  const { cookies } = session.cookieJar.serializeSync();
  return cookies.reduce((sum, c) => sum + COOKIE_BYTES + String(c.key ?? '').length + String(c.value ?? '').length, SESSION_BYTES);
}

/** A session of one (exit, marketplace, postal code): cookies that carry the delivery location. */
export interface LocationSession {
  readonly key: string;
  readonly exitKey: string;
  readonly postalCode: string;
  /** The tenant whose request made it, and whose share it counts against. */
  readonly tenant: string;
  readonly session: CrawlSession;
  /** Its address change, made once; pages that arrive meanwhile wait for the same one. */
  setup: Promise<SetupResult> | null;
  /** The location the last page with a deliver-to block showed (what pages without one inherit). */
  lastShown: DeliveryLocation | null;
  lastUsed: number;
}

function setupOutcome(result: SetupResult): SetupOutcome {
  if (result.ok) return 'ok';
  if (result.refused) return 'refused';
  return result.code === 'BLOCKED' ? 'blocked' : 'upstream_error';
}

/**
 * The location sessions of a worker process: an LRU over (exit, marketplace, postal code),
 * bounded in number (`max`), per tenant (`perTenant`) and in idle time (`idleMs`). When the
 * process is full, the session to go is the least recently used one of the tenant that holds
 * the most, so one tenant's many postal codes take sessions from itself, not from others.
 * A dropped session is only forgotten: a page in flight through it finishes with its jar.
 */
export class LocationSessions {
  /** In least recently used order (a used entry is moved to the end). */
  private readonly entries = new Map<string, LocationSession>();
  private readonly held = new Map<string, number>();
  private ids = 0;
  /** Entries whose setup was counted: the pages waiting for one setup report it each. */
  private readonly settledEntries = new WeakSet<LocationSession>();
  private readonly setups: Record<SetupOutcome, number> = { ok: 0, refused: 0, blocked: 0, upstream_error: 0 };
  private mismatches = 0;

  constructor(readonly limits: LocationSessionLimits = LOCATION_SESSION_LIMITS) {
    if (limits.max < 1 || limits.perTenant < 1) throw new Error('location sessions need max and perTenant of at least 1');
  }

  /** The session of (exit, marketplace, postal code), made (not yet set up) when there is none. */
  get(exit: Exit, marketplace: MarketplaceCode, postalCode: string, tenant: string, now = Date.now()): LocationSession {
    this.dropIdle(now);
    const key = `${exit.spec.key}|${marketplace}|${postalCode}`;
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
      found.lastUsed = now;
      return found;
    }
    this.makeRoom(tenant);
    const entry: LocationSession = {
      key,
      exitKey: exit.spec.key,
      postalCode,
      tenant,
      session: cookieSession(exit.session, 1_000_000 + this.ids++),
      setup: null,
      lastShown: null,
      lastUsed: now,
    };
    this.entries.set(key, entry);
    this.held.set(tenant, (this.held.get(tenant) ?? 0) + 1);
    return entry;
  }

  /** Forgets `entry` (refused, or its page showed another place): the next page gets a fresh one. */
  drop(entry: LocationSession): void {
    if (this.entries.get(entry.key) !== entry) return;
    this.entries.delete(entry.key);
    const n = (this.held.get(entry.tenant) ?? 1) - 1;
    if (n > 0) this.held.set(entry.tenant, n);
    else this.held.delete(entry.tenant);
  }

  /** Forgets every session of an exit that was refused: its identity is spent (as freshIdentity does). */
  dropExit(exitKey: string): void {
    for (const entry of [...this.entries.values()]) if (entry.exitKey === exitKey) this.drop(entry);
  }

  /**
   * `entry`'s setup ended with `result`: counted once per session, whichever of the pages that
   * waited for it reports it (the crawler reports it from every page that awaited the setup).
   */
  settled(entry: LocationSession, result: SetupResult): void {
    if (this.settledEntries.has(entry)) return;
    this.settledEntries.add(entry);
    this.setups[setupOutcome(result)] += 1;
  }

  /** Whether `entry`'s setup has ended (and been reported): a page that finds it unsettled waits for it. */
  isSettled(entry: LocationSession): boolean {
    return this.settledEntries.has(entry);
  }

  /** A page through a set-up session showed another place or none. */
  mismatched(): void {
    this.mismatches += 1;
  }

  /** The sessions held now, their estimated heap, and the setups and mismatches since start. Walks every session's jar: for a scrape, not a page. */
  stats(): LocationSessionStats {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += sessionBytes(entry.session);
    return { live: this.entries.size, bytes, setups: { ...this.setups }, mismatches: this.mismatches };
  }

  get size(): number {
    return this.entries.size;
  }

  /** Sessions `tenant` holds. */
  heldBy(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  has(entry: LocationSession): boolean {
    return this.entries.get(entry.key) === entry;
  }

  private dropIdle(now: number): void {
    for (const entry of this.entries.values()) {
      if (now - entry.lastUsed < this.limits.idleMs) break;
      this.drop(entry);
    }
  }

  /** Room for one more session of `tenant`: its own oldest at its cap, else the biggest holder's oldest when full. */
  private makeRoom(tenant: string): void {
    if (this.heldBy(tenant) >= this.limits.perTenant) {
      this.drop(this.oldestOf(tenant)!);
      return;
    }
    if (this.entries.size < this.limits.max) return;
    let biggest = tenant;
    for (const [t, n] of this.held) if (n > this.heldBy(biggest)) biggest = t;
    const victim = this.oldestOf(biggest) ?? this.entries.values().next().value!;
    this.drop(victim);
  }

  private oldestOf(tenant: string): LocationSession | undefined {
    for (const entry of this.entries.values()) if (entry.tenant === tenant) return entry;
    return undefined;
  }
}
