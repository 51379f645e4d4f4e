import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { type CrawlSession, createSession, destroySession, freshIdentity } from './sessions';
import { TurnQueue } from '../turn-queue';

/**
 * Exits: where a request leaves for the marketplace, i.e. a proxy, or this machine's own
 * connection when there are no proxies. Politeness is per (marketplace host, exit), because a
 * marketplace sees and throttles addresses, not our fleet: each exit gets at most `rps`
 * requests per second to a host, shared by every worker process through Redis (the gate), so
 * the fleet's throughput grows with its exits, not with its worker count.
 *
 * Each exit has one session (cookie jar, user agent, keep-alive agents): a marketplace ties its
 * cookies to the address that got them. Jobs with a delivery location use location sessions of
 * the exit instead (location-sessions.ts). An exit that is refused (robot check, 429) or keeps
 * failing is rested for a cooldown that doubles per consecutive refusal, in every process, and
 * its traffic goes to the other exits meanwhile.
 */

export interface ExitSpec {
  /** Stable identity: shared by every process that uses the same proxy (or machine). */
  key: string;
  /** For logs and metrics: never carries proxy credentials. */
  label: string;
  proxy: string | null;
  /** Requests per second to one marketplace host through this exit. */
  rps: number;
  /** Requests in flight through this exit at once, over all processes; 0 = no cap. */
  maxInFlight: number;
}

export interface ExitDefaults {
  /** Per-exit rate for proxies that do not set their own (`#rps=`). */
  rps: number;
}

/**
 * Exits from PROXY_URLS. A proxy URL may carry settings in its fragment (never sent anywhere):
 * `http://user:pass@gw.example:8000#rps=20&inflight=50` for a provider's rotating gateway, which
 * gives every request another exit address, so one URL may take the politeness of many exits.
 * Without proxies there is one exit, this machine (processes on one machine share its address,
 * so they share its limit).
 */
