/** Tests run from TypeScript sources (swc, no type-check: `pnpm typecheck` does that). */
const { TIERS, tierPattern } = require('./scripts/test-tiers.cjs');

/**
 * Four projects, one per tier (docs/testing.md, "Test tiers"): `pnpm test` runs them all,
 * `pnpm test:unit` / `test:integration` / `test:repo` / `test:e2e` one. Those set TEST_TIER rather than pass
 * `--selectProjects`, which would swallow the file paths given after it as project names.
 * A test file's name says its tier (scripts/test-tiers.cjs): `*.unit.test.ts`, `*.int.test.ts`,
 * `*.repo.test.ts`, and the other tests under e2e/src.
 */
const selected = process.env.TEST_TIER ? process.env.TEST_TIER.split(',') : TIERS;
const unknown = selected.filter((t) => !TIERS.includes(t));
if (unknown.length) throw new Error(`TEST_TIER: unknown tier ${unknown.join(', ')} (tiers: ${TIERS.join(', ')})`);

/** @type {import('jest').Config} */
const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/e2e', '<rootDir>/chaos'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }] },
  moduleNameMapper: {
    '^@crawl/(gateway|worker|scheduler|webhooks|all)$': '<rootDir>/services/$1/src',
    '^@crawl/([a-z-]+)$': '<rootDir>/packages/$1/src',
  },
  // fails a test that received a response or webhook delivery breaking the OpenAPI document
  setupFilesAfterEnv: ['<rootDir>/packages/testing/src/contract-setup.ts'],
};

/** @type {import('jest').Config} */
module.exports = {
  projects: selected.map((tier) => ({
    ...shared,
    displayName: tier,
    ...(tier === 'e2e' ? { roots: ['<rootDir>/e2e'] } : {}),
    testRegex: tierPattern(tier),
    // unit tests get no stores: their URLs point at a host that does not exist
    ...(tier === 'unit'
      ? { setupFiles: ['<rootDir>/scripts/unit-tier-env.cjs'] }
      : { globalSetup: '<rootDir>/packages/testing/src/global-setup.ts' }),
  })),
  testTimeout: 60000,
  maxWorkers: 2,
  // one line at the end when tests skipped for want of the saved real pages (docs/testing.md)
  reporters: ['default', '<rootDir>/scripts/real-pages-reporter.cjs'],
};
