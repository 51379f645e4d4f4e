/**
 * The `crawl` command as a user runs it: the built `packages/client/dist/cli.js` in its own
 * process, against a real gateway on a real port with workers and the marketplace simulator.
 */
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createApp } from '@crawl/gateway';
import { createMetricsRegistry } from '@crawl/observability';
import type { TestTenant } from '@crawl/testing';
import { parse } from 'csv-parse/sync';
import { type Stack, startStack } from './stack';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'packages/client/dist/cli.js');

let stack: Stack;
let server: http.Server;
let baseUrl: string;
let tenant: TestTenant;

beforeAll(async () => {
  // Build the CLI (incremental: fast when `pnpm test` already built everything).
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'packages/client'], { cwd: ROOT, stdio: 'inherit' });
  stack = await startStack();
  server = http.createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('gateway') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  tenant = await stack.tenant();
}, 120_000);
afterEach(() => stack.simulator.clearFaults());
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await stack?.close();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function crawl(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, CRAWL_API_KEY: tenant.apiKey, CRAWL_PROJECT_ID: tenant.projectId, CRAWL_BASE_URL: baseUrl, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

it('jobs create, jobs wait, export --format csv, results, jobs get, jobs list', async () => {
  const created = await crawl([
    'jobs',
    'create',
    '--type',
    'details',
    '--marketplace',
    'US',
    '--lang',
    'en-US',
    '--quiet',
    'B0CLICLI01',
    'B0CLICLI02',
  ]);
  expect(created).toMatchObject({ code: 0, stderr: '' });
  const id = created.stdout.trim();
  expect(id).toMatch(/^job_\w+$/);

  const waited = await crawl(['jobs', 'wait', id]);
  expect(waited.code).toBe(0);
  expect(JSON.parse(waited.stdout)).toMatchObject({ id, status: 'completed', progress: { total: 2, succeeded: 2, failed: 0 } });
  // the progress line: status, succeeded/failed/total, elapsed (stderr is not a terminal: one line per change)
  const lines = waited.stderr.trim().split('\n');
  expect(lines.at(-1)).toMatch(new RegExp(`^${id} completed +succeeded 2 {2}failed 0 {2}total 2 {2}elapsed \\d+s$`));

  const exported = await crawl(['export', id, '--format', 'csv']);
  expect(exported).toMatchObject({ code: 0, stderr: '' });
  const rows = parse(exported.stdout, { columns: true }) as Record<string, string>[];
  expect(rows.map((r) => r.asin).sort()).toEqual(['B0CLICLI01', 'B0CLICLI02']);
  expect(rows.every((r) => r.availability_status !== undefined && r.price_currency === 'USD')).toBe(true);

  const results = await crawl(['results', id]);
  expect(results.code).toBe(0);
  const items = results.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { asin: string });
  expect(items.map((i) => i.asin).sort()).toEqual(['B0CLICLI01', 'B0CLICLI02']);

  const got = await crawl(['jobs', 'get', id]);
  expect(JSON.parse(got.stdout)).toMatchObject({ id, status: 'completed' });
  const listed = await crawl(['jobs', 'list', '--q', 'B0CLICLI01', '--status', 'completed', '--limit', '5']);
  expect(listed.code).toBe(0);
  expect(
    listed.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: string }).id),
  ).toEqual([id]);

  // flags instead of the environment
  const viaFlags = await crawl(['jobs', 'get', id, '--api-key', tenant.apiKey, '--base-url', baseUrl], {
    CRAWL_API_KEY: undefined,
    CRAWL_BASE_URL: undefined,
  });
  expect(viaFlags.code).toBe(0);
});

