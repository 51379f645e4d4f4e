import type { AlertMailOutcome, AlertMailRepository, DueAlertMail } from '@crawl/db';
import { alertMail, type MailLinks, type Mailer, type MailThrottle } from '@crawl/mail';
import type { Logger } from '@crawl/observability';

export interface AlertMailSettings {
  /** Sends one mail at most this many times; after the last failure it is `failed`. */
  maxAttempts: number;
  /** Delay before the second attempt; each later one x4 (1 min, 4, 16, 64 with the default). */
  backoffBaseMs: number;
  /** Mails in flight per process: each holds one pooled connection (its row lock) while it sends. */
  concurrency: number;
}

export const DEFAULT_ALERT_MAIL_SETTINGS: AlertMailSettings = { maxAttempts: 5, backoffBaseMs: 60_000, concurrency: 2 };

export interface AlertMailSenderDeps {
  mails: AlertMailRepository;
  mailer: Mailer;
  /** The account mails' per-recipient budget, lane `alert` (docs/alerts.md, "Mail to members"). */
  throttle: MailThrottle;
  links: MailLinks;
  log: Logger;
  settings: AlertMailSettings;
}

/**
 * Sends the alert mails queued in alert_mail. Every replica may run one: a mail is claimed with
 * SKIP LOCKED and its outcome committed with the claim, so no two processes send the same row.
 * Membership and verification are judged at send time, not when the alert fired.
 */
export class AlertMailSender {
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly deps: AlertMailSenderDeps) {}

  /** Sends every due mail; a wake-up while sending runs one more pass, so a new mail never waits for the poll. */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  /** Sends until no mail is due; resolves when done (tests call it directly). */
  async drain(): Promise<void> {
    const lane = async () => {
      while (!this.closed) {
        try {
          if (!(await this.deps.mails.sendNextDue((mail) => this.send(mail)))) return;
        } catch (err) {
          // a database error: the row stays pending and the next pass retries it
          this.deps.log.warn({ err }, 'alert mail pass failed');
          return;
        }
      }
    };
    await Promise.all(Array.from({ length: this.deps.settings.concurrency }, lane));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running;
    await this.deps.mailer.close();
  }

  private async send(mail: DueAlertMail): Promise<AlertMailOutcome> {
    const { log, settings } = this.deps;
    const fields = { alertId: mail.alertId, userId: mail.userId };
    if (!mail.alert || !mail.email) {
      log.info(fields, 'alert mail skipped: not a verified, enabled member now');
      return { status: 'skipped' };
    }
    // a recipient past the hourly budget is skipped, not retried: a later retry would only pile up
    if (!(await this.deps.throttle.mayMail(mail.email, 'alert'))) {
      log.info(fields, 'alert mail skipped: recipient over the hourly mail budget');
      return { status: 'skipped' };
    }
    try {
      await this.deps.mailer.send(alertMail(this.deps.links, { to: mail.email, projectId: mail.projectId, ...mail.alert }));
      return { status: 'sent' };
    } catch {
      // the mailer logged the failure's code (never its text, which may quote the address)
      const attempt = mail.attempts + 1;
      if (attempt >= settings.maxAttempts) {
        log.warn({ ...fields, attempt }, 'alert mail failed for good');
        return { status: 'failed' };
      }
      log.warn({ ...fields, attempt }, 'alert mail not sent; retrying later');
      return { status: 'retry', at: new Date(Date.now() + settings.backoffBaseMs * 4 ** (attempt - 1)) };
    }
  }
}
