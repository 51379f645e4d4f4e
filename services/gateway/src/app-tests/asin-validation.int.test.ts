import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/** ASINs were once upper-cased before the check, so `ßßßßß` became `SSSSSSSSSS` and was charged. */
let h: Harness;
let tenant: TestTenant;

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db, { credits: 1_000 });
});
afterAll(() => h.close());

const createJob = (targets: string[]) =>
  h.http.post(`/v1/key/projects/${tenant.projectId}/jobs`).set(bearer(tenant.apiKey)).send({ type: 'details', targets });

it.each([['ßßßßß'], ['ﬃﬃﬃﬃﬃ'], ['B0DR8G428Ş'], ['B0DR8G428'], ['B0DR8G428S1']])(
  '%s is a 400 naming the target, and nothing is charged',
  async (target) => {
    const before = await h.deps.credits.balance(tenant.organizationId);
    const res = await createJob([target]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error.details)).toContain('targets');
    expect(await h.deps.credits.balance(tenant.organizationId)).toBe(before);
  },
);

it('trims and upper-cases a valid ASIN', async () => {
  const res = await createJob(['  b0dr8g428s ']);
  expect(res.status).toBe(202);
  expect(res.body.data.targets).toEqual(['B0DR8G428S']);
});

it('a timeline for a non-ASIN is a 404, not another product', async () => {
  const res = await h.http
    .get(`/v1/key/projects/${tenant.projectId}/tracked-targets/${encodeURIComponent('ßßßßß')}/timeline?marketplace=US`)
    .set(bearer(tenant.apiKey));
  expect(res.status).toBe(404);
});
