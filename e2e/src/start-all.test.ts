import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createTestDatabase, freePort, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';

/** A free port whose successor is free too (the webhooks service takes METRICS_PORT + 1). */
async function freePortPair(avoid: number): Promise<number> {
  for (;;) {
    const first = await freePort();
    if (first + 1 === avoid || first === avoid) continue;
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(first + 1, () => resolve(true));
    });
    if (free) {
      await new Promise((resolve) => probe.close(resolve));
      return first;
    }
  }
}

/** Issue 11.9: `pnpm start` with METRICS_PORT crashed with EADDRINUSE (worker and webhooks both bound it). */
it('`pnpm start` (services/all) with METRICS_PORT serves the worker and webhooks metrics on two ports', async () => {
  const database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  const port = await freePort();
  const metrics = await freePortPair(port);
  const child = spawn(process.execPath, [path.resolve(__dirname, '../../services/all/dist/main.js')], {
    env: { ...process.env, DATABASE_URL: database.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: uniquePrefix('all'), PORT: String(port), METRICS_PORT: String(metrics), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 30_000;
    while (!output.includes('metrics') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain(`worker :${metrics}/metrics  webhooks :${metrics + 1}/metrics`);
    for (const p of [port, metrics, metrics + 1]) {
      const res = await fetch(`http://127.0.0.1:${p}/metrics`);
      expect([p, res.status]).toEqual([p, 200]);
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/EADDRINUSE|Error:/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await database.drop();
  }
}, 60_000);
