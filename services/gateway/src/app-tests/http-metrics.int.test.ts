import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/** One route label per template, whatever the status (401/429/4xx used to differ). */
let h: Harness;
let tenant: TestTenant;
beforeAll(async () => {
  h = await startHarness({ rateLimit: true });
  tenant = await createTenant(h.deps.db, { plan: 'starter' });
});
afterAll(() => h.close());

function statusesByRoute(metrics: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of metrics.matchAll(/^http_requests_total\{method="\w+",route="([^"]+)",status="(\d+)"[^}]*\} \d+$/gm)) {
    if (!out.has(m[1]!)) out.set(m[1]!, new Set());
    out.get(m[1]!)!.add(m[2]!);
  }
  return out;
}

it('labels 2xx, 4xx, 401 and 429 of one endpoint with the same route template; unknown paths are "unmatched"', async () => {
  const jobs = `/v1/key/projects/${tenant.projectId}/jobs`;
  expect(
    (
      await h.http
        .post(jobs)
        .set(bearer(tenant.apiKey))
        .send({ type: 'details', targets: ['B0DR8G428S'] })
    ).status,
  ).toBe(202);
  expect((await h.http.post(jobs).set(bearer(tenant.apiKey)).send({ type: 'nope' })).status).toBe(400);
  expect((await h.http.post(jobs).send({})).status).toBe(401);
  expect((await h.http.get('/v1/key/jobs/job_doesnotexist').set(bearer(tenant.apiKey))).status).toBe(404);
  expect((await h.http.get('/v1/key/jobs/job_doesnotexist')).status).toBe(401);
  // bursts of 30 against a limit of 20 per 1 s window until one is refused: a burst that a busy
  // machine spreads over a window boundary may fit in two windows
  let statuses: number[] = [];
  for (let i = 0; i < 10 && !statuses.includes(429); i++) {
    statuses = (await Promise.all(Array.from({ length: 30 }, () => h.http.get(jobs).set(bearer(tenant.apiKey))))).map((r) => r.status);
  }
  expect(statuses).toContain(429);
  expect((await h.http.get('/v1/key/no/such/route/123').set(bearer(tenant.apiKey))).status).toBeGreaterThanOrEqual(400);

  const text = await h.deps.metrics.metrics();
  const byRoute = statusesByRoute(text);
  expect([...byRoute.get('/v1/key/projects/:projectId/jobs')!].sort()).toEqual(expect.arrayContaining(['200', '202', '400', '401', '429']));
  expect([...byRoute.get('/v1/key/jobs/:jobId')!].sort()).toEqual(['401', '404']);
  expect(byRoute.has('unmatched')).toBe(true);
  for (const route of byRoute.keys()) expect([route, route === 'unmatched' || route.startsWith('/')]).toEqual([route, true]);
  expect([...byRoute.keys()].filter((r) => r.includes(tenant.projectId) || r.includes('job_'))).toEqual([]);
});
