/** Tests run from TypeScript sources (swc, no type-check: `pnpm typecheck` does that). */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/e2e', '<rootDir>/chaos'],
  testMatch: ['**/src/**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }] },
  moduleNameMapper: {
    '^@crawl/(gateway|worker|scheduler|webhooks|all)$': '<rootDir>/services/$1/src',
    '^@crawl/([a-z-]+)$': '<rootDir>/packages/$1/src',
  },
  globalSetup: '<rootDir>/packages/testing/src/global-setup.ts',
  // fails a test that received a response or webhook delivery breaking the OpenAPI document
  setupFilesAfterEnv: ['<rootDir>/packages/testing/src/contract-setup.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
