import { hitFixedWindow, peekFixedWindow, type Redis, subjectKey, withinDeadline } from '@crawl/redis';

/**
 * How one kind of subject (a client address, an email, ...) is limited after failed
 * credentials, counted in fixed windows in Redis.
 */
export interface FailureRule {
  /** Failed attempts in one window that are still answered normally; the next ones are limited. */
  limit: number;
  windowMs: number;
  /**
   * `failures`: once over the limit, only attempts whose credential fails are refused; a valid
   * credential always goes through, so a guesser behind a shared address (NAT, office, proxy)
   * never locks out the other clients of that address. Right for addresses, and for API keys,
   * which are too long to guess.
   * `subject`: once over the limit, every attempt on the subject is refused before its
   * credential is checked, a right one included. Right for an account's email under a password
   * guessing attack: with `failures`, guessing would simply go on until a guess is right.
   */
  refuses: 'failures' | 'subject';
}

export type AttemptOutcome<T, S extends string> =
  /** The credential is valid: never refused by a `failures` rule. */
  | { kind: 'accepted'; value: T }
  /** The credential failed; the failure was counted and no limit is exceeded yet (a 401). */
  | { kind: 'rejected' }
  /** Over the limit of `scope` (a 429 with Retry-After). */
  | { kind: 'limited'; scope: S; retryAfterSeconds: number };

/**
 * The failed-credential rule shared by API-key authentication and console sign-in: count
 * failures per subject, and refuse only what the rules say.
 *
 * API keys (access/authenticate.ts): `{ address: { limit: 30, windowMs: 60_000, refuses: 'failures' } }`:
 * a key is too long to guess, and checking one costs a hash lookup, so a valid key always passes.
 * Sign-in (deps.ts): per email and per address, both `subject`, because checking a password costs
 * an argon2 hash and a flood must be refused before it; a browser that signed in before is judged
 * by its own `device` subject instead, so strangers' failures do not lock out the people who use
 * the service (docs/accounts.md, "Sign-in limits"):
 *
 * ```ts
 * const subjects = device ? { device } : { email, address: req.ip };
 * const outcome = await signIns.attempt(subjects, () => checkPassword(email, password));
 * ```
 *
 * Subjects are stored hashed (no email addresses in Redis keys). Fail-open like the request
 * rate limiter: a Redis that does not answer within `timeoutMs` limits nobody.
 */
export class FailureLimiter<S extends string> {
  /**
   * Subjects this gateway saw refused, until their window ends: a flood's later attempts are
   * answered without a Redis round trip. Bounded; the oldest entry goes first.
   */
  private readonly refused = new Map<string, number>();

  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
    private readonly rules: Record<S, FailureRule>,
    private readonly timeoutMs = 250,
  ) {}

  /** A limiter that counts nothing and never limits (the limit set to 0 in configuration). */
  static disabled<S extends string>(rules: Record<S, FailureRule>): FailureLimiter<S> {
    return new FailureLimiter<S>(null, '', rules);
  }

  /**
   * Checks a credential with `verify` (a value when valid, undefined when not) under the rules
   * for `subjects`. `verify` is not called when a `subject` rule already refuses.
   */
  async attempt<T>(subjects: Partial<Record<S, string>>, verify: () => Promise<T | undefined>): Promise<AttemptOutcome<T, S>> {
    const present = (Object.keys(this.rules) as S[]).filter((scope) => subjects[scope] !== undefined);
    const now = Date.now();
    const guarded = present.filter((scope) => this.rules[scope].refuses === 'subject');
    for (const scope of guarded) {
      const until = this.refused.get(this.key(scope, subjects[scope]!));
      if (until !== undefined && until > now) return limited(scope, until - now);
    }
    const peeked = await Promise.all(
      guarded.map((scope) =>
        this.bounded((redis) => peekFixedWindow(redis, this.key(scope, subjects[scope]!), this.rules[scope].windowMs, now)),
      ),
    );
    for (const [i, scope] of guarded.entries()) {
      const window = peeked[i];
      if (window && window.count >= this.rules[scope].limit) {
        this.remember(this.key(scope, subjects[scope]!), now + window.msLeft);
        return limited(scope, window.msLeft);
      }
    }
    const value = await verify();
    if (value !== undefined) return { kind: 'accepted', value };
    const windows = await Promise.all(
      present.map(async (scope) => ({
        scope,
        window: await this.bounded((redis) =>
          hitFixedWindow(redis, this.key(scope, subjects[scope]!), this.rules[scope].windowMs, Date.now()),
        ),
      })),
    );
    const over = windows.filter((w) => w.window && w.window.count > this.rules[w.scope].limit);
    if (!over.length) return { kind: 'rejected' };
    // The longest wait: retrying earlier would only be refused by another rule.
    const longest = over.reduce((a, b) => (b.window!.msLeft > a.window!.msLeft ? b : a));
    return limited(longest.scope, longest.window!.msLeft);
  }

  private remember(key: string, until: number): void {
    this.refused.delete(key);
    this.refused.set(key, until);
    if (this.refused.size > MAX_REMEMBERED_REFUSALS) this.refused.delete(this.refused.keys().next().value!);
  }

  private key(scope: S, subject: string): string {
    return subjectKey(`${this.prefix}:${scope}`, subject);
  }

  private bounded<T>(run: (redis: Redis) => Promise<T>): Promise<T | null> {
    return withinDeadline(this.redis, this.timeoutMs, run);
  }
}

const MAX_REMEMBERED_REFUSALS = 10_000;

function limited<S extends string>(scope: S, msLeft: number): AttemptOutcome<never, S> {
  return { kind: 'limited', scope, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}
