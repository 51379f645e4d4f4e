import { createHash } from 'node:crypto';
import { hitFixedWindow, type Redis } from '@crawl/redis';

export interface WindowRule {
  /** Hits one subject may make in a window; the next ones are over. */
  limit: number;
  windowMs: number;
  /**
   * What a Redis that does not answer within the timeout means: `open` lets the hit through
   * (a limit that protects comfort), `closed` counts it as over (a limit that protects money or
   * other people's mailboxes: better refused for a while than unbounded).
   */
  whenUnknown: 'open' | 'closed';
}

export interface WindowDecision {
  over: boolean;
  retryAfterSeconds: number;
}

/**
 * Counts hits per subject in fixed windows in Redis (shared by every gateway), for the account
 * limits that are not about failed credentials: sign-ups service-wide, successful sign-ins per
 * user, notices per recipient. Subjects are stored hashed (no email addresses in Redis keys).
 */
export class WindowLimit {
  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
    private readonly rule: WindowRule,
    private readonly timeoutMs = 250,
  ) {}

  async hit(subject: string): Promise<WindowDecision> {
    const now = Date.now();
    const window = this.redis ? await this.bounded(this.redis, subject, now) : null;
    if (!window) {
      const over = this.rule.whenUnknown === 'closed';
      return { over, retryAfterSeconds: over ? Math.max(1, Math.ceil(this.rule.windowMs / 1000)) : 0 };
    }
    return { over: window.count > this.rule.limit, retryAfterSeconds: Math.max(1, Math.ceil(window.msLeft / 1000)) };
  }

  private bounded(redis: Redis, subject: string, now: number) {
    const key = `${this.prefix}:${createHash('sha256').update(subject).digest('base64url').slice(0, 27)}`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.timeoutMs)));
    // the connection has no offline queue: a command sent while it is still connecting (a
    // gateway that just started) would fail at once, so it waits for the connection first
    const count = connected(redis, timeout).then((ready) => (ready ? hitFixedWindow(redis, key, this.rule.windowMs, now) : null));
    return Promise.race([count, timeout])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
  }
}

/** True once the connection is ready; false if `giveUp` settles first (the listener is removed either way). */
function connected(redis: Redis, giveUp: Promise<unknown>): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const onReady = () => resolve(true);
    redis.once('ready', onReady);
    void giveUp.then(() => {
      redis.off('ready', onReady);
      resolve(false);
    });
  });
}
