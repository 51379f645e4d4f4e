import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressObject } from 'mailparser';
import type { MailKind } from './message';

/** Headers the outbox relies on: the kind on every mail, the link only on outbox files. */
export const KIND_HEADER = 'X-Crawl-Mail-Kind';
export const LINK_HEADER = 'X-Crawl-Mail-Link';

export interface OutboxEntry {
  file: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  kind: string;
  link: string | undefined;
  date: Date;
}

const STAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-/;
let lastStamp = 0;

/**
 * A file name time for this process that never repeats: two mails in the same millisecond get
 * consecutive milliseconds, so sorting by name keeps the order they were sent in.
 */
export function nextOutboxTime(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

/** `<timestamp>-<kind>-<random>.eml`, the timestamp sortable as text (an ISO time without colons, which some file systems refuse). */
export function outboxFileName(time: Date, kind: MailKind): string {
  const stamp = time.toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${kind}-${randomBytes(4).toString('hex')}.eml`;
}

/**
 * Writes a message file so that a reader never sees half of it: to a hidden temporary name first
 * (readOutbox skips it), then renamed into place, which is atomic within one folder. The files hold
 * live tokens, so only their owner may read them.
 */
export async function writeOutboxFile(outboxDir: string, fileName: string, content: Buffer): Promise<string> {
  await mkdir(outboxDir, { recursive: true, mode: 0o700 });
  const file = join(outboxDir, fileName);
  const temporary = join(outboxDir, `.${fileName}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, content, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return file;
}

/** Reads the outbox (for tests and local development): messages sorted oldest first, optionally only those to `to` (case-insensitive). */
export async function readOutbox(outboxDir: string, filter: { to?: string; kind?: MailKind } = {}): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = await readdir(outboxDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const wantedTo = filter.to?.toLowerCase();
  const entries: OutboxEntry[] = [];
  for (const name of names.filter((n) => n.endsWith('.eml') && !n.startsWith('.')).sort()) {
    const entry = await readOutboxFile(join(outboxDir, name));
    if (!entry) continue;
    if (wantedTo !== undefined && entry.to.toLowerCase() !== wantedTo) continue;
    if (filter.kind !== undefined && entry.kind !== filter.kind) continue;
    entries.push(entry);
  }
  // names sort by their timestamp already; the stable sort by date keeps that order for files of other writers
  return entries.sort((a, b) => a.date.getTime() - b.date.getTime());
}

async function readOutboxFile(file: string): Promise<OutboxEntry | undefined> {
  let content: Buffer;
  try {
    content = await readFile(file);
  } catch (error) {
    // removed between listing and reading (a test cleaning up): not part of the outbox any more
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // Loaded on first read: only tests and local tools read the outbox, and the parser (with its
  // charset tables) would otherwise add about 20 MB to every gateway's resident memory.
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(content);
  const header = (name: string) => {
    const value = mail.headers.get(name.toLowerCase());
    return typeof value === 'string' ? value : undefined;
  };
  return {
    file,
    to: firstAddress(mail.to) ?? '',
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : '',
    kind: header(KIND_HEADER) ?? '',
    link: header(LINK_HEADER),
    date: timeFromFileName(file) ?? mail.date ?? new Date(0),
  };
}

function firstAddress(to: AddressObject | AddressObject[] | undefined): string | undefined {
  const first = Array.isArray(to) ? to[0] : to;
  return first?.value[0]?.address;
}

/** The file name's millisecond time: finer than the Date header, which has whole seconds. */
function timeFromFileName(file: string): Date | undefined {
  const match = STAMP.exec(file.slice(file.lastIndexOf('/') + 1));
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, millisecond] = match;
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${millisecond}Z`);
}
