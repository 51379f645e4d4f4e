import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ACCOUNT_RESOURCES, API_RESOURCES, OPERATIONS, PUBLIC_RESOURCES } from './index';
import { ACCOUNT_PREFIX, API_PREFIX, expressPath } from './route';

const ROUTES_DIR = __dirname;
const resourceDirs = readdirSync(ROUTES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const sources = (dir: string) =>
  readdirSync(path.join(ROUTES_DIR, dir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => ({ file: `${dir}/${f}`, text: readFileSync(path.join(ROUTES_DIR, dir, f), 'utf8') }));
const importsOf = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);

it('every resource folder has its routes file, and the table mounts each resource once', () => {
  for (const dir of resourceDirs) expect(readdirSync(path.join(ROUTES_DIR, dir))).toContain(`${dir}.routes.ts`);
  const resources = [...API_RESOURCES, ...ACCOUNT_RESOURCES, ...PUBLIC_RESOURCES];
  // keys/ holds two resources: the keys of the account API and /v1/key/me
  expect(resources).toHaveLength(resourceDirs.length + 1);
  expect(new Set(resources).size).toBe(resources.length);
});

it('no route reaches a repository: routes files import nothing from @crawl/db', () => {
  const offenders = resourceDirs
    .flatMap(sources)
    .filter(({ file, text }) => file.endsWith('.routes.ts') && importsOf(text).includes('@crawl/db'));
  expect(offenders.map((o) => o.file)).toEqual([]);
});

it('nothing under routes/ imports openapi/ (the document is built from the routes, never the other way)', () => {
  const top = readdirSync(ROUTES_DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => ({ file: f, text: readFileSync(path.join(ROUTES_DIR, f), 'utf8') }));
  const offenders = [...top, ...resourceDirs.flatMap(sources)].filter(({ text }) => importsOf(text).some((i) => /(^|\/)openapi\//.test(i)));
  expect(offenders.map((o) => o.file)).toEqual([]);
});

it('every operation is written once, each under the prefix of its access', () => {
  const keys = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`);
  expect(new Set(keys).size).toBe(keys.length);
  for (const op of API_RESOURCES.flatMap((r) => r.routes)) {
    expect(op.access ?? 'api').toBe('api');
    expect(op.path.startsWith(`${API_PREFIX}/`)).toBe(true);
  }
  for (const op of ACCOUNT_RESOURCES.flatMap((r) => r.routes)) {
    expect(['session', 'anonymous']).toContain(op.access);
    expect(op.path.startsWith(`${ACCOUNT_PREFIX}/`)).toBe(true);
  }
  for (const op of PUBLIC_RESOURCES.flatMap((r) => r.routes)) {
    expect(op.access).toBe('public');
    expect(op.path.startsWith('/v1/')).toBe(false);
  }
});

it('derives the express path from the documented one', () => {
  expect(expressPath({ method: 'post', path: '/v1/key/projects/{projectId}/webhooks/deliveries/{deliveryId}/resend' } as never)).toBe(
    '/projects/:projectId/webhooks/deliveries/:deliveryId/resend',
  );
  expect(expressPath({ method: 'get', path: '/readyz', access: 'public' } as never)).toBe('/readyz');
  expect(expressPath({ method: 'post', path: '/v1/account/keys/{keyId}/rotate', access: 'session' } as never)).toBe('/keys/:keyId/rotate');
  expect(() => expressPath({ method: 'get', path: '/jobs/{jobId}' } as never)).toThrow(/under \/v1\/key\//);
});
