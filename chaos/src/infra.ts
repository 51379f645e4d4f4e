/**
 * The run's own PostgreSQL cluster and redis-server, on spare ports, so that killing, pausing or
 * wiping them disturbs nothing else on the machine (never the shared 5432 / 6379).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const PG_BIN = '/usr/lib/postgresql/15/bin';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function portAnswers(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function runAsPostgres(args: string[], opts: { timeoutMs?: number } = {}): string {
  return execFileSync('runuser', ['-u', 'postgres', '--', ...args], {
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** initdb into a temp dir owned by `postgres`, pg_ctl start/stop, SIGSTOP/SIGCONT of the whole cluster. */
export class PrivatePostgres {
  readonly dir: string;
  private readonly dataDir: string;
  private started = false;

  constructor(readonly port: number) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-pg-'));
    this.dataDir = path.join(this.dir, 'data');
    execFileSync('chown', ['postgres:postgres', this.dir]);
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    if (!fs.existsSync(this.dataDir)) {
      runAsPostgres([`${PG_BIN}/initdb`, '-D', this.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    }
    const opts = [
      `-p ${this.port}`,
      `-k ${this.dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=on',
      '-c max_connections=400',
      '-c shared_buffers=64MB',
    ].join(' ');
    runAsPostgres([
      `${PG_BIN}/pg_ctl`,
      '-D',
      this.dataDir,
      '-o',
      opts,
      '-l',
      path.join(this.dir, 'postgres.log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
    this.started = true;
    const deadline = Date.now() + 30_000;
    while (!(await portAnswers(this.port))) {
      if (Date.now() > deadline) throw new Error(`private postgres on ${this.port} did not start`);
      await sleep(100);
    }
  }

  /** The postmaster's pid, from postmaster.pid. */
  postmasterPid(): number | null {
    try {
      return Number(fs.readFileSync(path.join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return null;
    }
  }

  /** The postmaster and every process it forked (backends, checkpointer, walwriter, ...). */
  pids(): number[] {
    const root = this.postmasterPid();
    if (!root) return [];
    const children: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === root) children.push(Number(entry));
      } catch {
        // exited meanwhile
      }
    }
    return [root, ...children];
  }

  /** Freezes the whole cluster (postmaster first, so it forks nothing new), returns the frozen pids. */
  pause(): number[] {
    const pids = this.pids();
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGSTOP');
      } catch {
        // gone
      }
    }
    // Backends forked between listing and stopping the postmaster: stop them too.
    const late = this.pids().filter((p) => !pids.includes(p));
    for (const pid of late) {
      try {
        process.kill(pid, 'SIGSTOP');
      } catch {
        // gone
      }
    }
    return [...pids, ...late];
  }

  resume(pids: number[]): void {
    // Children first, the postmaster last.
    for (const pid of [...pids].reverse()) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // gone
      }
    }
  }

  /** Stops the cluster (immediate mode: nothing to keep) and deletes its directory. */
  destroy(): void {
    const pids = this.pids();
    this.resume(pids); // a paused cluster cannot shut down
    if (this.started) {
      try {
        runAsPostgres([`${PG_BIN}/pg_ctl`, '-D', this.dataDir, '-m', 'immediate', '-w', '-t', '20', 'stop'], { timeoutMs: 30_000 });
      } catch {
        for (const pid of this.pids()) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone
          }
        }
      }
      this.started = false;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A redis-server without persistence; `restartEmpty` kills it and starts a fresh one on the same port. */
export class PrivateRedis {
  private child: ChildProcess | null = null;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'noeviction'],
      {
        stdio: 'ignore',
      },
    );
    const deadline = Date.now() + 10_000;
    while (!(await portAnswers(this.port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on ${this.port} did not start`);
      await sleep(50);
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
