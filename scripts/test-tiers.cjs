/**
 * Which jest project (tier) each test file belongs to, decided from where the file lives and what
 * it imports, so a new test file lands in the right tier without being listed anywhere
 * (docs/testing.md, "Test tiers"):
 *
 * - e2e: every test under e2e/src (the services together over HTTP, several as processes).
 * - integration: a test that reaches real Postgres or Redis or starts a child process: it imports
 *   pg, ioredis or bullmq, node's child_process, or a store helper of @crawl/testing (anything but
 *   the store-free helpers listed below), directly or through a test helper it imports
 *   (a file under a test-support folder, or any file importing @crawl/testing).
 * - unit: the rest. The unit project also points the test stores at a host that does not exist
 *   (scripts/unit-tier-env.cjs), so a unit test that opens a connection fails instead of passing.
 *
 * A file importing @crawl/testing's ServiceProcess outside e2e/src is e2e. OVERRIDES lists the
 * exceptions the rules cannot see.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TEST_ROOTS = ['packages', 'services', 'e2e', 'chaos'];
const TIERS = ['unit', 'integration', 'e2e'];

/** Exceptions to the rules, by path from the repository root, with the reason. */
const OVERRIDES = {};

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
]);
/** packages/testing modules a test inside that package may import relatively and stay a unit test. */
const STORE_FREE_TESTING_MODULES = new Set(['contract-recorder', 'openapi-contract', 'openapi-strict', 'recording-server']);
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

/** The tier of one test file (absolute path). */
function tierOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  if (OVERRIDES[rel]) return OVERRIDES[rel].tier;
  if (rel.startsWith('e2e/')) return 'e2e';
  return demandedTier(file);
}

/** Every test file jest would run: `src/**\/*.test.ts` under the test roots. */
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

/** `{unit: [...], integration: [...], e2e: [...]}`, absolute paths. */
function testFilesByTier() {
  const byTier = Object.fromEntries(TIERS.map((t) => [t, []]));
  for (const file of testFiles()) byTier[tierOf(file)].push(file);
  return byTier;
}

module.exports = { TIERS, OVERRIDES, tierOf, testFiles, testFilesByTier };

// `node scripts/test-tiers.cjs` prints each test file with its tier.
if (require.main === module) {
  for (const [tier, files] of Object.entries(testFilesByTier())) {
    console.log(`${tier} (${files.length})`);
    for (const f of files) console.log(`  ${path.relative(ROOT, f)}`);
  }
}
