import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** A service as its own OS process (built dist), so a test can SIGKILL it like a crash. */
export class ServiceProcess {
  private constructor(private readonly child: ChildProcess) {}

  static start(service: 'worker' | 'gateway' | 'webhooks' | 'scheduler', env: Record<string, string>): ServiceProcess {
    const child = spawn(process.execPath, [path.join(ROOT, `services/${service}/dist/main.js`)], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk) => process.stderr.write(chunk));
    return new ServiceProcess(child);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Peak resident set size in bytes (VmHWM), read from /proc. */
  peakRss(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return Number(kb) * 1024;
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill(signal);
    });
  }
}
