/**
 * A client generated from the gateway's OpenAPI document by a second generator, independent of
 * the one the SDK uses (openapi-typescript): @hey-api/openapi-ts with its fetch client. Generated
 * from the document a running gateway serves, type-checked with `tsc --strict` together with a
 * program that uses it, and that program run against the gateway: it creates a job, reads it
 * back, and lists the project's jobs, through the generated functions named after the
 * document's operationIds.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '@crawl/gateway';
import { createMetricsRegistry } from '@crawl/observability';
import { type Stack, startStack } from './stack';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

/** Uses the generated functions and types; `tsc --strict` checks it along with the client. */
const PROGRAM = `
import { createClient } from './client/client';
import { createJob, getJob, listJobs, type Job } from './client';

const client = createClient({ baseUrl: process.env.BASE_URL!, headers: { Authorization: \`Bearer \${process.env.API_KEY}\` } });

async function main(): Promise<void> {
  const projectId = process.env.PROJECT_ID!;
  const created = await createJob({
    client,
    path: { projectId },
    headers: { 'Idempotency-Key': 'generated-client-1' },
    body: { type: 'details', targets: ['B0DR8G428S', 'B0CZXXSC3C'], config: { marketplace: 'US' } },
    throwOnError: true,
  });
  const job: Job = created.data.data;
  const got = await getJob({ client, path: { jobId: job.id } });
  if (got.error) throw new Error(\`getJob answered \${got.error.error.code}\`);
  const listed = await listJobs({ client, path: { projectId }, query: { limit: 10 }, throwOnError: true });
  const missing = await getJob({ client, path: { jobId: 'job_0000000000000000' } });
  console.log(JSON.stringify({
    created: { status: created.response.status, id: job.id, type: job.type, targets: job.targets },
    got: { status: got.response?.status, id: got.data?.data.id, jobStatus: got.data?.data.status },
    listed: { ids: listed.data.data.map((j) => j.id), total: listed.data.pagination.total },
    missing: { status: missing.response?.status, code: missing.error?.error.code },
  }));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
`;

let stack: Stack;
let server: http.Server;
let baseUrl: string;
let dir: string;

beforeAll(async () => {
  stack = await startStack({ workers: 0 });
  // stack.http already built an app on these deps: a second one needs its own metrics registry
  server = http.createServer(createApp({ ...stack.gateway, metrics: createMetricsRegistry('gateway') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  dir = mkdtempSync(path.join(tmpdir(), 'hey-api-client-'));
});
afterAll(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server.close(resolve));
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('generates a client with @hey-api/openapi-ts that passes tsc --strict and creates and reads a job on the gateway', async () => {
  const served = await fetch(`${baseUrl}/openapi.json`);
  expect(served.status).toBe(200);
  writeFileSync(path.join(dir, 'openapi.json'), await served.text());

  await run(bin('openapi-ts'), ['--input', path.join(dir, 'openapi.json'), '--output', path.join(dir, 'client')], {
    cwd: dir,
    timeout: 120_000,
  });
  writeFileSync(path.join(dir, 'program.ts'), PROGRAM);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'commonjs',
        moduleResolution: 'node10',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
        outDir: 'dist',
        noEmitOnError: true,
      },
      include: ['program.ts', 'client/**/*.ts'],
    }),
  );
  // a type error fails here with tsc's report
  await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')], {
    cwd: dir,
    timeout: 180_000,
  }).catch((err: { stdout?: string }) => {
    throw new Error(`tsc --strict failed on the generated client:\n${err.stdout}`);
  });

  const tenant = await stack.tenant();
  const { stdout } = await run(process.execPath, [path.join(dir, 'dist/program.js')], {
    cwd: dir,
    timeout: 60_000,
    env: { ...process.env, BASE_URL: baseUrl, API_KEY: tenant.apiKey, PROJECT_ID: tenant.projectId },
  });
  const out = JSON.parse(stdout);
  expect(out.created).toEqual({ status: 202, id: expect.stringMatching(/^job_/), type: 'details', targets: ['B0DR8G428S', 'B0CZXXSC3C'] });
  expect(out.got).toEqual({ status: 200, id: out.created.id, jobStatus: 'queued' });
  expect(out.listed).toEqual({ ids: [out.created.id], total: 1 });
  expect(out.missing).toEqual({ status: 404, code: 'NOT_FOUND' });
  // the job the generated client created is the gateway's, in Postgres
  const row = await stack.gateway.jobs.findById(out.created.id);
  expect(row).toMatchObject({ project_id: tenant.projectId, target_count: 2 });
});
