import { AppError } from '@crawl/core';
import { hitFixedWindow, type Redis, subjectKey, withinDeadline } from '@crawl/redis';

export interface MailThrottleLimits {
  /** Mail-sending requests (sign-up, reset, resend) one client address may make per hour: beyond it, 429. */
  perAddressPerHour: number;
  /** Mails one email address receives per hour from anonymous requests; beyond it the request answers as usual and sends nothing. */
  perEmailPerHour: number;
  /** Notices ("someone tried to sign up with your address") one address receives per hour, on a budget of their own. */
  noticesPerEmailPerHour: number;
}

export const DEFAULT_MAIL_LIMITS: MailThrottleLimits = { perAddressPerHour: 30, perEmailPerHour: 5, noticesPerEmailPerHour: 1 };

/**
 * Whose request a recipient's mail answers, each lane with a budget of its own, so strangers
 * cannot spend the owner's: `anonymous` (anyone who types the address), `trusted` (a browser that
 * proved it knows the account: access/device-cookie.ts), `notice` (mails that only inform, such as
 * a repeated sign-up's), `alert` (alert rules' mails to members: docs/alerts.md, "Mail to members"),
 * held to the same hourly limit as the anonymous lane, so a busy rule can never spend the budget
 * a password reset needs.
 */
export type MailLane = 'anonymous' | 'trusted' | 'notice' | 'alert';

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
  async allow(address: string, email: string, lane: MailLane = 'anonymous'): Promise<boolean> {
    await this.admitAddress(address);
    return this.mayMail(email, lane);
  }

  /** One mail-sending request from `address`: throws 429 beyond its hourly limit. */
  async admitAddress(address: string): Promise<void> {
    const byAddress = await this.hit(`address:${address}`, Date.now());
    if (byAddress && byAddress.count > this.limits.perAddressPerHour) {
      const retryAfterSeconds = Math.max(1, Math.ceil(byAddress.msLeft / 1000));
      throw new AppError('RATE_LIMITED', `Too many requests that send mail from this address; retry after ${retryAfterSeconds} s.`, {
        details: { retryAfterSeconds },
      });
    }
  }

  /** Counts one mail to `email` in `lane`; false when that lane's budget for the hour is spent. */
  async mayMail(email: string, lane: MailLane): Promise<boolean> {
    const limit = lane === 'notice' ? this.limits.noticesPerEmailPerHour : this.limits.perEmailPerHour;
    // the anonymous lane keeps its old key, so counts carry over a deploy
    const byEmail = await this.hit(lane === 'anonymous' ? `email:${email}` : `email:${lane}:${email}`, Date.now());
    return !byEmail || byEmail.count <= limit;
  }

  private async hit(subject: string, now: number): Promise<{ count: number; msLeft: number } | null> {
    const key = subjectKey(this.prefix, subject);
    return withinDeadline(this.redis, this.timeoutMs, (redis) => hitFixedWindow(redis, key, HOUR_MS, now));
  }
}
