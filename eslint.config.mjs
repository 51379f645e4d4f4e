import tseslint from 'typescript-eslint';

/** Library ownership (STYLE.md "Module boundaries"): only the owning package may import these. */
const owned = {
  kysely: 'packages/db', pg: 'packages/db', 'pg-cursor': 'packages/db',
  bullmq: 'packages/queue', ioredis: 'packages/queue',
  express: 'services/gateway',
  pino: 'packages/observability', 'prom-client': 'packages/observability',
  cheerio: 'packages/marketplace', got: 'packages/marketplace',
};

const SERVICES = ['gateway', 'worker', 'scheduler', 'webhooks', 'all'];
const DIRS = [
  ...['core', 'config', 'observability', 'db', 'queue', 'marketplace', 'jobs', 'cli', 'webhook-signature'].map((p) => `packages/${p}`),
  ...SERVICES.map((s) => `services/${s}`),
];

/** One config object per workspace folder: flat config would let a later object replace the rule. */
const boundaryRules = DIRS.map((dir) => ({
  files: [`${dir}/src/**/*.ts`],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: Object.entries(owned)
          .filter(([, owner]) => owner !== dir)
          .map(([lib, owner]) => ({ name: lib, message: `only ${owner} imports ${lib}` })),
        // services/all is the development composition root of `pnpm start`: it alone starts every service.
        patterns: dir.startsWith('services/') && dir !== 'services/all'
          ? [{ group: SERVICES.filter((s) => `services/${s}` !== dir).map((s) => `@crawl/${s}`), message: 'services never import each other' }]
          : [],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'read configuration through a config.ts schema' },
      ],
    },
  },
  {
    // Composition roots and test harnesses are where the environment is read.
    files: ['**/main.ts', '**/service-main.ts', '**/migrate-main.ts', '**/*.test.ts', '**/test-support/**', 'packages/testing/**', 'e2e/**', 'bench/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  ...boundaryRules,
);
