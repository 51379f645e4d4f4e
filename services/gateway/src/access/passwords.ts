import { hash, verify } from '@node-rs/argon2';
import { AppError, PASSWORD_MAX_LENGTH } from '@crawl/core';

/**
 * argon2id with OWASP's first recommended setting (19 MiB of memory, 2 passes, 1 lane): about
 * 30 ms of one core per hash here. Hashing runs on libuv's thread pool, never on the event loop.
 * `maxConcurrent` caps how many run at once and `maxQueued` how many may wait, so a burst of
 * sign-ins can neither take every thread and all memory nor build a queue that makes everyone
 * wait seconds (docs/accounts.md, "Passwords").
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Who waits for a hash:
 * - `trusted`: a browser that signed in to this account before (a device cookie): served first,
 *   never shed, so a flood of strangers' sign-ins does not lock out the people who use the service;
 * - `anonymous`: any other request that hashes before answering: shed with 503 once `maxQueued`
 *   are waiting;
 * - `background`: work after the answer was sent (a sign-up): it cannot be shed any more, and
 *   waits behind the others.
 */
export type HashLane = 'trusted' | 'anonymous' | 'background';

export interface PasswordHasherOptions {
  maxConcurrent: number;
  maxQueued: number;
}

export const DEFAULT_HASHER_OPTIONS: PasswordHasherOptions = { maxConcurrent: 2, maxQueued: 32 };

const LANES: readonly HashLane[] = ['trusted', 'anonymous', 'background'];

export class PasswordHasher {
  private running = 0;
  private readonly waiting: Record<HashLane, Array<() => void>> = { trusted: [], anonymous: [], background: [] };
  /** A hash of a random password: unknown emails are verified against it, so they take as long as known ones. */
  private readonly decoy: Promise<string>;

  constructor(private readonly options: PasswordHasherOptions = DEFAULT_HASHER_OPTIONS) {
    this.decoy = hash(`decoy-${Math.random()}-${Date.now()}`, ARGON2ID);
  }

  /** Whether an `anonymous` hash would be queued now rather than shed (checked before a sign-up answers). */
  hasRoom(): boolean {
    return this.running < this.options.maxConcurrent || this.waiting.anonymous.length < this.options.maxQueued;
  }

  async hash(password: string, lane: HashLane = 'anonymous'): Promise<string> {
    return this.limited(lane, () => hash(password.slice(0, PASSWORD_MAX_LENGTH), ARGON2ID));
  }

  /** True when `password` matches `stored`; with no stored hash, the same work is done and false returned. */
  async verify(stored: string | undefined, password: string, lane: HashLane = 'anonymous'): Promise<boolean> {
    const target = stored || (await this.decoy);
    const ok = await this.limited(lane, () => verify(target, password.slice(0, PASSWORD_MAX_LENGTH)).catch(() => false));
    return ok && !!stored;
  }

  private async limited<T>(lane: HashLane, run: () => Promise<T>): Promise<T> {
    if (this.running < this.options.maxConcurrent) this.running++;
    else if (lane === 'anonymous' && this.waiting.anonymous.length >= this.options.maxQueued) {
      throw new AppError('UNAVAILABLE', 'Too many sign-ins are being checked right now; retry in a second.');
    }
    // a waiter is woken with the slot of the hash that ended (`running` unchanged), so no newcomer slips in between
    else await new Promise<void>((resolve) => this.waiting[lane].push(resolve));
    try {
      return await run();
    } finally {
      const next = LANES.map((l) => this.waiting[l]).find((queue) => queue.length);
      if (next) next.shift()!();
      else this.running--;
    }
  }
}
