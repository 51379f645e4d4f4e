/**
 * `pnpm --silent admin` and `pnpm exec crawl` before any `pnpm build`: the launcher builds the
 * entry's project once (one line on stderr) and then runs it as `node <entry>` would, instead of
 * Node's `Cannot find module .../dist/...`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const LAUNCHER = path.join(ROOT, 'scripts/build-on-first-use.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { planLaunch } = require(LAUNCHER) as {
  planLaunch: (entry: string, exists: (p: string) => boolean) => { action: string; project?: string; message?: string };
};

describe('the decision', () => {
  const existing =
    (...files: string[]) =>
    (p: string) =>
      files.some((f) => path.resolve(f) === p);

  it('runs an entry that exists, without looking for a build', () => {
    expect(planLaunch('packages/cli/dist/main.js', existing('packages/cli/dist/main.js'))).toMatchObject({ action: 'run' });
  });

  it('builds the package that owns a missing dist entry', () => {
    const plan = planLaunch('packages/cli/dist/main.js', existing('packages/cli/tsconfig.json', 'packages/cli/src'));
    expect(plan).toMatchObject({ action: 'build', project: path.resolve('packages/cli') });
  });

  it('says "run pnpm build first" in one line when no project owns the entry', () => {
    for (const entry of ['packages/gone/dist/main.js', 'nowhere/main.js']) {
      const plan = planLaunch(entry, existing());
      expect(plan.action).toBe('missing');
      expect(plan.message).toBe(`${entry} does not exist: run \`pnpm build\` first (from the repository root)`);
    }
  });
});

describe('a never-built project', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'first-use-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { rootDir: 'src', outDir: 'dist', module: 'commonjs', target: 'es2022', types: [], strict: true },
      }),
    );
    // prints its command line as JSON and exits with a code of its own
    writeFileSync(
      path.join(dir, 'src/main.ts'),
      'declare const process: { argv: string[]; exitCode: number; stdout: { write(s: string): void } };\nprocess.stdout.write(JSON.stringify(process.argv.slice(2)) + "\\n");\nprocess.exitCode = 3;\n',
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const launch = (...args: string[]) =>
    spawnSync(process.execPath, [LAUNCHER, path.join(dir, 'dist/main.js'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

  it('is built on first use, then run with its own arguments, stdout and exit code', () => {
    const first = launch('create-project', '--name', 'A B', '--json');
    expect(first.stdout).toBe('["create-project","--name","A B","--json"]\n');
    expect(first.status).toBe(3);
    expect(first.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^building \S+ \(first use, once; `pnpm build` builds everything\)$/),
    ]);
    expect(first.stderr).not.toContain('Cannot find module');

    const second = launch('again');
    expect(second).toMatchObject({ stdout: '["again"]\n', stderr: '', status: 3 });
  });

  it('a build that fails prints the compiler errors and exits 1 without running anything', () => {
    writeFileSync(path.join(dir, 'src/main.ts'), 'const n: number = "not a number";\n');
    const run = launch();
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/TS2322/);
    expect(run.stderr).toMatch(/build failed: run `pnpm build` to see why\n$/);
  });
});
