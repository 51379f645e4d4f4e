import { newId } from '@crawl/core';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

let h: Harness;
let tenant: TestTenant;

interface Seed {
  day: string; // YYYY-MM-DD
  hour: number;
  type: 'search' | 'details';
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  source: 'api' | 'schedule' | 'retry';
  targets: number;
  succeeded: number;
  failed: number;
  failCodes: string[];
  durationS: number | null;
  results: number;
}

const per = (t: Seed['type']) => (t === 'search' ? 5 : 2);
const seeds: Seed[] = [
  {
    day: '2026-03-01',
    hour: 1,
    type: 'details',
    status: 'completed',
    source: 'api',
    targets: 3,
    succeeded: 2,
    failed: 1,
    failCodes: ['BLOCKED'],
    durationS: 10,
    results: 2,
  },
  {
    day: '2026-03-01',
    hour: 23,
    type: 'search',
    status: 'completed',
    source: 'schedule',
    targets: 2,
    succeeded: 2,
    failed: 0,
    failCodes: [],
    durationS: 30,
    results: 40,
  },
  {
    day: '2026-03-02',
    hour: 12,
    type: 'details',
    status: 'failed',
    source: 'api',
    targets: 2,
    succeeded: 0,
    failed: 2,
    failCodes: ['NOT_FOUND', 'BLOCKED'],
    durationS: 5,
    results: 0,
  },
  {
    day: '2026-03-02',
    hour: 13,
    type: 'details',
    status: 'completed',
    source: 'retry',
    targets: 2,
    succeeded: 2,
    failed: 0,
    failCodes: [],
    durationS: 20,
    results: 2,
  },
  {
    day: '2026-03-04',
    hour: 8,
    type: 'search',
    status: 'cancelled',
    source: 'api',
    targets: 4,
    succeeded: 1,
    failed: 0,
    failCodes: [],
    durationS: null,
    results: 20,
  },
  {
    day: '2026-03-04',
    hour: 9,
    type: 'details',
    status: 'queued',
    source: 'schedule',
    targets: 1,
    succeeded: 0,
    failed: 0,
    failCodes: [],
    durationS: null,
    results: 0,
  },
  {
    day: '2026-02-27',
    hour: 9,
    type: 'details',
    status: 'completed',
    source: 'api',
    targets: 1,
    succeeded: 1,
    failed: 0,
    failCodes: [],
    durationS: 1,
    results: 1,
  }, // outside the range
];

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
  const other = await createTenant(h.deps.db);
  let prev: string | null = null;
  for (const s of [...seeds, { ...seeds[0]!, project: other }]) {
    const owner = 'project' in s ? (s as { project: TestTenant }).project : tenant;
    const id = newId('job');
    const created = new Date(`${s.day}T${String(s.hour).padStart(2, '0')}:30:00Z`);
    const terminal = ['completed', 'failed', 'cancelled'].includes(s.status);
    const consumed = s.succeeded * per(s.type);
    await h.deps.db
      .insertInto('job')
      .values({
        id,
        project_id: owner.projectId,
        organization_id: owner.organizationId,
        type: s.type,
        status: s.status,
        marketplace: 'US',
        lang: null,
        targets: JSON.stringify(Array.from({ length: s.targets }, (_, i) => `t${i}`)),
        target_count: s.targets,
        succeeded: s.succeeded,
        failed: s.failed,
        results_count: s.results,
        credits_reserved: s.targets * per(s.type),
        credits_consumed: terminal ? consumed : 0,
        credits_refunded: terminal ? s.targets * per(s.type) - consumed : 0,
        retry_of: s.source === 'retry' ? prev : null,
        schedule_id: s.source === 'schedule' ? 'sch_0000000000000000' : null,
        errors: JSON.stringify(s.failCodes.map((code, i) => ({ target: `t${s.succeeded + i}`, code, message: 'seeded' }))),
        created_at: created,
        started_at: s.durationS === null ? null : created,
        finished_at: s.durationS === null ? null : new Date(created.getTime() + s.durationS * 1000),
      })
      .execute();
    prev = id;
    await h.deps.db
      .insertInto('job_target')
      .values(
        Array.from({ length: s.targets }, (_, i) => ({
          job_id: id,
          idx: i,
          target: `t${i}`,
          status: i < s.succeeded ? 'succeeded' : i < s.succeeded + s.failCodes.length ? 'failed' : 'pending',
          error_code: i >= s.succeeded && i < s.succeeded + s.failCodes.length ? s.failCodes[i - s.succeeded]! : null,
        })),
      )
      .execute();
  }
  await h.deps.db
    .insertInto('product_snapshot')
    .values([
      {
        project_id: tenant.projectId,
        marketplace: 'US',
        asin: 'B0AAAAAAAA',
        job_id: 'job_x',
        source: 'details',
        snapshot: '{}',
        changes: '[]',
        change_count: 3,
        captured_at: new Date('2026-03-02T10:00:00Z'),
      },
      {
        project_id: tenant.projectId,
        marketplace: 'US',
        asin: 'B0AAAAAAAA',
        job_id: 'job_x',
        source: 'details',
        snapshot: '{}',
        changes: '[]',
        change_count: 2,
        captured_at: new Date('2026-03-10T10:00:00Z'),
      },
    ])
    .execute();
});
afterAll(() => h.close());

const get = (query: string, t = tenant) => h.http.get(`/v1/key/projects/${t.projectId}/analytics${query}`).set(bearer(t.apiKey));

