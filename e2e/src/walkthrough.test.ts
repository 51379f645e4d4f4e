/**
 * The walk-through with curl (docs/walkthrough.md) is `scripts/walkthrough.sh`: the page's blocks
 * are the script's blocks, verbatim and in order, and the README's "The API in five calls" is
 * five of them. The script runs with bash against `pnpm start:sim` (services/all with
 * --simulator, as a newcomer starts it, without any setting of ours), checking what each step
 * returned, and must leave nothing in the repository: the steps write into a temporary folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, freePort, type TestDatabase, TEST_REDIS_URL, uniquePrefix } from '@crawl/testing';

const ROOT = path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/walkthrough.sh');
const STEPS = [
  'helpers',
  'project',
  'receiver',
  'webhooks',
  'job',
  'poll',
  'results',
  'deliveries',
  'tracking',
  'schedules',
  'analytics',
  'usage',
  'estimate',
  'delete',
  'stop',
];
/** The steps the README shows: a project and its key, then a job created, polled, read and exported. */
const README_STEPS = ['helpers', 'project', 'job', 'poll', 'results'];

/** The script's blocks: the lines between `# >>> name` and `# <<<`. */
function scriptBlocks(): { name: string; text: string }[] {
  return [...readFileSync(SCRIPT, 'utf8').matchAll(/^# >>> (\S+)\n([\s\S]*?)^# <<<$/gm)].map((m) => ({ name: m[1]!, text: m[2]! }));
}

/** The ```sh blocks of a markdown text, but the one that starts the stack. */
function shBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).filter((text) => !text.startsWith('pnpm start:sim'));
}

/** The README's section that starts with `## <title>`. */
function readmeSection(title: string): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(`\n## ${title}\n`);
  expect([title, start > 0]).toEqual([title, true]);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

it("docs/walkthrough.md's blocks are the script's blocks, verbatim and in order", () => {
  const blocks = scriptBlocks();
  expect(blocks.map((b) => b.name)).toEqual(STEPS);
  expect(shBlocks(readFileSync(path.join(ROOT, 'docs/walkthrough.md'), 'utf8'))).toEqual(blocks.map((b) => b.text));
});

it('the README\'s "The API in five calls" is five of those blocks, verbatim and in order', () => {
  const blocks = scriptBlocks().filter((b) => README_STEPS.includes(b.name));
  expect(shBlocks(readmeSection('The API in five calls'))).toEqual(blocks.map((b) => b.text));
});

describe('scripts/walkthrough.sh against `pnpm start:sim`', () => {
  let database: TestDatabase;
  let stack: ChildProcess;
  let banner = '';
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
    // A free port can be taken between freePort() and the stack's listen (by another test's
    // connection or listener): the stack then says so and exits, and is started again on another.
    for (let attempt = 0; attempt < 3; attempt++) {
      port = await freePort();
      // the newcomer's environment: start:sim's own defaults for loopback receivers and politeness
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: uniquePrefix('walk'),
        PORT: String(port),
        METRICS_PORT: '',
        LOG_LEVEL: 'silent',
      };
      delete env.WEBHOOK_ALLOW_PRIVATE_URLS;
      delete env.CRAWL_EXIT_RPS;
      banner = '';
      stack = spawn(process.execPath, [path.join(ROOT, 'services/all/dist/main.js'), '--simulator'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      stack.stdout!.on('data', (c: Buffer) => (banner += c.toString()));
      stack.stderr!.on('data', (c: Buffer) => (banner += c.toString()));
      const deadline = Date.now() + 30_000;
      while (!banner.includes('  webhooks ') && stack.exitCode === null && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      if (!banner.includes(`port ${port} is already in use`)) break;
      if (stack.exitCode === null) await new Promise((resolve) => stack.once('exit', resolve));
    }
    expect(banner).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true (the start:sim default');
  }, 100_000);

  afterAll(async () => {
    if (stack && stack.exitCode === null) {
      const exited = new Promise((resolve) => stack.once('exit', resolve));
      stack.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
  }, 30_000);

  it('passes every step, and leaves no file in the repository', async () => {
    const receiverPort = await freePort();
    const before = new Set(readdirSync(ROOT));
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('bash', [SCRIPT], {
        cwd: ROOT,
        env: { ...process.env, API: `http://localhost:${port}`, RECEIVER_PORT: String(receiverPort), DATABASE_URL: database.url },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    const passed = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('ok: '))
      .map((l) => l.slice(4));
    // every step checked its outcome (the script stops at the first wrong one, naming it on stderr)
    expect({ passed, failure: run.stderr.split('\n').filter((l) => l.startsWith('FAILED')) }).toEqual({ passed: STEPS, failure: [] });
    expect(run.code).toBe(0);
    // what the steps printed, as the README's comments say
    expect(run.stdout).toMatch(/"success":true,"statusCode":200/);
    // (curl prints no newline after a body: what follows one starts on the same line)
    expect(run.stdout).toMatch(/job\.completed \{"id":"dlv_\w+","event":"job\.completed"/);
    expect(run.stdout).toMatch(/\}\}204\n/);
    expect(run.stdout).toContain('"code":"GONE"');
    // what the steps wrote went to their temporary folder: a file they left here would be named
    expect({ leftInTheRepository: readdirSync(ROOT).filter((name) => !before.has(name)) }).toEqual({ leftInTheRepository: [] });
    // the receiver was stopped by the script
    await expect(fetch(`http://127.0.0.1:${receiverPort}/`)).rejects.toThrow();
  }, 180_000);
});
