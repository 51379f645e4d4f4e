/**
 * Services as separate OS processes, as in production. Each logical process (e.g. `worker-2`)
 * may have several incarnations over a run (killed, restarted); every exit that the run did
 * not cause is recorded, because a service that dies on its own during a fault is a bug.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export interface UnexpectedExit {
  name: string;
  pid: number;
  code: number | null;
  signal: string | null;
  at: number;
  logFile: string;
}

export class ManagedProcess {
  private child: ChildProcess | null = null;
  private expectingExit = false;
  incarnation = 0;
  /** While down (killed and not yet ready again): [from, to] ms windows. */
  readonly downWindows: { from: number; to: number | null }[] = [];

  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
    private readonly args: string[],
    private readonly logDir: string,
    private readonly onUnexpectedExit: (e: UnexpectedExit) => void,
    /** Resolves once the process serves (health URL); undefined = as soon as it is spawned. */
    private readonly ready?: () => Promise<void>,
  ) {}

  get pid(): number | undefined {
    return this.child && this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  get logFile(): string {
    return path.join(this.logDir, `${this.name}.log`);
  }

  async start(): Promise<void> {
    this.incarnation += 1;
    const log = fs.openSync(this.logFile, 'a');
    fs.writeSync(log, `\n=== ${new Date().toISOString()} start #${this.incarnation}\n`);
    const child = spawn(process.execPath, [path.resolve(ROOT, this.script), ...this.args], {
      env: this.env,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.child = child;
    this.expectingExit = false;
    child.once('exit', (code, signal) => {
      if (this.child === child && !this.expectingExit) {
        this.onUnexpectedExit({ name: this.name, pid: child.pid ?? 0, code, signal, at: Date.now(), logFile: this.logFile });
        this.child = null;
        this.downWindows.push({ from: Date.now(), to: null });
      }
    });
    if (this.ready) await this.ready();
    const open = this.downWindows.at(-1);
    if (open && open.to === null) open.to = Date.now();
  }

  /** SIGKILL (or another signal) that the run itself injects; waits for the exit. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectingExit = true;
    this.downWindows.push({ from: Date.now(), to: null });
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  /** Graceful stop at the end of the run (SIGTERM, then SIGKILL after `graceMs`). */
  async stop(graceMs = 8_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectingExit = true;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** Synchronous last resort (process exit handler). */
  killNow(): void {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.expectingExit = true;
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }

  /** Was this process down (killed by the run, not yet ready again) at time t, with `graceMs` either side? */
  wasDownAt(t: number, graceMs: number): boolean {
    return this.downWindows.some((w) => t >= w.from - graceMs && t <= (w.to ?? Date.now()) + graceMs);
  }
}
