import { hash, verify } from '@node-rs/argon2';
import { PASSWORD_MAX_LENGTH } from '@crawl/core';

/**
 * argon2id with OWASP's first recommended setting (19 MiB of memory, 2 passes, 1 lane): about
 * 30 ms of one core per hash here. Hashing runs on libuv's thread pool, never on the event loop;
 * `maxConcurrent` caps how many run at once, so a burst of sign-ins queues instead of taking
 * every thread and all memory (docs/accounts.md, "Passwords").
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class PasswordHasher {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** A hash of a random password: unknown emails are verified against it, so they take as long as known ones. */
  private readonly decoy: Promise<string>;

  constructor(private readonly maxConcurrent = 2) {
    this.decoy = hash(`decoy-${Math.random()}-${Date.now()}`, ARGON2ID);
  }

  async hash(password: string): Promise<string> {
    return this.limited(() => hash(password.slice(0, PASSWORD_MAX_LENGTH), ARGON2ID));
  }

  /** True when `password` matches `stored`; with no stored hash, the same work is done and false returned. */
  async verify(stored: string | undefined, password: string): Promise<boolean> {
    const target = stored || (await this.decoy);
    const ok = await this.limited(() => verify(target, password.slice(0, PASSWORD_MAX_LENGTH)).catch(() => false));
    return ok && !!stored;
  }

  private async limited<T>(run: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxConcurrent) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await run();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }
}
