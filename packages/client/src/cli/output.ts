import { once } from 'node:events';
import { CrawlApiError, CrawlNetworkError, CrawlWaitTimeoutError } from '../errors';
import type { Job } from '../types';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/** A mistake in the command line: `error USAGE: …` and exit 2, like an API error. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly helpCommand = 'crawl --help',
  ) {
    super(message);
  }
}

/** Writes with backpressure, so `crawl results` of a big job does not buffer it all in memory. */
export async function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** `error CODE: message (request id)`, then the details a user needs to fix the call. */
export function formatError(err: unknown): string {
  if (err instanceof CrawlApiError) {
    const lines = [`error ${err.code}: ${err.message}${err.requestId ? ` (${err.requestId})` : ''}`];
    if (Array.isArray(err.details)) {
      for (const d of err.details) {
        const issue = d as { path?: unknown; message?: unknown };
        lines.push(typeof issue.path === 'string' ? `  ${issue.path}: ${String(issue.message)}` : `  ${JSON.stringify(d)}`);
      }
    } else if (err.details !== undefined && err.details !== null) {
      lines.push(`  details: ${JSON.stringify(err.details)}`);
    }
    return `${lines.join('\n')}\n`;
  }
  if (err instanceof CrawlNetworkError) return `error ${err.code}: ${err.message}\n`;
  if (err instanceof CrawlWaitTimeoutError) return `error ${err.code}: ${err.message}\n`;
  if (err instanceof UsageError) return `error USAGE: ${err.message}\nRun '${err.helpCommand}' for usage.\n`;
  return `error INTERNAL: ${err instanceof Error ? err.message : String(err)}\n`;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** `job_… running  succeeded 3  failed 0  total 10  elapsed 12s` (elapsed since the job was created). */
export function progressLine(job: Job, now = Date.now()): string {
  const end = job.finishedAt ? Date.parse(job.finishedAt) : now;
  const { succeeded, failed, total } = job.progress;
  return `${job.id} ${job.status.padEnd(9)} succeeded ${succeeded}  failed ${failed}  total ${total}  elapsed ${formatDuration(end - Date.parse(job.createdAt))}`;
}

/**
 * The progress line of `jobs wait` on stderr: redrawn in place every second on a terminal,
 * one line per change otherwise (logs, CI), so that neither fills a log with repeats.
 */
export class ProgressLine {
  private job: Job | null = null;
  private last = '';
  private ticker: NodeJS.Timeout | null = null;

  constructor(private readonly stderr: CliIo['stderr']) {
    if (stderr.isTTY) this.ticker = setInterval(() => this.draw(), 1000);
  }

  update(job: Job): void {
    this.job = job;
    this.draw();
  }

  private draw(): void {
    if (!this.job) return;
    const line = progressLine(this.job);
    if (this.stderr.isTTY) this.stderr.write(`\r\x1b[2K${line}`);
    else if (line.replace(/elapsed \S+$/, '') !== this.last.replace(/elapsed \S+$/, '')) this.stderr.write(`${line}\n`);
    this.last = line;
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    if (this.stderr.isTTY && this.last) this.stderr.write('\n');
    this.ticker = null;
    this.last = '';
    this.job = null;
  }
}
