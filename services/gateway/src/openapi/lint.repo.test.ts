import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openApiDocument } from './document';

/**
 * The gateway's OpenAPI document passes both linters client generators' users reach for, with
 * their recommended rulesets and only the exceptions written (and justified) in the repository's
 * redocly.yaml and .spectral.yaml: no error and no warning. The linters run as their own CLIs
 * (root devDependencies), on the document the gateway serves.
 */
const ROOT = path.resolve(__dirname, '../../../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);
// no usage reports or update checks from a CI machine
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
  file = path.join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openApiDocument(), null, 2));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 90_000, maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result;
}

/** `rule at pointer: message`, readable in a failed expectation. */
type Problem = string;

it('Redocly CLI (recommended): 0 errors, 0 warnings', () => {
  const result = run(bin('redocly'), ['lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format=json']);
  const report = JSON.parse(result.stdout) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  const problems: Problem[] = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
  expect(problems).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  expect(result.status).toBe(0);
});

it('Spectral (spectral:oas): 0 errors, 0 warnings', () => {
  const result = run(bin('spectral'), [
    'lint',
    file,
    '--ruleset',
    path.join(ROOT, '.spectral.yaml'),
    '--format',
    'json',
    '--fail-severity',
    'hint',
    '--quiet',
  ]);
  // with nothing to report, --quiet prints nothing at all
  const report = (result.stdout.trim() ? JSON.parse(result.stdout) : []) as {
    code: string;
    severity: number;
    message: string;
    path: string[];
  }[];
  const severity = ['error', 'warning', 'info', 'hint'];
  const problems: Problem[] = report.map((p) => `${severity[p.severity]} ${p.code} at ${p.path.join('.')}: ${p.message}`);
  expect(problems).toEqual([]);
  expect({ status: result.status, stderr: result.stderr.trim() }).toEqual({ status: 0, stderr: '' });
});

it('the linters do fail a document with the faults the exceptions do not cover', () => {
  // a copy with an operation that lost its operationId, its 401 and its tag's definition
  const broken = JSON.parse(JSON.stringify(openApiDocument()));
  const getJob = broken.paths['/v1/key/jobs/{jobId}'].get;
  delete getJob.operationId;
  delete getJob.responses['401'];
  broken.tags = broken.tags.filter((t: { name: string }) => t.name !== 'Schedules');
  const brokenFile = path.join(dir, 'broken.json');
  writeFileSync(brokenFile, JSON.stringify(broken, null, 2));

  const redocly = JSON.parse(
    run(bin('redocly'), ['lint', brokenFile, '--config', path.join(ROOT, 'redocly.yaml'), '--format=json']).stdout,
  ) as { problems: { ruleId: string }[] };
  expect(redocly.problems.map((p) => p.ruleId).sort()).toEqual(['operation-operationId', 'rule/authenticated-operation-4xx']);
  const spectral = run(bin('spectral'), [
    'lint',
    brokenFile,
    '--ruleset',
    path.join(ROOT, '.spectral.yaml'),
    '--format',
    'json',
    '--fail-severity',
    'hint',
  ]);
  const codes = new Set((JSON.parse(spectral.stdout) as { code: string }[]).map((p) => p.code));
  expect([...codes].sort()).toEqual(['operation-operationId', 'operation-tag-defined']);
  expect(spectral.status).not.toBe(0);
});
