import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Runs ESLint's Node API with the repo's eslint.config.mjs on source text placed (by file path
 * only, nothing is written) under a package's src folder, and returns the no-restricted-imports
 * messages. In a child process because ESLint loads its config with import(), which jest's VM
 * refuses. Type information is off: the probe files are not in tsconfig.check.json, and the
 * boundary rule does not need it.
 */
const LINT_SCRIPT = `
import { ESLint } from 'eslint';
const probes = JSON.parse(await new Promise((resolve) => { let s = ''; process.stdin.on('data', (c) => (s += c)).on('end', () => resolve(s)); }));
const eslint = new ESLint({
  overrideConfig: {
    languageOptions: { parserOptions: { project: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
  },
});
const out = [];
for (const { file, code } of probes) {
  const [result] = await eslint.lintText(code, { filePath: file });
  const fatal = result.messages.filter((m) => m.fatal);
  if (fatal.length) throw new Error(file + ': ' + fatal.map((m) => m.message).join('; '));
  out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
}
process.stdout.write(JSON.stringify(out));
`;

function restrictedImports(probes: { file: string; code: string }[]): string[][] {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', LINT_SCRIPT], {
    cwd: ROOT,
    input: JSON.stringify(probes.map((p) => ({ ...p, file: path.join(ROOT, p.file) }))),
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as string[][];
}

const importGot = "import got from 'got';\nexport default got;\n";

describe('lint: library ownership over every workspace package', () => {
  const probes = {
    gotInClient: { file: 'packages/client/src/probe.ts', code: importGot },
    bullmqInTesting: { file: 'packages/testing/src/probe.ts', code: "import { Queue } from 'bullmq';\nexport { Queue };\n" },
    expressInSimulator: { file: 'packages/simulator/src/probe.ts', code: "import express from 'express';\nexport default express;\n" },
    gotInWebhookDelivery: { file: 'packages/webhook-delivery/src/probe.ts', code: importGot },
    gotInMarketplace: { file: 'packages/marketplace/src/probe.ts', code: importGot },
    ioredisInGateway: { file: 'services/gateway/src/probe.ts', code: "import IORedis from 'ioredis';\nexport default IORedis;\n" },
    ioredisInRedis: { file: 'packages/redis/src/probe.ts', code: "import IORedis from 'ioredis';\nexport default IORedis;\n" },
    gatewayInWorker: { file: 'services/worker/src/probe.ts', code: "import * as gw from '@crawl/gateway';\nexport { gw };\n" },
  };
  let messages: Record<keyof typeof probes, string[]>;

  beforeAll(() => {
    const names = Object.keys(probes) as (keyof typeof probes)[];
    const results = restrictedImports(names.map((n) => probes[n]));
    messages = Object.fromEntries(names.map((n, i) => [n, results[i]])) as typeof messages;
  });

  it('fails an import of a library another package owns', () => {
    expect(messages.gotInClient).toEqual([expect.stringContaining('only packages/marketplace, packages/webhook-delivery import got')]);
  });

  it('covers packages the old hand-kept list missed (testing, simulator)', () => {
    expect(messages.bullmqInTesting).toEqual([expect.stringContaining('only packages/queue imports bullmq')]);
    expect(messages.expressInSimulator).toEqual([expect.stringContaining('express')]);
  });

  it('lets every listed owner import its library', () => {
    expect(messages.gotInWebhookDelivery).toEqual([]);
    expect(messages.gotInMarketplace).toEqual([]);
    expect(messages.ioredisInRedis).toEqual([]);
  });

  it("keeps Redis behind packages/redis (and BullMQ's connection in packages/queue)", () => {
    expect(messages.ioredisInGateway).toEqual([
      expect.stringContaining('only packages/redis, packages/queue, bench, chaos import ioredis'),
    ]);
  });

  it('fails a service importing another service', () => {
    expect(messages.gatewayInWorker).toEqual([expect.stringContaining('services never import each other')]);
  });
});
