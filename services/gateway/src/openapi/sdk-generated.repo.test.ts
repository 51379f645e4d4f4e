import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocument } from './document';

/**
 * The committed OpenAPI document (packages/client/openapi.json) and the SDK's types generated
 * from it (packages/client/src/generated/openapi.ts) are what this gateway's document is now:
 * a change of a response schema without `pnpm sdk:generate` fails CI here.
 */
const CLIENT = path.resolve(__dirname, '../../../../packages/client');
const STALE = 'run `pnpm sdk:generate` and commit packages/client/openapi.json and src/generated/openapi.ts';

it('packages/client/openapi.json is the gateway document', () => {
  const committed = JSON.parse(readFileSync(path.join(CLIENT, 'openapi.json'), 'utf8'));
  expect([committed, STALE]).toEqual([JSON.parse(JSON.stringify(openApiDocument())), STALE]);
});

it('the generated SDK types are what openapi-typescript makes of the gateway document', () => {
  const run = spawnSync(process.execPath, [path.join(CLIENT, 'scripts/generate-types.mjs'), '-', '--check'], {
    input: JSON.stringify(openApiDocument()),
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
});
