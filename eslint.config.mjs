import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';

// Not import.meta.dirname: that needs Node 20.11, and the repo supports every Node 20.
const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * Library ownership (docs/architecture.md, "Packages"): only the owning packages may import these.
 * A library with several owners is a decision, written next to it.
 */
const owned = {
  kysely: ['packages/db'],
  'pg-cursor': ['packages/db'],
  // The test harness creates and clones template databases (CREATE DATABASE … TEMPLATE), which
  // needs an admin connection outside any app Db; it is a devDependency only, never shipped.
  pg: ['packages/db', 'packages/testing'],
  bullmq: ['packages/queue'],
  // packages/redis holds the connection and the shared primitives (fixed windows, lease
  // semaphores, the exit spacing limiter); packages/queue opens BullMQ's own blocking
  // connection. bench and chaos read and clean Redis directly (queue depths, a run's key
  // prefix): they measure the queue from outside, so going through a package would hide it.
  ioredis: ['packages/redis', 'packages/queue', 'bench', 'chaos'],
  // bench/bare-server.ts is the bare-express baseline the gateway benchmark compares against.
  express: ['services/gateway', 'bench'],
  pino: ['packages/observability'],
  'prom-client': ['packages/observability'],
  cheerio: ['packages/marketplace'],
  // The page tree and its queries (docs/parsing.md) build on cheerio's own parts; the tokenizer
  // is the floor `pnpm bench parse` measures against.
  htmlparser2: ['packages/marketplace', 'bench'],
  domhandler: ['packages/marketplace'],
  entities: ['packages/marketplace'],
  'css-select': ['packages/marketplace'],
  'css-what': ['packages/marketplace'],
  // Two outbound HTTP clients with different safety rules: marketplace crawls through proxies
  // with cookies, webhook-delivery posts to customer URLs behind its SSRF guard. Neither may
  // depend on the other, so both own `got`.
  got: ['packages/marketplace', 'packages/webhook-delivery'],
};

/**
 * Every workspace package folder (relative to the repo root), read from pnpm-workspace.yaml so a
 * new package is covered without editing this file. The file only holds a flat `packages:` list
 * of `dir` or `dir/*` entries; anything else throws rather than silently covering less.
 */
function workspacePackages() {
  const yaml = fs.readFileSync(path.join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const block = /^packages:\n((?:[ \t]+-[^\n]*\n?)+)/m.exec(yaml);
  if (!block) throw new Error('eslint.config.mjs: no `packages:` list in pnpm-workspace.yaml');
  const globs = block[1]
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.replace(/^-\s*/, '').replace(/^['"]|['"]$/g, ''));
  const dirs = globs.flatMap((glob) => {
    if (glob.endsWith('/*')) {
      const parent = glob.slice(0, -2);
      return fs.readdirSync(path.join(ROOT, parent)).map((d) => `${parent}/${d}`);
    }
    if (/[*?{!]/.test(glob)) throw new Error(`eslint.config.mjs: unsupported workspace glob ${glob}`);
    return [glob];
  });
  return dirs
    .filter((dir) => fs.existsSync(path.join(ROOT, dir, 'package.json')))
    .map((dir) => ({ dir, name: JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')).name }));
}

const PACKAGES = workspacePackages();
const SERVICE_NAMES = PACKAGES.filter((p) => p.dir.startsWith('services/')).map((p) => p.name);
for (const [lib, owners] of Object.entries(owned)) {
  for (const owner of owners) {
    if (!PACKAGES.some((p) => p.dir === owner)) throw new Error(`eslint.config.mjs: owner ${owner} of ${lib} is not a workspace package`);
  }
}

/**
 * SQL lives only in packages/db (repositories with intent-named methods; no query building
 * elsewhere). @crawl/db re-exports kysely's `sql` for test harnesses, so services may not
 * import that name; the query-builder entry points are caught by `noQueryBuilding` below.
 * Exception: `test-support/**` (test harness code, like `*.test.ts`) may seed rows with SQL.
 */
const NO_SQL_IN_SERVICES = {
  name: '@crawl/db',
  importNames: ['sql'],
  message: 'SQL lives in packages/db: add an intent-named repository method',
};
const TEST_SUPPORT = '**/test-support/**';

/** One config object per workspace package: flat config would let a later object replace the rule. */
const boundaryRules = PACKAGES.flatMap(({ dir, name }) => {
  const rule = (extraPaths) => [
    'error',
    {
      paths: [
        ...Object.entries(owned)
          .filter(([, owners]) => !owners.includes(dir))
          .map(([lib, owners]) => ({ name: lib, message: `only ${owners.join(', ')} import${owners.length > 1 ? '' : 's'} ${lib}` })),
        ...extraPaths,
      ],
      // services/all is the development composition root of `pnpm start`: it alone starts every service.
      patterns:
        dir.startsWith('services/') && dir !== 'services/all'
          ? [{ group: SERVICE_NAMES.filter((s) => s !== name), message: 'services never import each other' }]
          : [],
    },
  ];
  if (!dir.startsWith('services/'))
    return [{ files: [`${dir}/src/**/*.ts`], ignores: ['**/*.test.ts'], rules: { 'no-restricted-imports': rule([]) } }];
  return [
    {
      files: [`${dir}/src/**/*.ts`],
      ignores: ['**/*.test.ts', TEST_SUPPORT],
      rules: { 'no-restricted-imports': rule([NO_SQL_IN_SERVICES]) },
    },
    { files: [`${dir}/src/${TEST_SUPPORT}`], ignores: ['**/*.test.ts'], rules: { 'no-restricted-imports': rule([]) } },
  ];
});

const PROCESS_ENV = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'read configuration through a config.ts schema',
};
/** kysely's query-builder entry points (on a Db or a Transaction): services call repositories instead. */
const QUERY_BUILDING = {
  selector:
    "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)$/]",
  message: 'SQL lives in packages/db: add an intent-named repository method',
};
const SERVICE_ROOTS = ['services/*/src/main.ts'];
/** After the composition-roots override, so services' main.ts keep the query-building ban (and only lose the process.env one). */
const noQueryBuilding = [
  {
    files: ['services/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', TEST_SUPPORT, ...SERVICE_ROOTS],
    rules: { 'no-restricted-syntax': ['error', PROCESS_ENV, QUERY_BUILDING] },
  },
  { files: SERVICE_ROOTS, rules: { 'no-restricted-syntax': ['error', QUERY_BUILDING] } },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // One program for the whole repo (tsconfig.check.json includes every src folder, tests
        // too): the per-package tsconfigs exclude tests, which projectService would then have
        // to put in a default project, and one program is faster than twenty.
        project: './tsconfig.check.json',
        tsconfigRootDir: ROOT,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      'no-restricted-syntax': ['error', PROCESS_ENV],
    },
  },
  {
    // Composition roots and test harnesses are where the environment is read.
    files: [
      '**/main.ts',
      '**/service-main.ts',
      '**/migrate-main.ts',
      '**/*.test.ts',
      '**/test-support/**',
      'packages/testing/**',
      'e2e/**',
      'bench/**',
    ],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // The console is a browser app with a tsconfig of its own (DOM, JSX, bundler resolution).
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    languageOptions: { parserOptions: { project: './console/tsconfig.json', tsconfigRootDir: ROOT } },
    // React event handlers may be async: React ignores what they return.
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }] },
  },
  ...boundaryRules,
  ...noQueryBuilding,
);
