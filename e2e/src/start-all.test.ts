import { spawn } from 'node:child_process';
import path from 'node:path';
import { createTestDatabase, freePort, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';

/**
 * `pnpm start` runs every service in one process: one /metrics on METRICS_PORT carries every
 * service's series (each family declared once), and the API port serves none.
 */
it("`pnpm start` (services/all) serves one /metrics on METRICS_PORT with every service's series, none on the API port", async () => {
  const database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  const port = await freePort();
  let metrics = await freePort();
  while (metrics === port) metrics = await freePort();
  const child = spawn(process.execPath, [path.resolve(__dirname, '../../services/all/dist/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: uniquePrefix('all'),
      PORT: String(port),
      METRICS_PORT: String(metrics),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 30_000;
    while (!output.includes('metrics') && child.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain(`  metrics  http://localhost:${metrics}/metrics   (every service; METRICS_PORT)`);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);

    const res = await fetch(`http://127.0.0.1:${metrics}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const service of ['gateway', 'worker', 'webhooks'])
      expect(text).toMatch(new RegExp(`^process_cpu_user_seconds_total\\{service="${service}"\\}`, 'm'));
    for (const family of ['queue_jobs', 'exports_in_flight', 'crawl_concurrency', 'crawl_in_flight', 'webhook_attempts_total']) {
      expect(text).toMatch(new RegExp(`^# TYPE ${family} `, 'm'));
    }
    // A family every service exports is declared once (a scraper refuses a second TYPE line).
    const declared = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!);
    expect(declared.length).toBeGreaterThan(20);
    expect(declared.filter((name, i) => declared.indexOf(name) !== i)).toEqual([]);
    expect((await fetch(`http://127.0.0.1:${metrics}/healthz`)).status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toMatch(/EADDRINUSE|Error:/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await database.drop();
  }
}, 60_000);
