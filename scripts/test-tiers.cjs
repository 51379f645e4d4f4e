/**
 * The test tiers (docs/testing.md, "Test tiers"). A test file says its tier in its name:
 *
 * - `*.unit.test.ts`: no Postgres, no Redis, no child process;
 * - `*.int.test.ts`: real Postgres and Redis or a child process, the gateway mounted in-process;
 * - `*.repo.test.ts`: checks over the whole repository (lint boundaries, README blocks, generated
 *   files up to date);
 * - `e2e/src/**\/*.test.ts` (any other name there): the services together, several as processes.
 *
 * jest.config.js makes one project per tier from these names. The imports are read only to check
 * the names (the repository check in packages/testing/src/test-tiers.unit.test.ts): a unit test
 * that imports a store client, a child process or a store helper of @crawl/testing, itself or
 * through a test helper, names the wrong tier; so does a test outside e2e/src that starts
 * service processes.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TEST_ROOTS = ['packages', 'services', 'e2e', 'chaos'];
const TIERS = ['unit', 'integration', 'repo', 'e2e'];

/** Modules whose import means real Postgres, real Redis or a child process. */
const INTEGRATION_MODULES = new Set(['pg', 'pg-cursor', 'ioredis', 'bullmq', 'child_process', 'node:child_process']);

/** @crawl/testing exports that touch neither a store nor a process: a unit test may import these. */
const STORE_FREE_HELPERS = new Set([
  'MAX_CAPTURED_BODY',
  'contractRecorder',
  'recordContractProblems',
  'takeContractProblems',
  'withApiContract',
  'createContractChecker',
  'startRecordingServer',
  'tunnelConnect',
  'freePort',
  'uniquePrefix',
  'templateName',
  'uniqueAsin',
  'detailsItem',
  'searchItem',
  'REPO_ROOT',
  'jobRow',
  'REAL_PAGES_DIR',
  'REAL_PAGES_WANTED_AT',
  'realPage',
  'describeOnRealPages',
  'REAL_PAGES_SKIP_REASON',
]);
/** packages/testing modules a test inside that package may import relatively and stay a unit test. */
const STORE_FREE_TESTING_MODULES = new Set(['contract-recorder', 'openapi-contract', 'openapi-strict', 'recording-server', 'real-pages']);
const TESTING_SRC = path.join(ROOT, 'packages', 'testing', 'src');

/** The import statements of a source file: module, whether type-only, and the value names bound. */
function importsOf(source) {
  const found = [];
  const statement = /(?:^|[;\n])\s*(import|export)\s+(type\s+)?([\w*\s{},$]*?)\s*from\s*['"]([^'"]+)['"]/g;
  for (const m of source.matchAll(statement)) {
    const clause = m[3];
    const names = [];
    let opaque = false; // default or namespace import: the names used are not visible here
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces) {
      for (const part of braces[1].split(',')) {
        const name = part.trim();
        if (!name || name.startsWith('type ')) continue;
        names.push(name.split(/\s+as\s+/)[0].trim());
      }
    }
    const outside = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, ' ')
      .trim();
    if (outside) opaque = true;
    if (m[1] === 'export' && clause.trim() === '*') opaque = true;
    found.push({ module: m[4], typeOnly: Boolean(m[2]), names, opaque });
  }
  for (const m of source.matchAll(/(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g))
    found.push({ module: m[1], typeOnly: false, names: [], opaque: true });
  for (const m of source.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ module: m[1], typeOnly: false, names: [], opaque: true });
  return found;
}

function resolveRelative(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

const RANK = { unit: 0, integration: 1, e2e: 2 };
const higher = (a, b) => (RANK[b] > RANK[a] ? b : a);

/** The tier a file's imports demand, following test helpers it imports relatively. */
function demandedTier(file, seen = new Set()) {
  if (seen.has(file)) return 'unit';
  seen.add(file);
  let tier = 'unit';
  for (const imp of importsOf(fs.readFileSync(file, 'utf8'))) {
    if (imp.typeOnly) continue;
    if (INTEGRATION_MODULES.has(imp.module)) tier = higher(tier, 'integration');
    else if (imp.module === '@crawl/testing') {
      if (imp.names.includes('ServiceProcess')) tier = 'e2e';
      else if (imp.opaque || imp.names.some((n) => !STORE_FREE_HELPERS.has(n))) tier = higher(tier, 'integration');
    } else if (imp.module.startsWith('.')) {
      if (imp.names.length === 0 && !imp.opaque) continue;
      const target = resolveRelative(file, imp.module);
      if (!target) continue;
      if (target.startsWith(TESTING_SRC + path.sep)) {
        if (!STORE_FREE_TESTING_MODULES.has(path.basename(target, '.ts'))) tier = higher(tier, 'integration');
      } else if (isTestHelper(target)) {
        tier = higher(tier, demandedTier(target, seen));
      }
    }
  }
  return tier;
}

function isTestHelper(file) {
  if (file.split(path.sep).includes('test-support')) return true;
  return /from\s*['"]@crawl\/testing['"]/.test(fs.readFileSync(file, 'utf8'));
}

const TIER_SUFFIX = { unit: '.unit.test.ts', integration: '.int.test.ts', repo: '.repo.test.ts' };

/** The tier a test file's name gives it, or undefined for a test file that names none. */
function tierOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  for (const [tier, suffix] of Object.entries(TIER_SUFFIX)) if (rel.endsWith(suffix)) return tier;
  if (rel.startsWith('e2e/')) return 'e2e';
  return undefined;
}

/** Jest's pattern for one tier's files, over paths from the repository root. */
function tierPattern(tier) {
  if (tier === 'e2e') return '/e2e/src/.*(?<!\\.(unit|int|repo))\\.test\\.ts$';
  return `${TIER_SUFFIX[tier].replace(/\./g, '\\.')}$`;
}

/** Every test file under the test roots' src folders: `src/**\/*.test.ts`. */
function testFiles() {
  const files = [];
  const walk = (dir, inSrc) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, inSrc || entry.name === 'src');
      else if (inSrc && entry.name.endsWith('.test.ts')) files.push(full);
    }
  };
  for (const root of TEST_ROOTS) if (fs.existsSync(path.join(ROOT, root))) walk(path.join(ROOT, root), false);
  return files.sort();
}

/** Test files whose name and imports disagree: `{file, problem}` (paths from the repository root). */
function misnamedTests() {
  const problems = [];
  for (const file of testFiles()) {
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    const named = tierOf(file);
    if (!named) {
      problems.push({ file: rel, problem: 'names no tier: end it in .unit.test.ts, .int.test.ts or .repo.test.ts' });
      continue;
    }
    const needed = demandedTier(file);
    if (needed === 'e2e' && named !== 'e2e') problems.push({ file: rel, problem: 'starts service processes: it belongs under e2e/src' });
    else if (needed === 'integration' && named === 'unit')
      problems.push({ file: rel, problem: 'imports a store, a child process or a store helper: name it .int.test.ts' });
  }
  return problems;
}

module.exports = { TIERS, TIER_SUFFIX, tierOf, tierPattern, testFiles, demandedTier, misnamedTests };

// `node scripts/test-tiers.cjs` lists the test files whose names and imports disagree.
if (require.main === module) {
  const problems = misnamedTests();
  for (const { file, problem } of problems) console.log(`${file}: ${problem}`);
  process.exitCode = problems.length ? 1 : 0;
}
