import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, freePort, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';

/**
 * `pnpm start:sim` with a crawl running, then a signal as an operator sends it (SIGTERM to pnpm,
 * or Ctrl-C: SIGINT to the whole process group): pnpm forwards it, the services drain (tasks
 * waiting for an exit are handed back, fetches in flight get SHUTDOWN_GRACE_MS), and pnpm
 * returns 0 only once they have stopped: nothing answers on the API port afterwards.
 */
const ROOT = path.resolve(__dirname, '../..');

/** The pids of a process's children (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** Whether a process runs: present and not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

it.each([
  ['SIGTERM to pnpm', (child: ChildProcess) => child.kill('SIGTERM')],
  ['Ctrl-C (SIGINT to the process group)', (child: ChildProcess) => process.kill(-child.pid!, 'SIGINT')],
])(
  '%s: pnpm start:sim returns 0 after the services stopped, within the grace',
  async (_name, signal) => {
    // an empty database each time: the first start creates the demo project that crawls below
    const database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
    const port = await freePort();
    const child = spawn('pnpm', ['--silent', 'start:sim'], {
      cwd: ROOT,
      // its own process group, as a terminal's foreground job
      detached: true,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: uniquePrefix('signals'),
        PORT: String(port),
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('crawling') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const base = `http://127.0.0.1:${port}`;
      expect(await answers(`${base}/healthz`)).toBe(true);
      // a crawl in progress: the demo project (created on the first start of an empty database)
      const demo = /demo project (\S+) .*\n\s+(\S+)/.exec(output);
      expect(demo).not.toBeNull();
      const [, projectId, apiKey] = demo!;
      const targets = Array.from({ length: 60 }, (_, i) => `B0SIGN${String(i).padStart(4, '0')}`);
      const res = await fetch(`${base}/v1/key/projects/${projectId}/jobs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'details', targets }),
      });
      expect(res.status).toBe(202);
      await new Promise((r) => setTimeout(r, 2_000));
      const signalled = Date.now();
      signal(child);
      const { code, at } = await exited;
      expect(code).toBe(0);
      // the worker's default grace (10 s) bounds the drain; margin for the rest of the teardown
      expect(at - signalled).toBeLessThan(15_000);
      expect(await answers(`${base}/healthz`)).toBe(false);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      await database.drop();
    }
  },
  150_000,
);

it('the launcher killed outright (SIGKILL): the services it started stop on their own', async () => {
  const database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  const port = await freePort();
  const launcher = spawn(process.execPath, [path.join(ROOT, 'services/all/launch.mjs'), '--simulator'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: uniquePrefix('orphan'),
      PORT: String(port),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  launcher.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  launcher.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const base = `http://127.0.0.1:${port}`;
  try {
    // up: the gateway answers (polled: one answer may take over 2 s on a loaded machine)
    const deadline = Date.now() + 90_000;
    let up = false;
    while (!up && launcher.exitCode === null && Date.now() < deadline) {
      up = output.includes('crawling') && (await answers(`${base}/healthz`));
      if (!up) await new Promise((r) => setTimeout(r, 200));
    }
    // on failure, what the services printed says why they are not up
    expect({ up, exitCode: launcher.exitCode, output: output.slice(-3000) }).toMatchObject({ up: true });
    // The services' process itself is watched, not the port: once it is free, another test's
    // process may be given the same port number.
    const [services] = childrenOf(launcher.pid!);
    expect(services).toBeDefined();
    launcher.kill('SIGKILL');
    // the services' own drain (at most the worker's 10 s grace), then the process ends
    const stopBy = Date.now() + 20_000;
    while (running(services!) && Date.now() < stopBy) await new Promise((r) => setTimeout(r, 200));
    expect(running(services!)).toBe(false);
  } finally {
    if (launcher.exitCode === null) launcher.kill('SIGKILL');
    await database.drop();
  }
}, 150_000);
