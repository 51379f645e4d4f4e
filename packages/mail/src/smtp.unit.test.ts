import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Logger } from '@crawl/observability';
import { createMailer, invitationMail, readOutbox } from './index';

const links = { publicUrl: 'http://localhost:8080' };
const silentLog = { info: () => undefined, warn: () => undefined } as unknown as Logger;

const invitation = invitationMail(links, {
  to: 'bob@example.com',
  token: 'inv-token',
  organizationName: '<b>Acme</b>',
  inviterEmail: 'ada@example.com',
  role: 'admin',
  expiresAt: new Date('2026-12-03T00:00:00Z'),
});

let outboxDir: string;
beforeEach(async () => {
  outboxDir = await mkdtemp(join(tmpdir(), 'crawl-mail-smtp-'));
});
afterEach(async () => {
  await rm(outboxDir, { recursive: true, force: true });
});

describe('SMTP mailer', () => {
  it('delivers to an SMTP server, both parts and the kind header, and writes nothing to the outbox', async () => {
    const received: Array<{ from: string | undefined; to: string[]; mail: ParsedMail }> = [];
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (mail) => {
            const from = session.envelope.mailFrom;
            received.push({ from: from ? from.address : undefined, to: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    const listening = server.listen(0, '127.0.0.1');
    await once(listening, 'listening');
    const { port } = listening.address() as AddressInfo;
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}/?ignoreTLS=true`,
        outboxDir,
        from: 'Crawl Data Service <no-reply@example.com>',
        log: silentLog,
        logLinks: false,
        timeoutMs: 5000,
      });
      await mailer.send(invitation);
      await mailer.close();
    } finally {
      await new Promise<void>((resolve) => server.close(resolve));
    }

    expect(received).toHaveLength(1);
    const [{ from, to, mail }] = received as [(typeof received)[0]];
    expect(from).toBe('no-reply@example.com');
    expect(to).toEqual(['bob@example.com']);
    expect(mail.subject).toBe(invitation.subject);
    expect(mail.text).toContain(invitation.link);
    expect(mail.html).toContain('&lt;b&gt;Acme&lt;/b&gt;');
    expect(mail.headers.get('x-crawl-mail-kind')).toBe('invitation');
    // the link header is for the outbox only
    expect(mail.headers.has('x-crawl-mail-link')).toBe(false);
    expect(await readOutbox(outboxDir)).toEqual([]);
  });

  it('rejects quickly when nothing listens on the SMTP port', async () => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir,
      from: 'no-reply@example.com',
      log: silentLog,
      logLinks: false,
      timeoutMs: 500,
    });
    const started = Date.now();
    await expect(mailer.send(invitation)).rejects.toMatchObject({ code: 'ESOCKET', message: expect.stringContaining('ECONNREFUSED') });
    expect(Date.now() - started).toBeLessThan(3000);
    await mailer.close();
  });

  it('rejects within the timeout when the server accepts the connection but never greets', async () => {
    const sockets = new Set<Socket>();
    const stuck: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    stuck.listen(0, '127.0.0.1');
    await once(stuck, 'listening');
    const { port } = stuck.address() as AddressInfo;
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        outboxDir,
        from: 'no-reply@example.com',
        log: silentLog,
        logLinks: false,
        timeoutMs: 300,
      });
      const started = Date.now();
      const sending = mailer.send(invitation);
      let sendSettled = false;
      void sending.catch(() => (sendSettled = true));
      // close waits for the mail under way rather than cutting it off
      const closing = mailer.close().then(() => sendSettled);
      await expect(sending).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(3000);
      expect(await closing).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => stuck.close(() => resolve()));
    }
  });
});
