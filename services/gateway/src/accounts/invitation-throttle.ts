import { AppError } from '@crawl/core';
import { hitFixedWindow, type Redis } from '@crawl/redis';

export interface InvitationLimits {
  /** Invitations one organization may send per hour, whoever sends them: beyond it, 429. */
  perOrganizationPerHour: number;
  /** Invitations one user may send per hour, in all their organizations together: beyond it, 429. */
  perInviterPerHour: number;
}

export const DEFAULT_INVITATION_LIMITS: InvitationLimits = { perOrganizationPerHour: 50, perInviterPerHour: 20 };

const HOUR_MS = 3_600_000;

/**
 * Bounds the invitation mails an organization and an inviter send, on top of the mail limits
 * per client address and per recipient (MailThrottle in @crawl/mail): an invitation goes to any address
 * with the organization's name, which anyone who signs up chooses, in its subject, so a few
 * client addresses could otherwise send a spam run under our name.
 *
 * Fail-closed, unlike the other limiters: when Redis does not answer within `timeoutMs`, the
 * invitation is refused with 503. Refusing an invitation for the minute Redis is away costs the
 * inviter a retry; failing open would leave every mail limit off at once (the per-address and
 * per-recipient ones fail open), and mail sent from our domain cannot be taken back.
 */
export class InvitationThrottle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly limits: InvitationLimits,
    private readonly timeoutMs = 250,
  ) {}

  /**
   * Counts one invitation by `inviterUserId` in `organizationId`, or throws 429 naming the limit
   * reached (the inviter's is checked first, so one member's refused attempts never use up the
   * organization's limit), or 503 when the counts cannot be read.
   */
  async allow(organizationId: string, inviterUserId: string): Promise<void> {
    const now = Date.now();
    const byInviter = await this.hit(`inviter:${inviterUserId}`, now);
    if (byInviter.count > this.limits.perInviterPerHour) {
      throw limited(
        `You sent ${this.limits.perInviterPerHour} invitations in the last hour, the most one member may send`,
        this.limits.perInviterPerHour,
        byInviter.msLeft,
      );
    }
    const byOrganization = await this.hit(`organization:${organizationId}`, now);
    if (byOrganization.count > this.limits.perOrganizationPerHour) {
      throw limited(
        `This organization sent ${this.limits.perOrganizationPerHour} invitations in the last hour, the most it may send`,
        this.limits.perOrganizationPerHour,
        byOrganization.msLeft,
      );
    }
  }

  private async hit(subject: string, now: number): Promise<{ count: number; msLeft: number }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), this.timeoutMs)));
    const counted = await Promise.race([hitFixedWindow(this.redis, `${this.prefix}:${subject}`, HOUR_MS, now), timeout])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    if (!counted) {
      throw new AppError('UNAVAILABLE', 'Invitations cannot be sent right now: their limits cannot be checked; retry shortly.');
    }
    return counted;
  }
}

function limited(what: string, limit: number, msLeft: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msLeft / 1000));
  return new AppError('RATE_LIMITED', `${what}; retry after ${retryAfterSeconds} s.`, { details: { limit, retryAfterSeconds } });
}
