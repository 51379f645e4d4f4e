import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Logger } from '@crawl/observability';
import { createMailer, invitationMail, passwordResetMail, readOutbox, verificationMail } from './index';

const links = { publicUrl: 'http://localhost:8080' };

/** Records what the mailer logs, to check which fields it writes. */
function recordingLogger(): { log: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const record = (fields: Record<string, unknown>) => lines.push(fields);
  return { log: { info: record, warn: record } as unknown as Logger, lines };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crawl-mail-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('outbox mailer', () => {
  it('writes a parseable .eml with both parts, the link and the kind, into a folder it creates', async () => {
    const outboxDir = join(dir, 'nested', 'outbox');
    const { log, lines } = recordingLogger();
    const mailer = createMailer({ outboxDir, from: 'Crawl Data Service <no-reply@example.com>', log, logLinks: false });
    const message = verificationMail(links, { to: 'Ada@Example.com', token: 'secret-token' });
    await mailer.send(message);
    await mailer.close();

    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-verify-email-[0-9a-f]{8}\.eml$/);
    const parsed = await simpleParser(await readFile(join(outboxDir, files[0]!)));
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.from?.text).toContain('no-reply@example.com');
    expect(parsed.text).toContain(message.link);
    expect(parsed.html).toContain(`href="${message.link}"`);
    expect(parsed.headers.get('x-crawl-mail-kind')).toBe('verify-email');

    // the log line names the kind and file, never the recipient or the token
    expect(lines).toEqual([{ kind: 'verify-email', file: join(outboxDir, files[0]!) }]);
    expect(JSON.stringify(lines)).not.toMatch(/secret-token|Ada@Example\.com/i);
  });

  it('logs the link when asked to', async () => {
    const { log, lines } = recordingLogger();
    const mailer = createMailer({ outboxDir: dir, from: 'no-reply@example.com', log, logLinks: true });
    const message = passwordResetMail(links, { to: 'ada@example.com', token: 'tok' });
    await mailer.send(message);
    expect(lines[0]).toMatchObject({ kind: 'password-reset', link: message.link });
  });

  it('reads back messages oldest first, filtered by recipient (any case) and kind', async () => {
    const { log } = recordingLogger();
    const mailer = createMailer({ outboxDir: dir, from: 'no-reply@example.com', log, logLinks: false });
    const first = verificationMail(links, { to: 'ada@example.com', token: 'one' });
    const second = verificationMail(links, { to: 'bob@example.com', token: 'two' });
    const third = passwordResetMail(links, { to: 'ADA@example.com', token: 'three' });
    const fourth = invitationMail(links, {
      to: 'ada@example.com',
      token: 'four',
      organizationName: 'Acme',
      inviterEmail: 'bob@example.com',
      role: 'member',
      expiresAt: new Date('2026-12-03T00:00:00Z'),
    });
    // sent back to back, mostly within one millisecond: order must still hold
    for (const message of [first, second, third, fourth]) await mailer.send(message);

    const all = await readOutbox(dir);
    expect(all.map((m) => m.link)).toEqual([first.link, second.link, third.link, fourth.link]);
    expect(all.map((m) => m.kind)).toEqual(['verify-email', 'verify-email', 'password-reset', 'invitation']);
    for (let i = 1; i < all.length; i++) expect(all[i]!.date.getTime()).toBeGreaterThan(all[i - 1]!.date.getTime());

    const ada = await readOutbox(dir, { to: 'Ada@Example.COM' });
    expect(ada.map((m) => m.link)).toEqual([first.link, third.link, fourth.link]);
    expect(ada[2]).toMatchObject({ to: 'ada@example.com', subject: fourth.subject, kind: 'invitation' });
    expect(ada[2]!.text).toContain('Acme');
    expect(ada[2]!.html).toContain('<strong>Acme</strong>');

    const adaResets = await readOutbox(dir, { to: 'ada@example.com', kind: 'password-reset' });
    expect(adaResets.map((m) => m.link)).toEqual([third.link]);
    expect(await readOutbox(dir, { kind: 'signup-email-taken' })).toEqual([]);
  });

  it('reads a missing outbox as empty and skips files still being written', async () => {
    expect(await readOutbox(join(dir, 'absent'))).toEqual([]);
    const { log } = recordingLogger();
    const mailer = createMailer({ outboxDir: dir, from: 'no-reply@example.com', log, logLinks: false });
    await mailer.send(verificationMail(links, { to: 'ada@example.com', token: 'one' }));
    const [name] = await readdir(dir);
    // a half-written temporary file, as the mailer names them before the rename
    await writeFile(join(dir, `.${name}.abcd.tmp`), 'From: half');
    expect(await readOutbox(dir)).toHaveLength(1);
  });

  it('strips line breaks from a subject and refuses a recipient with one', async () => {
    const { log } = recordingLogger();
    const mailer = createMailer({ outboxDir: dir, from: 'no-reply@example.com', log, logLinks: false });
    const message = verificationMail(links, { to: 'ada@example.com', token: 'one' });
    await mailer.send({ ...message, subject: 'Hello\r\nBcc: victim@example.com' });
    const [read] = await readOutbox(dir);
    expect(read!.subject).toBe('Hello Bcc: victim@example.com');
    const raw = await readFile(read!.file, 'utf8');
    expect(raw).not.toMatch(/^Bcc:/im);

    await expect(mailer.send({ ...message, to: 'ada@example.com\r\nBcc: victim@example.com' })).rejects.toThrow(/line break/);
    expect(await readOutbox(dir)).toHaveLength(1);
  });

  it('refuses to send after close', async () => {
    const { log } = recordingLogger();
    const mailer = createMailer({ outboxDir: dir, from: 'no-reply@example.com', log, logLinks: false });
    await mailer.close();
    await expect(mailer.send(verificationMail(links, { to: 'ada@example.com', token: 'one' }))).rejects.toThrow(/closed/);
  });
});
