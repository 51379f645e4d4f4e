/**
 * Services as their own OS processes (`node <dist main>`), as in production, for e2e tests and
 * benchmarks that kill, restart or measure them. chaos keeps its own ManagedProcess, which adds
 * incarnations, log files and unexpected-exit tracking on top of the same reads.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root (this file is packages/testing/{src,dist}/processes.*). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** A `VmRSS` (current) or `VmHWM` (peak) figure of /proc/<pid>/status in bytes; null once the process is gone. */
export function readRss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

/** A service started as its own process; `stop` with SIGKILL is how tests simulate a crash. */
export class ServiceProcess {
  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {}

  /**
   * `script` is relative to the repository root (`services/worker/dist/main.js`). stdout (the
   * JSON log) is dropped and stderr passed through; LOG_LEVEL defaults to warn unless `env` sets it.
   * `nodeArgs` go to node itself (`--cpu-prof`).
   */
  static start(name: string, script: string, env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): ServiceProcess {
    const child = spawn(process.execPath, [...nodeArgs, path.resolve(REPO_ROOT, script), ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return new ServiceProcess(name, child);
  }

  /** The exit code once the process has exited (null while it runs, or when a signal ended it). */
  get exitCode(): number | null {
    return this.child.exitCode;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Current resident set size in bytes (0 once the process is gone). */
  rss(): number {
    return this.child.pid === undefined ? 0 : (readRss(this.child.pid) ?? 0);
  }

  /** Peak resident set size in bytes (VmHWM) (0 once the process is gone). */
  peakRss(): number {
    return this.child.pid === undefined ? 0 : (readRss(this.child.pid, 'VmHWM') ?? 0);
  }

  /**
   * Starts the peak over from the current RSS (Linux: `5` to /proc/<pid>/clear_refs), so a
   * measurement covers one phase and not the start-up's module loading.
   */
  resetPeakRss(): void {
    if (this.child.pid !== undefined) writeFileSync(`/proc/${this.child.pid}/clear_refs`, '5');
  }

  /** Sends `signal` and waits for the exit; a no-op once the process has exited. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}

/**
 * Polls `url` until it answers 2xx. Each attempt has its own 2 s timeout, so a process that
 * accepts connections but hangs cannot hold the poll past `timeoutMs`.
 */
export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not become ready within ${timeoutMs} ms`);
}