it('jobs wait exits 1 for a failed job; jobs retry makes a new job; jobs cancel of an ended job is an error', async () => {
  stack.simulator.setFaults([{ match: 'B0CLIGONE1', fault: { kind: 'not_found' } }]);
  const created = await crawl(['jobs', 'create', '--type', 'details', 'B0CLIGONE1']);
  const job = JSON.parse(created.stdout) as { id: string; status: string };
  expect(job.status).toBe('queued');
  const waited = await crawl(['jobs', 'wait', job.id, '--quiet']);
  expect(waited).toMatchObject({ code: 1, stdout: '', stderr: '' });

  const retried = await crawl(['jobs', 'retry', job.id, '--quiet']);
  expect(retried.code).toBe(0);
  expect(retried.stdout.trim()).toMatch(/^job_\w+$/);
  expect(retried.stdout.trim()).not.toBe(job.id);

  const cancelled = await crawl(['jobs', 'cancel', job.id]);
  expect(cancelled.code).toBe(2);
  expect(cancelled.stderr).toMatch(
    new RegExp(`^error INVALID_STATE: Job ${job.id} is failed.* \\([0-9a-f-]{36}\\)\\n {2}details: \\{"status":"failed"\\}\\n$`),
  );
});

it('errors: "error CODE: message (request id)" on stderr and exit status 2', async () => {
  const missing = await crawl(['jobs', 'get', 'job_doesnotexist']);
  expect(missing).toMatchObject({ code: 2, stdout: '' });
  expect(missing.stderr).toMatch(/^error NOT_FOUND: Job job_doesnotexist not found\. \([0-9a-f-]{36}\)\n$/);

  const invalid = await crawl(['jobs', 'create', '--type', 'search', '--marketplace', 'XX', 'usb cable']);
  expect(invalid.code).toBe(2);
  expect(invalid.stderr).toMatch(/^error VALIDATION_ERROR: .+\([0-9a-f-]{36}\)\n {2}body\.config\.marketplace: .+\n/);

  const poor = await stack.tenant({ credits: 0 });
  const broke = await crawl(['jobs', 'create', '--type', 'details', 'B0CLIENT01'], {
    CRAWL_API_KEY: poor.apiKey,
    CRAWL_PROJECT_ID: poor.projectId,
  });
  expect(broke.code).toBe(2);
  expect(broke.stderr).toMatch(/^error INSUFFICIENT_CREDITS: .+\n {2}details: \{"balance":0,"cost":2\}\n$/);

  const notDone = await crawl(['export', 'job_doesnotexist', '--format', 'csv']);
  expect(notDone.stderr).toMatch(/^error NOT_FOUND/);

  const unauthorized = await crawl(['jobs', 'list'], { CRAWL_API_KEY: 'cds_wrong' });
  expect(unauthorized.code).toBe(2);
  expect(unauthorized.stderr).toMatch(/^error UNAUTHORIZED: /);

  const noKey = await crawl(['jobs', 'list'], { CRAWL_API_KEY: undefined });
  expect(noKey).toMatchObject({ code: 2, stdout: '' });
  expect(noKey.stderr).toMatch(/^error USAGE: no API key/);

  const badFlag = await crawl(['jobs', 'get', 'job_x', '--format', 'csv']);
  expect(badFlag.code).toBe(2);
  expect(badFlag.stderr).toMatch(/^error USAGE: .*--format/);
  const badFormat = await crawl(['export', 'job_x', '--format', 'xml']);
  expect(badFormat.stderr).toMatch(/^error USAGE: --format must be one of json, jsonl, csv, llm/);
});

it('--help on every level', async () => {
  const top = await crawl(['--help'], { CRAWL_API_KEY: undefined });
  expect(top).toMatchObject({ code: 0, stderr: '' });
  for (const command of ['jobs create', 'jobs get', 'jobs list', 'jobs wait', 'jobs cancel', 'jobs retry', 'export', 'results']) {
    expect(top.stdout).toContain(`  ${command} `);
    const help = await crawl([...command.split(' '), '--help'], { CRAWL_API_KEY: undefined });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(new RegExp(`^Usage: crawl ${command}`));
  }
  const jobs = await crawl(['jobs', '--help']);
  expect(jobs.stdout).toMatch(/^Usage: crawl jobs <command>/);
  const none = await crawl([]);
  expect(none.code).toBe(2);
  expect(none.stderr).toMatch(/Usage: crawl <command>/);
  const unknown = await crawl(['jobs', 'explode']);
  expect(unknown).toMatchObject({ code: 2 });
  expect(unknown.stderr).toMatch(/^error USAGE: unknown command 'jobs explode'/);
});
