import type { MailMessage, Mailer } from '@crawl/mail';
import type { Logger } from '@crawl/observability';

/**
 * Sends account mail after the request has answered. An SMTP server may take seconds, and
 * whether a mail is sent at all must not show in the answer's timing (sign-up and password reset
 * answer alike for known and unknown emails). A failed send is logged; the user asks again
 * (a new reset, a new verification mail, a new invitation).
 */
export class MailSender {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly log: Logger,
  ) {}

  send(message: MailMessage): void {
    const sending = this.mailer
      .send(message)
      .catch((err) => this.log.warn({ err, kind: message.kind }, 'account mail not sent'))
      .finally(() => this.pending.delete(sending));
    this.pending.add(sending);
  }

  /** Waits for mails being sent (shutdown, tests), then closes the transport. */
  async close(): Promise<void> {
    await Promise.all([...this.pending]);
    await this.mailer.close();
  }
}
