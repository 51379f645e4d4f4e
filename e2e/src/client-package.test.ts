/**
 * @crawl/client as someone outside this repository gets it: `pnpm pack` of
 * packages/client gives one tarball, and `npm install <tarball>` in an empty project, with no
 * registry (`--offline`), gives a working `crawl` bin and a requirable SDK. This holds only while
 * the package has no runtime dependencies and no `workspace:` specifiers, which is checked on the
 * packed package.json. Also: `pnpm exec crawl` at the repository root (a root devDependency).
 *
 * Slow by nature (npm and pnpm start-up, a tsc run): generous timeouts.
 */
import { type ExecFileSyncOptions, execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const CLIENT = path.join(ROOT, 'packages/client');

let tmp: string;
let tarball: string;
let project: string;
/** npm with a private cache, so the test neither reads nor fills the user's ~/.npm. */
let npmEnv: NodeJS.ProcessEnv;

function run(cmd: string, args: string[], options: ExecFileSyncOptions = {}): string {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options }) as string;
}

/** Runs a command to completion; a non-zero exit is returned, not thrown, so tests can assert on it. */
function capture(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  // Incremental: fast when `pnpm build` already ran, and never packs a stale dist.
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'packages/client'], { cwd: ROOT, stdio: 'inherit' });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crawl-client-package-'));
  npmEnv = { ...process.env, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' };

  const packDir = path.join(tmp, 'pack');
  run('pnpm', ['pack', '--pack-destination', packDir], { cwd: CLIENT });
  const packed = fs.readdirSync(packDir);
  expect(packed).toEqual(['crawl-client-0.1.0.tgz']);
  tarball = path.join(packDir, packed[0]!);

  project = path.join(tmp, 'consumer');
  fs.mkdirSync(project);
  run('npm', ['init', '-y'], { cwd: project, env: npmEnv });
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project, env: npmEnv });
}, 240_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the built js and d.ts and the README, not tests, sources or source maps', () => {
    const entries = run('tar', ['tzf', tarball]).trim().split('\n');
    expect(entries.every((e) => e.startsWith('package/'))).toBe(true);
    expect(entries).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/cli.js',
        'package/bin/crawl.js',
        'package/dist/webhook-signature.js',
        'package/dist/webhook-signature.d.ts',
      ]),
    );
    expect(entries.filter((e) => /\.test\.|\/src\/|\.map$|tsbuildinfo/.test(e))).toEqual([]);
  });

  it('has a package.json without workspace: specifiers or @crawl/* dependencies', () => {
    const text = run('tar', ['xzf', tarball, '-O', 'package/package.json']);
    expect(text).not.toContain('workspace:');
    const pkg = JSON.parse(text) as Record<string, unknown>;
    // No runtime dependencies at all: that is what lets `npm install --offline` work.
    const fields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies'];
    expect(Object.fromEntries(fields.map((f) => [f, pkg[f] ?? {}]))).toEqual(Object.fromEntries(fields.map((f) => [f, {}])));
    expect(Object.keys((pkg.devDependencies ?? {}) as object).filter((d) => d.startsWith('@crawl/'))).toEqual([]);
    expect(pkg).toMatchObject({ name: '@crawl/client', bin: { crawl: 'bin/crawl.js' } });
  });
});

describe('installed with npm in an empty project, offline', () => {
  it('installs that one package and nothing else', () => {
    const lock = JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).sort()).toEqual(['', 'node_modules/@crawl/client']);
  });

  it('provides a working `crawl` bin', () => {
    const help = capture(path.join(project, 'node_modules/.bin/crawl'), ['--help'], project, npmEnv);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^crawl 0\.1\.0: command-line client of the crawl data service/);
    expect(help.stdout).toContain('Usage: crawl <command> [options]');

    const npx = capture('npx', ['--offline', 'crawl', '--help'], project, npmEnv);
    expect(npx.code).toBe(0);
    expect(npx.stdout).toContain('Usage: crawl <command> [options]');
  });

  it('can be required: CrawlClient, and verify accepts what sign signs', () => {
    const script = `
      const c = require('@crawl/client');
      const body = JSON.stringify({ id: 'whd_1', event: 'job.completed' });
      const client = new c.CrawlClient({ apiKey: 'cds_test', baseUrl: 'http://127.0.0.1:1' });
      process.stdout.write(JSON.stringify({
        CrawlClient: typeof c.CrawlClient,
        jobs: typeof client.jobs.create,
        verify: c.verify('s3cret', body, c.sign('s3cret', body)),
        events: c.WEBHOOK_EVENT_NAMES,
      }));`;
    const out = capture(process.execPath, ['-e', script], project);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(out.stdout)).toEqual({
      CrawlClient: 'function',
      jobs: 'function',
      verify: { ok: true, timestamp: expect.any(Number) },
      events: expect.arrayContaining(['job.completed']),
    });
  });

  it('type-checks a TypeScript consumer against the packed declarations', () => {
    fs.writeFileSync(
      path.join(project, 'consumer.ts'),
      [
        "import { CrawlClient, verify, type Job, type VerifyResult } from '@crawl/client';",
        "const client = new CrawlClient({ apiKey: 'cds_test' });",
        "const pending: Promise<Job> = client.jobs.get('job_1');",
        "const result: VerifyResult = verify('secret', Buffer.from('{}'), undefined);",
        'export { pending, result };',
        '',
      ].join('\n'),
    );
    // The repo's @types/node stands in for the consumer's own (the SDK's types mention Buffer and streams).
    const tsc = capture(
      process.execPath,
      [
        require.resolve('typescript/bin/tsc'),
        '--noEmit',
        '--strict',
        '--module',
        'node16',
        '--moduleResolution',
        'node16',
        '--types',
        'node',
        '--typeRoots',
        path.join(ROOT, 'node_modules/@types'),
        'consumer.ts',
      ],
      project,
    );
    expect(tsc).toMatchObject({ code: 0, stdout: '' });
  });
});

it('`pnpm exec crawl --help` works at the repository root', () => {
  const help = capture('pnpm', ['exec', 'crawl', '--help'], ROOT);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('Usage: crawl <command> [options]');
}, 60_000);
