import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createTenant, type TestTenant } from '@crawl/testing';
import { parseApiDate } from './date-params';
import { bearer, type Harness, startHarness } from '../test-support/harness';

let h: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
});
afterAll(() => h.close());

const get = (path: string) => h.http.get(`/v1/key/projects/${tenant.projectId}${path}`).set(bearer(tenant.apiKey));

/**
 * Run the built query schemas in a server far from UTC (jest cannot change its own
 * process's zone), where a timestamp read in local time would be five hours off.
 */
function parsedInNewYork(module: string, schema: string, query: Record<string, string>): Record<string, string> {
  const script = `const s = require(${JSON.stringify(path.resolve(__dirname, '../../dist', module))})[${JSON.stringify(schema)}];
    const out = s.parse(${JSON.stringify(query)});
    process.stdout.write(JSON.stringify({ offset: new Date(2026, 2, 1).getTimezoneOffset(), out }));`;
  const { offset, out } = JSON.parse(
    execFileSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: 'America/New_York' } }).toString(),
  );
  expect(offset).toBe(300); // the zone took effect
  return out;
}

it('reads a timestamp without an offset as UTC, whatever the server time zone', () => {
  expect(
    parsedInNewYork('routes/analytics/analytics.schemas.js', 'analyticsQuery', { from: '2026-03-01T12:00:00', to: '2026-03-02T06:30' }),
  ).toEqual({
    from: '2026-03-01T12:00:00.000Z',
    to: '2026-03-02T06:30:00.000Z',
  });
  expect(parsedInNewYork('routes/jobs/jobs.schemas.js', 'listJobsQuery', { from: '2026-03-01T12:00', to: '2026-03-01' })).toMatchObject({
    from: '2026-03-01T12:00:00.000Z',
    to: '2026-03-01T23:59:59.999Z',
  });
  expect(
    parsedInNewYork('routes/tracking/tracking.schemas.js', 'trackedTargetsQuery', { changedSince: '2026-03-01T12:00:00.5' }),
  ).toMatchObject({
    changedSince: '2026-03-01T12:00:00.500Z',
  });
});

it('answers analytics ranges in UTC: bare dates are whole UTC days, offsets are honoured', async () => {
  const dates = await get('/analytics?from=2026-03-01&to=2026-03-02');
  expect(dates.body.data.range).toEqual({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T23:59:59.999Z' });
  const offset = await get(`/analytics?from=${encodeURIComponent('2026-03-01T12:00:00+05:30')}&to=2026-03-01T12:00:00.250Z`);
  expect(offset.body.data.range).toEqual({ from: '2026-03-01T06:30:00.000Z', to: '2026-03-01T12:00:00.250Z' });
});

it.each([
  ['/analytics?from=2026-02-30', 'query.from'],
  ['/analytics?from=2026-01-01&to=2026-02-29', 'query.to'],
  ['/analytics?to=2026-13-01', 'query.to'],
  ['/analytics?from=2026-03-01T24:00:00Z', 'query.from'],
  ['/jobs?from=2026-02-29', 'query.from'],
  ['/jobs?to=2026-04-31T10:00:00Z', 'query.to'],
  ['/tracked-targets?changedSince=2026-02-30', 'query.changedSince'],
])('%s is a 400 naming %s, not the next valid day', async (path, field) => {
  const res = await get(path);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details).toEqual([{ path: field, message: expect.stringMatching(/calendar date|out of range/) }]);
});

it('parses leap days, fractions and offsets exactly', () => {
  expect(parseApiDate('2024-02-29')).toEqual({ start: new Date('2024-02-29T00:00:00.000Z'), end: new Date('2024-02-29T23:59:59.999Z') });
  expect(parseApiDate('2000-02-29T23:59:59.9999Z')).toMatchObject({ start: new Date('2000-02-29T23:59:59.999Z') });
  expect(parseApiDate('2026-03-01 12:00-0800')).toMatchObject({ start: new Date('2026-03-01T20:00:00.000Z') });
  for (const bad of [
    '1900-02-29',
    '2026-00-10',
    '2026-01-32',
    '2026-03-01T12:60',
    '2026-03-01T12:00+24:00',
    '2026-3-1',
    'yesterday',
    '2026-03-01T12',
  ]) {
    expect(parseApiDate(bad)).toHaveProperty('problem');
  }
});

it('keeps years 0000 to 0099 as written (Date.UTC alone reads them as 1900 to 1999)', () => {
  const at = (value: string) => {
    const parsed = parseApiDate(value);
    if ('problem' in parsed) throw new Error(parsed.problem);
    return [parsed.start.toISOString(), parsed.end.toISOString()];
  };
  expect(at('0050-01-01')).toEqual(['0050-01-01T00:00:00.000Z', '0050-01-01T23:59:59.999Z']);
  expect(at('0099-12-31T23:59:59Z')).toEqual(['0099-12-31T23:59:59.000Z', '0099-12-31T23:59:59.000Z']);
  expect(at('0001-03-01T00:30+01:00')[0]).toBe('0001-02-28T23:30:00.000Z');
  expect(at('0000-02-29')[0]).toBe('0000-02-29T00:00:00.000Z'); // year 0 is a leap year (divisible by 400)
  expect(parseApiDate('1900-02-29')).toEqual({ problem: '1900-02-29 is not a calendar date' });
  expect(parseApiDate('0100-02-29')).toEqual({ problem: '0100-02-29 is not a calendar date' });
  expect(at('2024-02-29')[0]).toBe('2024-02-29T00:00:00.000Z');
});

it('answers early-year ranges over HTTP without an error: nothing was created then', async () => {
  for (const query of ['from=0050-01-01&to=0099-12-31', 'from=0000-01-01T00:00:00%2B01:00', 'to=0001-01-01']) {
    const res = await get(`/jobs?${query}`);
    expect([query, res.status, res.body.data]).toEqual([query, 200, []]);
  }
  expect((await get('/jobs?from=0050-01-01')).body.pagination.total).toBe(0);
});
