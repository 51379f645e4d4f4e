import { hitFixedWindow, type Redis, subjectKey, withinDeadline } from '@crawl/redis';

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
    const key = subjectKey(this.prefix, subject);
    return withinDeadline(redis, this.timeoutMs, (r) => hitFixedWindow(r, key, this.rule.windowMs, now));
  }
}