it('matches figures computed independently from the seeded jobs', async () => {
  const res = await get('?from=2026-03-01&to=2026-03-04');
  expect(res.status).toBe(200);
  const d = res.body.data;
  const inRange = seeds.filter((s) => s.day >= '2026-03-01' && s.day <= '2026-03-04');
  const count = (f: (s: Seed) => boolean) => inRange.filter(f).length;
  const sum = (f: (s: Seed) => number) => inRange.reduce((a, s) => a + f(s), 0);
  const terminal = (s: Seed) => ['completed', 'failed', 'cancelled'].includes(s.status);

  expect(d.range).toEqual({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-04T23:59:59.999Z' });
  expect(d.jobs.total).toBe(inRange.length);
  for (const status of ['queued', 'running', 'completed', 'failed', 'cancelled'] as const)
    expect(d.jobs.byStatus[status]).toBe(count((s) => s.status === status));
  expect(d.jobs.byType).toEqual({
    search: count((s) => s.type === 'search'),
    details: count((s) => s.type === 'details'),
    offers: 0,
    bestsellers: 0,
    reviews: 0,
  });
  expect(d.jobs.bySource).toEqual({
    api: count((s) => s.source === 'api'),
    schedule: count((s) => s.source === 'schedule'),
    retry: count((s) => s.source === 'retry'),
  });
  const succeeded = sum((s) => s.succeeded);
  const failed = sum((s) => s.failed);
  expect(d.targets).toEqual({ crawled: succeeded + failed, succeeded, failed, successRate: succeeded / (succeeded + failed) });
  const codes: Record<string, number> = {};
  for (const s of inRange) for (const c of s.failCodes) codes[c] = (codes[c] ?? 0) + 1;
  expect(d.failuresByCode).toEqual(codes);
  expect(d.credits).toEqual({
    reserved: sum((s) => s.targets * per(s.type)),
    consumed: sum((s) => (terminal(s) ? s.succeeded * per(s.type) : 0)),
    refunded: sum((s) => (terminal(s) ? (s.targets - s.succeeded) * per(s.type) : 0)),
  });
  expect(d.results).toBe(sum((s) => s.results));
  const durations = inRange
    .filter((s) => s.durationS !== null)
    .map((s) => s.durationS!)
    .sort((a, b) => a - b);
  const pct = (p: number) => {
    const rank = p * (durations.length - 1);
    const lo = Math.floor(rank);
    return durations[lo]! + (durations[Math.min(lo + 1, durations.length - 1)]! - durations[lo]!) * (rank - lo);
  };
  expect(d.jobDurationSeconds.p50).toBeCloseTo(pct(0.5), 6);
  expect(d.jobDurationSeconds.p95).toBeCloseTo(pct(0.95), 6);
  expect(d.changesDetected).toBe(3);
  expect(d.daily.map((x: { date: string }) => x.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04']);
  for (const day of d.daily) {
    const of = inRange.filter((s) => s.day === day.date);
    expect(day.jobs).toBe(of.length);
    expect(day.targets).toBe(of.reduce((a, s) => a + s.succeeded + s.failed, 0));
    expect(day.credits.reserved).toBe(of.reduce((a, s) => a + s.targets * per(s.type), 0));
  }
});

/** `targets.crawled` and `daily[].targets` counted a cancelled job's uncrawled targets differently. */
it('the daily series sums to the totals, a cancelled job with never-crawled targets included', async () => {
  const cancelled = seeds.find((s) => s.status === 'cancelled' && s.targets > s.succeeded + s.failed);
  expect(cancelled).toBeDefined(); // the seed this test is about
  const d = (await get('?from=2026-03-01&to=2026-03-04')).body.data;
  const sum = (f: (x: { jobs: number; targets: number; credits: { reserved: number } }) => number) =>
    d.daily.reduce((a: number, x: never) => a + f(x), 0);
  expect(sum((x) => x.targets)).toBe(d.targets.crawled);
  expect(sum((x) => x.jobs)).toBe(d.jobs.total);
  expect(sum((x) => x.credits.reserved)).toBe(d.credits.reserved);
  const day = d.daily.find((x: { date: string }) => x.date === cancelled!.day);
  const of = seeds.filter((s) => s.day === cancelled!.day);
  expect(day.targets).toBe(of.reduce((a, s) => a + s.succeeded + s.failed, 0));
  expect(day.targets).toBeLessThan(of.reduce((a, s) => a + s.targets, 0));
});

it('defaults to the last 30 days, accepts timestamps, and refuses bad ranges', async () => {
  const res = await get('');
  expect(res.status).toBe(200);
  const span = Date.parse(res.body.data.range.to) - Date.parse(res.body.data.range.from);
  expect(span).toBe(30 * 24 * 3600 * 1000);
  expect(res.body.data.daily).toHaveLength(31);
  const ts = await get('?from=2026-03-01T12:00:00Z&to=2026-03-02T12:00:00Z');
  expect(ts.body.data.jobs.total).toBe(1); // only the job of 03-01 23:30: 03-02 12:30 is after `to`
  for (const q of ['?from=2026-03-05&to=2026-03-01', '?from=2024-01-01&to=2026-01-01', '?from=yesterday', '?range=7d']) {
    const bad = await get(q);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  }
});

it("another project's analytics is 403", async () => {
  const other = await createTenant(h.deps.db);
  const res = await h.http.get(`/v1/key/projects/${tenant.projectId}/analytics`).set(bearer(other.apiKey));
  expect(res.status).toBe(403);
});