export function exitsFrom(proxyUrls: string[], defaults: ExitDefaults): ExitSpec[] {
  if (!proxyUrls.length) {
    const machine = hostname();
    return [{ key: `direct:${machine}`, label: 'direct', proxy: null, rps: defaults.rps, maxInFlight: 0 }];
  }
  return proxyUrls.map((raw, i) => {
    const url = new URL(raw);
    const settings = new URLSearchParams(url.hash.slice(1));
    url.hash = '';
    const number = (name: string, fallback: number) => {
      const value = settings.get(name);
      if (value === null) return fallback;
      const n = Number(value);
      if (!Number.isFinite(n) || n <= 0) throw new Error(`PROXY_URLS entry ${i + 1}: #${name} must be a positive number`);
      return n;
    };
    const proxy = url.toString();
    const hostPort = `${url.hostname}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
    return {
      // the credentials are part of the identity (a provider's sessions/zones) but are hashed
      key: `proxy:${createHash('sha256').update(proxy).digest('hex').slice(0, 16)}`,
      label: `proxy-${i + 1}@${hostPort}`,
      proxy,
      rps: number('rps', defaults.rps),
      maxInFlight: Math.floor(number('inflight', 0) || 0),
    };
  });
}

export type ExitOutcome = 'ok' | 'blocked' | 'error' | 'other';

/** Shared admission of requests to exits (Redis in the worker; see packages/queue SpacingLimiter). */
export interface ExitGate {
  /** Books the first exit in `order` that may send to `host` now, or says how long to wait. */
  pick(host: string, order: ExitSpec[], leaseMs: number): Promise<{ index: number; release(): Promise<void> } | { waitMs: number }>;
  /** Rests an exit for `host` in every process. */
  coolDown(host: string, exit: ExitSpec, ms: number): Promise<void>;
}

export interface ExitEvents {
  onRequest?(exit: string, outcome: ExitOutcome): void;
  onCooldown?(exit: string, ms: number): void;
  onGateError?(err: unknown): void;
}

export interface ExitPoolOptions extends ExitEvents {
  gate: ExitGate;
  /** First cooldown of a refused exit; doubles per consecutive refusal up to `maxCooldownMs`. */
  cooldownMs: number;
  maxCooldownMs: number;
  /** A booked slot of a capped exit is given back after this long even if never released. */
  leaseMs: number;
}

export interface Exit {
  readonly spec: ExitSpec;
  readonly session: CrawlSession;
  /** Consecutive refusals and failures, reset by a success. */
  refusals: number;
  failures: number;
}

export interface ExitLease {
  exit: Exit;
  /** Reports how the request went and gives the slot back. */
  done(outcome: ExitOutcome): void;
}

/**
 * Why a waiting request was given no exit: its job was cancelled meanwhile (`cancelled`), or
 * this process is shutting down and hands its waiting work back to the queue (`withdrawn`).
 * Either way nothing was sent.
 */
export class ExitTurnRefused extends Error {
  constructor(readonly reason: 'cancelled' | 'withdrawn') {
    super(reason === 'cancelled' ? 'the request is no longer wanted (its job was cancelled)' : 'the exit pool is shutting down');
    this.name = 'ExitTurnRefused';
  }
}

/**
 * Asked when a waiting request reaches the front of its line, before it takes an exit's turn:
 * false drops it (ExitTurnRefused 'cancelled'). Called once per turn, so it should be cached.
 */
export type StillWanted = () => Promise<boolean>;

/**
 * Why a request pinned to one exit (a location session's, see acquireExit) was given no turn:
 * the exit rests longer than the request may wait. Nothing was sent.
 */
export class ExitResting extends Error {
  constructor() {
    super('the exit rests longer than the request may wait');
    this.name = 'ExitResting';
  }
}

/**
 * How long a request pinned to one exit waits for its turn: a few of that exit's turns, not a
 * cooldown (60 s and more), which fails the request instead (ExitResting).
 */
const PINNED_MAX_WAIT_MS = 10_000;

/** How long a retry waits for another exit before it may take the one that failed it again. */
const AVOIDED_EXIT_WAIT_MS = 2_000;

/** Consecutive upstream failures (5xx, timeouts) of an exit that count as a storm. */
const FAILURE_STORM = 3;

interface Waiter {
  avoid?: string;
  wanted?: StillWanted;
  resolve(lease: ExitLease): void;
  reject(err: unknown): void;
}

/** One host's waiting requests, taken by tenant in turn (see TurnQueue). */
class WaitQueue extends TurnQueue<Waiter> {
  pumping = false;
}

/**
 * The exits of this process, and the queue through which its requests wait for one. A single
 * loop asks the gate on behalf of the next waiter, so hundreds of waiting fetches cost one
 * Redis call per granted request (plus one per wait), not a poll each. When the gate cannot
 * be reached, requests go ahead through the exits in turn (fail open: the queue itself runs on
 * Redis, so such a worker is about to stall anyway).
 */
export class ExitPool {
  readonly exits: Exit[];
  /** Waiting requests per marketplace host: a host whose exits are all busy holds up no other. */
  private readonly queues = new Map<string, WaitQueue>();
  private cursor = Math.floor(Math.random() * 1_000_000);
  private closed = false;
  private withdrawn = false;

  constructor(
    specs: ExitSpec[],
    private readonly options: ExitPoolOptions,
  ) {
    if (!specs.length) throw new Error('ExitPool needs at least one exit');
    this.exits = specs.map((spec, i) => ({ spec, session: createSession(i, spec.proxy), refusals: 0, failures: 0 }));
  }

  /**
   * Waits for an exit that may send to `host` now; `avoid` (an exit key, for a retry) only when
   * every other one rests. `tenant` (the job's project) is whose turn this request waits in: one
   * tenant's backlog does not hold up another tenant's first request. `wanted` is asked when
   * the request reaches the front, before it takes a turn (a cancelled job's requests take none).
   */
  acquire(host: string, avoid?: string, tenant = '', wanted?: StillWanted): Promise<ExitLease> {
    if (this.closed) return Promise.reject(new Error('exit pool closed'));
    if (this.withdrawn) return Promise.reject(new ExitTurnRefused('withdrawn'));
    let queue = this.queues.get(host);
    if (!queue) this.queues.set(host, (queue = new WaitQueue()));
    const q = queue;
    return new Promise<ExitLease>((resolve, reject) => {
      q.push(tenant, { avoid, wanted, resolve, reject });
      void this.pump(host, q);
    });
  }

  /**
   * Waits for a turn of one exit (`exitKey`) to `host`: the requests of a location session
   * (docs/crawling.md, "Delivery location") must leave where its cookies were set, and count
   * against that exit's politeness like any page. Not queued behind other tenants' waiting
   * requests (a session's setup takes a few turns, once), but the same shared gate decides when.
   * Rejects with ExitResting when the exit's turn is further away than `maxWaitMs`.
   */
  async acquireExit(host: string, exitKey: string, wanted?: StillWanted, maxWaitMs = PINNED_MAX_WAIT_MS): Promise<ExitLease> {
    const exit = this.exits.find((e) => e.spec.key === exitKey);
    if (!exit) throw new Error('no such exit');
    const giveUpAt = Date.now() + maxWaitMs;
    for (;;) {
      if (this.closed) throw new Error('exit pool closed');
      if (this.withdrawn) throw new ExitTurnRefused('withdrawn');
      if (wanted && !(await this.stillWanted(wanted))) throw new ExitTurnRefused('cancelled');
      let pick: Awaited<ReturnType<ExitGate['pick']>>;
      try {
        pick = await this.options.gate.pick(host, [exit.spec], this.options.leaseMs);
      } catch (err) {
        this.options.onGateError?.(err);
        pick = { index: 0, release: async () => undefined };
      }
      if (!('waitMs' in pick)) return this.lease(host, exit, pick.release);
      if (Date.now() + pick.waitMs > giveUpAt) throw new ExitResting();
      await new Promise((r) => setTimeout(r, Math.min(pick.waitMs, 1_000) + Math.floor(Math.random() * 5)));
    }
  }

  private order(avoid?: string): ExitSpec[] {
    const n = this.exits.length;
    const start = this.cursor++ % n;
    const ordered = Array.from({ length: n }, (_, i) => this.exits[(start + i) % n]!.spec);
    if (avoid === undefined || n === 1) return ordered;
    return ordered.filter((s) => s.key !== avoid);
  }

  private async pump(host: string, queue: WaitQueue): Promise<void> {
    if (queue.pumping) return;
    queue.pumping = true;
    try {
      for (let waiter = queue.peek(); waiter && !this.closed; waiter = queue.peek()) {
        if (waiter.wanted && !(await this.stillWanted(waiter.wanted))) {
          // only this loop takes waiters off the front, but a withdraw may have emptied the line
          if (queue.peek() === waiter) queue.shift();
          waiter.reject(new ExitTurnRefused('cancelled'));
          continue;
        }
        if (queue.peek() !== waiter) continue;
        let order = this.order(waiter.avoid);
        let pick: Awaited<ReturnType<ExitGate['pick']>>;
        try {
          pick = await this.options.gate.pick(host, order, this.options.leaseMs);
          // A retry leaves from another exit than the one that just failed it, waiting for another's
          // turn; only when every other exit rests (a long wait) may it take the failed one again.
          if ('waitMs' in pick && pick.waitMs > AVOIDED_EXIT_WAIT_MS && waiter.avoid !== undefined && order.length < this.exits.length) {
            order = [...order, this.exits.find((e) => e.spec.key === waiter.avoid)!.spec];
            pick = await this.options.gate.pick(host, order, this.options.leaseMs);
          }
        } catch (err) {
          this.options.onGateError?.(err);
          pick = { index: 0, release: async () => undefined };
        }
        if ('waitMs' in pick) {
          await new Promise((r) => setTimeout(r, Math.min(pick.waitMs, 1_000) + Math.floor(Math.random() * 5)));
          continue;
        }
        if (queue.peek() !== waiter) {
          // withdrawn while the gate answered: the booked turn goes unused
          void pick.release().catch(() => undefined);
          continue;
        }
        queue.shift();
        const spec = order[pick.index]!;
        waiter.resolve(
          this.lease(
            host,
            this.exits.find((e) => e.spec === spec)!,
            pick.release,
          ),
        );
      }
    } finally {
      queue.pumping = false;
    }
  }

  /** A failing check keeps the request (a cancel is rare; a lost request is not). */
  private async stillWanted(wanted: StillWanted): Promise<boolean> {
    try {
      return await wanted();
    } catch {
      return true;
    }
  }

  private lease(host: string, exit: Exit, release: () => Promise<void>): ExitLease {
    let finished = false;
    return {
      exit,
      done: (outcome) => {
        if (finished) return;
        finished = true;
        void release().catch(() => undefined);
        this.record(host, exit, outcome);
      },
    };
  }

  private record(host: string, exit: Exit, outcome: ExitOutcome): void {
    this.options.onRequest?.(exit.spec.label, outcome);
    if (outcome === 'ok') {
      exit.refusals = 0;
      exit.failures = 0;
      return;
    }
    if (outcome === 'blocked') {
      exit.refusals += 1;
      exit.failures = 0;
      // a refused identity is spent: new cookies and another browser before it is used again
      freshIdentity(exit.session);
      this.rest(host, exit, this.options.cooldownMs * 2 ** Math.min(exit.refusals - 1, 16));
    } else if (outcome === 'error') {
      exit.failures += 1;
      if (exit.failures >= FAILURE_STORM) {
        exit.failures = 0;
        this.rest(host, exit, this.options.cooldownMs);
      }
    }
  }

  private rest(host: string, exit: Exit, ms: number): void {
    const cooldown = Math.min(ms, this.options.maxCooldownMs);
    this.options.onCooldown?.(exit.spec.label, cooldown);
    void this.options.gate.coolDown(host, exit.spec, cooldown).catch((err) => this.options.onGateError?.(err));
  }

  /** Requests waiting for an exit, over all hosts. */
  get waiting(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.size;
    return n;
  }

  /**
   * Shutdown: every waiting request, and every later one, is refused with ExitTurnRefused
   * 'withdrawn' (its task goes back to the queue for another worker); leases already granted
   * (fetches in flight) are unaffected.
   */
  withdraw(): void {
    this.withdrawn = true;
    for (const q of this.queues.values()) for (const w of q.drain()) w.reject(new ExitTurnRefused('withdrawn'));
  }

  destroy(): void {
    this.closed = true;
    for (const q of this.queues.values()) for (const w of q.drain()) w.reject(new Error('exit pool closed'));
    for (const e of this.exits) destroySession(e.session);
  }
}
