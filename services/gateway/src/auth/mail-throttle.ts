import { createHash } from 'node:crypto';
import { AppError } from '@crawl/core';
import { hitFixedWindow, type Redis } from '@crawl/redis';

export interface MailThrottleLimits {
  /** Mail-sending requests (sign-up, reset, resend) one client address may make per hour: beyond it, 429. */
  perAddressPerHour: number;
  /** Mails one email address receives per hour; beyond it the request answers as usual and sends nothing. */
  perEmailPerHour: number;
}

export const DEFAULT_MAIL_LIMITS: MailThrottleLimits = { perAddressPerHour: 30, perEmailPerHour: 5 };

const HOUR_MS = 3_600_000;

/**
 * Keeps the anonymous routes that send mail from becoming a mail cannon: per client address
 * (429 with Retry-After) and per recipient (silently: answering differently would tell whether
 * the address has an account). Fail-open within `timeoutMs`, like the other limiters.
 */
export class MailThrottle {
  constructor(
    private readonly redis: Redis | null,
    private readonly prefix: string,
    private readonly limits: MailThrottleLimits,
    private readonly timeoutMs = 250,
  ) {}

  /**
   * Throws 429 when the address is over its limit; false when the recipient has had enough mail
   * this hour (anonymous routes then answer as usual and send nothing).
   */
  async allow(address: string, email: string): Promise<boolean> {
    const now = Date.now();
    const byAddress = await this.hit(`address:${address}`, now);
    if (byAddress && byAddress.count > this.limits.perAddressPerHour) {
      const retryAfterSeconds = Math.max(1, Math.ceil(byAddress.msLeft / 1000));
      throw new AppError('RATE_LIMITED', `Too many requests that send mail from this address; retry after ${retryAfterSeconds} s.`, {
        details: { retryAfterSeconds },
      });
    }
    const byEmail = await this.hit(`email:${email}`, now);
    return !byEmail || byEmail.count <= this.limits.perEmailPerHour;
  }

  private async hit(subject: string, now: number): Promise<{ count: number; msLeft: number } | null> {
    if (!this.redis) return null;
    const key = `${this.prefix}:${createHash('sha256').update(subject).digest('base64url').slice(0, 27)}`;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.timeoutMs)));
    return Promise.race([hitFixedWindow(this.redis, key, HOUR_MS, now), timeout])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
  }
}
