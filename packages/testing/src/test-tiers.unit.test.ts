import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The check of test file names against their imports (scripts/test-tiers.cjs), tried on files written here. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS script that jest.config.js loads
const tiers = require('../../../scripts/test-tiers.cjs') as {
  TIERS: string[];
  tierOf(file: string): string | undefined;
  demandedTier(file: string): string;
  testFiles(): string[];
  misnamedTests(): { file: string; problem: string }[];
};

// Import lines are assembled from parts so that this file's own imports stay what the classifier
// reads for it (it is a unit test).
const Q = "'";
const from = (clause: string, module: string) => `import ${clause} from ${Q}${module}${Q};`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'test-tiers-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tierOfSource(lines: string[], helpers: Record<string, string[]> = {}): string {
  const sub = mkdtempSync(path.join(dir, 'case-'));
  for (const [name, helperLines] of Object.entries(helpers)) {
    mkdirSync(path.dirname(path.join(sub, name)), { recursive: true });
    writeFileSync(path.join(sub, name), helperLines.join('\n'));
  }
  const file = path.join(sub, 'some.test.ts');
  writeFileSync(file, [...lines, "it('runs', () => undefined);"].join('\n'));
  return tiers.demandedTier(file);
}

describe("the tier a test file's imports need", () => {
  it('is a unit test when it imports only code and store-free helpers', () => {
    expect(
      tierOfSource([
        from('{ parse }', './parse'),
        from('{ detailsItem, freePort, type TestStore }', '@crawl/testing'),
        from('type { Db }', '@crawl/db'),
      ]),
    ).toBe('unit');
  });

  it('is an integration test when it imports a store client or a child process', () => {
    for (const module of ['pg', 'ioredis', 'bullmq', 'node:child_process', 'child_process'])
      expect(tierOfSource([from('x', module)])).toBe('integration');
    expect(tierOfSource([`const { spawn } = require(${Q}node:child_process${Q});`])).toBe('integration');
  });

  it('is an integration test when it imports a store helper of @crawl/testing, or the package as a whole', () => {
    expect(tierOfSource([from('{ detailsItem, openTestStore }', '@crawl/testing')])).toBe('integration');
    expect(tierOfSource([from('{ TEST_REDIS_URL as url }', '@crawl/testing')])).toBe('integration');
    expect(tierOfSource([from('* as testing', '@crawl/testing')])).toBe('integration');
  });

  it('ignores type-only imports', () => {
    expect(tierOfSource([from('type { Redis }', 'ioredis'), from('{ type TestDatabase }', '@crawl/testing')])).toBe('unit');
  });

  it('follows test helpers it imports: a test-support file or any file importing @crawl/testing', () => {
    const harness = [from('{ createTestDatabase }', '@crawl/testing'), 'export const start = () => createTestDatabase;'];
    expect(tierOfSource([from('{ start }', './test-support/harness')], { 'test-support/harness.ts': harness })).toBe('integration');
    expect(tierOfSource([from('{ start }', './helper')], { 'helper.ts': harness })).toBe('integration');
    expect(
      tierOfSource([from('{ spawn }', './test-support/run')], {
        'test-support/run.ts': [from('{ spawn }', 'node:child_process'), 'export { spawn };'],
      }),
    ).toBe('integration');
  });

  it('does not follow production code, which may use Redis without the test touching it', () => {
    expect(
      tierOfSource([from('{ limiter }', './limiter')], { 'limiter.ts': [from('Redis', 'ioredis'), 'export const limiter = Redis;'] }),
    ).toBe('unit');
  });

  it('is an e2e test when it starts service processes', () => {
    expect(tierOfSource([from('{ ServiceProcess }', '@crawl/testing')])).toBe('e2e');
  });
});

describe('the repository', () => {
  it("names every test file's tier, and no file needs a higher tier than its name says", () => {
    expect(tiers.misnamedTests()).toEqual([]);
    const all = tiers.testFiles();
    expect(all).toContain(__filename);
    expect(tiers.tierOf(__filename)).toBe('unit');
    for (const tier of tiers.TIERS) expect(all.some((f) => tiers.tierOf(f) === tier)).toBe(true);
  });

  it('reads the tier from the name, and e2e from the folder', () => {
    const root = path.resolve(__dirname, '../../..');
    expect(tiers.tierOf(path.join(root, 'packages/x/src/a.int.test.ts'))).toBe('integration');
    expect(tiers.tierOf(path.join(root, 'e2e/src/a.repo.test.ts'))).toBe('repo');
    expect(tiers.tierOf(path.join(root, 'e2e/src/a.test.ts'))).toBe('e2e');
    expect(tiers.tierOf(path.join(root, 'packages/x/src/a.test.ts'))).toBeUndefined();
  });
});
