import type { Kysely } from 'kysely';
import type { Database } from '../schema';

/** A queued alert mail as the sender reads it, with what its eligibility is judged on now. */
export interface DueAlertMail {
  alertId: string;
  userId: string;
  projectId: string;
  /** sends tried before this one */
  attempts: number;
  /** the member's address when they may get it now: verified, not disabled, a member of the project's organization; else null */
  email: string | null;
  /** null when the alert itself is gone */
  alert: {
    ruleName: string;
    asin: string;
    marketplace: string;
    postalCode: string | null;
    value: unknown;
    previous: unknown;
  } | null;
}

/** What became of one send: `retry` keeps the row pending until `at`. */
export type AlertMailOutcome = { status: 'sent' | 'skipped' | 'failed' } | { status: 'retry'; at: Date };

/**
 * The alert mails' outbox (alert_mail, written with the alert in the tracking transaction). The
 * sender claims one due row with `FOR UPDATE SKIP LOCKED` and keeps the lock while it sends, then
 * records the outcome in the same transaction: a second process skips the row, and a process that
 * dies before the commit leaves it pending (docs/alerts.md, "Mail to members").
 */
export class AlertMailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims the oldest due pending mail, hands it to `send` and records its outcome, all in one
   * transaction. False when no mail is due (or every due one is claimed by another process).
   */
  async sendNextDue(send: (mail: DueAlertMail) => Promise<AlertMailOutcome>): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .selectFrom('alert_mail')
        .select(['alert_id', 'user_id', 'project_id', 'attempts'])
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', new Date())
        .orderBy('next_attempt_at')
        .limit(1)
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!claimed) return false;
      const detail = await trx
        .selectFrom('project')
        .leftJoin('alert', (j) => j.on('alert.id', '=', claimed.alert_id))
        .leftJoin('app_user', (j) =>
          j
            .on('app_user.id', '=', claimed.user_id)
            .on('app_user.email_verified_at', 'is not', null)
            .on('app_user.disabled_at', 'is', null)
            .on('app_user.email', 'is not', null),
        )
        .leftJoin('membership', (j) =>
          j.onRef('membership.organization_id', '=', 'project.organization_id').onRef('membership.user_id', '=', 'app_user.id'),
        )
        .select([
          'alert.rule_name',
          'alert.asin',
          'alert.marketplace',
          'alert.postal_code',
          'alert.value',
          'alert.previous',
          'app_user.email',
          'membership.user_id as member_id',
        ])
        .where('project.id', '=', claimed.project_id)
        .executeTakeFirst();
      const outcome = await send({
        alertId: claimed.alert_id,
        userId: claimed.user_id,
        projectId: claimed.project_id,
        attempts: claimed.attempts,
        email: detail?.member_id ? (detail.email ?? null) : null,
        alert:
          detail?.rule_name != null && detail.asin != null && detail.marketplace != null
            ? {
                ruleName: detail.rule_name,
                asin: detail.asin,
                marketplace: detail.marketplace,
                postalCode: detail.postal_code || null,
                value: detail.value,
                previous: detail.previous,
              }
            : null,
      });
      await trx
        .updateTable('alert_mail')
        .set((eb) => ({
          status: outcome.status === 'retry' ? 'pending' : outcome.status,
          attempts: eb('attempts', '+', 1),
          ...(outcome.status === 'retry' ? { next_attempt_at: outcome.at } : {}),
        }))
        .where('alert_id', '=', claimed.alert_id)
        .where('user_id', '=', claimed.user_id)
        .execute();
      return true;
    });
  }
}
