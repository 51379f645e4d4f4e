import { createTransport, type Transporter } from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared';
import type Mail from 'nodemailer/lib/mailer';
import type { Logger } from '@crawl/observability';
import type { MailMessage } from './message';
import { KIND_HEADER, LINK_HEADER, nextOutboxTime, outboxFileName, writeOutboxFile } from './outbox';
import { singleLine } from './render';

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Waits for the mails being sent, then releases the transport; sending afterwards fails. */
  close(): Promise<void>;
}

export interface MailerOptions {
  /** smtp://user:pass@host:587 or smtps://...; without it mails go to `outboxDir` */
  smtpUrl?: string;
  outboxDir: string;
  from: string;
  log: Logger;
  /** log each outbox message's link (never in production) */
  logLinks: boolean;
  /** SMTP connection, greeting and socket inactivity timeouts (default 10 s), so a stuck server never hangs a caller */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export function createMailer(options: MailerOptions): Mailer {
  const deliver = options.smtpUrl ? smtpDelivery(options, options.smtpUrl) : outboxDelivery(options);
  const pending = new Set<Promise<void>>();
  let closed = false;

  return {
    send(message) {
      if (closed) return Promise.reject(new Error('mailer is closed'));
      // nodemailer encodes headers safely; a line break in an address is still a caller's bug worth failing on
      if (/[\r\n]/.test(message.to)) return Promise.reject(new Error('mail recipient contains a line break'));
      const sending = deliver.send(message);
      const tracked = sending.then(
        () => undefined,
        () => undefined,
      );
      pending.add(tracked);
      void tracked.finally(() => pending.delete(tracked));
      return sending;
    },
    async close() {
      closed = true;
      await Promise.all(pending);
      deliver.transport.close();
    },
  };
}

interface Delivery {
  transport: Transporter;
  send(message: MailMessage): Promise<void>;
}

function mailOptions(options: MailerOptions, message: MailMessage, extraHeaders: Record<string, string> = {}): Mail.Options {
  return {
    from: options.from,
    to: message.to,
    subject: singleLine(message.subject),
    text: message.text,
    html: message.html,
    headers: { [KIND_HEADER]: message.kind, ...extraHeaders },
  };
}

function smtpDelivery(options: MailerOptions, smtpUrl: string): Delivery {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // settings in the URL's query (e.g. ?ignoreTLS=true) win over the default timeouts
  const transport = createTransport({
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
    ...parseConnectionUrl(smtpUrl),
  });
  return {
    transport,
    async send(message) {
      try {
        await transport.sendMail(mailOptions(options, message));
      } catch (error) {
        // the error text may quote the recipient: log only its code
        options.log.warn({ kind: message.kind, code: (error as { code?: unknown }).code }, 'mail: SMTP send failed');
        throw error;
      }
      options.log.info({ kind: message.kind }, 'mail: sent over SMTP');
    },
  };
}

function outboxDelivery(options: MailerOptions): Delivery {
  const transport = createTransport({ streamTransport: true, buffer: true });
  return {
    transport,
    async send(message) {
      const time = nextOutboxTime();
      // the link header lets readOutbox return the link without parsing the body
      const mail = mailOptions(options, message, message.link === undefined ? {} : { [LINK_HEADER]: message.link });
      mail.date = time;
      const info = await transport.sendMail(mail);
      const file = await writeOutboxFile(options.outboxDir, outboxFileName(time, message.kind), info.message as Buffer);
      const fields: Record<string, string> = { kind: message.kind, file };
      if (options.logLinks && message.link !== undefined) fields.link = message.link;
      options.log.info(fields, 'mail: written to outbox');
    },
  };
}
