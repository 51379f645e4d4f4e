import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { createTestDatabase, freePort, type TestDatabase, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';

/** A taken port is one line naming the variable (it was a Node stack trace); the simulator starts with the first `pnpm start`. */
const ROOT = path.resolve(__dirname, '../..');
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
});
afterAll(() => database.drop());

async function occupy(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

function start(
  entry: string,
  env: Record<string, string>,
  args: string[] = [],
): { child: ChildProcess; output: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [path.join(ROOT, entry), ...args], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: uniquePrefix('ports'),
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, stderr: () => err, exited };
}

it.each([
  ['the gateway', 'PORT', 'services/gateway/dist/main.js'],
  ['`pnpm start` (its gateway)', 'PORT', 'services/all/dist/main.js'],
  ['the gateway (metrics side server)', 'METRICS_PORT', 'services/gateway/dist/main.js'],
  ['`pnpm start` (its one metrics server)', 'METRICS_PORT', 'services/all/dist/main.js'],
  ['the worker (metrics side server)', 'METRICS_PORT', 'services/worker/dist/main.js'],
  ['the webhooks service (metrics side server)', 'METRICS_PORT', 'services/webhooks/dist/main.js'],
])(
  '%s on a taken port prints one line naming %s and exits 1',
  async (_name, variable, entry) => {
    const taken = await occupy();
    const free = String(await freePort());
    try {
      const env = variable === 'PORT' ? { PORT: String(taken.port), METRICS_PORT: '' } : { PORT: free, METRICS_PORT: String(taken.port) };
      const run = start(entry, env);
      const timer = setTimeout(() => run.child.kill('SIGKILL'), 30_000);
      expect(await run.exited).toBe(1);
      clearTimeout(timer);
      const lines = run
        .stderr()
        .split('\n')
        .filter((l) => l.trim() !== '');
      expect(lines).toEqual([
        `${variable}: port ${taken.port} is already in use (another process, or another copy of this service, listens on it); stop it or set ${variable} to a free port`,
      ]);
      expect(run.output()).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise((resolve) => taken.server.close(resolve));
    }
  },
  40_000,
);

it('`pnpm start:sim` runs the stack against an in-process simulator on a free port and crawls 60 targets in seconds', async () => {
  const port = await freePort();
  const run = start('services/all/dist/main.js', { PORT: String(port), METRICS_PORT: '' }, ['--simulator']);
  try {
    const deadline = Date.now() + 30_000;
    while (!run.output().includes('first job:') && run.child.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const origin = /crawling (http:\/\/127\.0\.0\.1:\d+)/.exec(run.output())?.[1];
    expect(origin).toBeDefined();
    expect((await fetch(`${origin}/__sim/health`)).status).toBe(200);
    const projectId = /demo project (\S+)/.exec(run.output())![1]!;
    const apiKey = /shown once:\n\s+(\S+)/.exec(run.output())![1]!;
    const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    // local-work defaults, said in the banner
    expect(run.output()).toContain('at CRAWL_EXIT_RPS=200 (the start:sim default; set it to change)');
    expect(run.output()).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true (the start:sim default; set it to change)');
    const targets = Array.from({ length: 60 }, (_, i) => `B0SIMF${String(i).padStart(4, '0')}`);
    expect(new Set(targets).size).toBe(60);
    const started = Date.now();
    const created = await fetch(`http://127.0.0.1:${port}/v1/key/projects/${projectId}/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ type: 'details', targets }),
    });
    expect(created.status).toBe(202);
    const jobId = ((await created.json()) as { data: { id: string } }).data.id;
    let status = '';
    while (!['completed', 'failed'].includes(status) && Date.now() < started + 90_000) {
      await new Promise((r) => setTimeout(r, 250));
      status = ((await (await fetch(`http://127.0.0.1:${port}/v1/key/jobs/${jobId}`, { headers })).json()) as { data: { status: string } })
        .data.status;
    }
    expect(status).toBe('completed');
    // At the production politeness (0.8 requests per second through the one exit) 60 targets
    // cannot take less than 74 s; the local default makes it seconds (13 s measured on a 2-core
    // machine at load 12, where parsing is the bound). 60 s leaves a loaded machine a wide margin
    // while still failing if the default were not applied.
    expect(Date.now() - started).toBeLessThan(60_000);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  } finally {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
  }
}, 150_000);
