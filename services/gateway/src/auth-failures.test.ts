import { randomBytes } from 'node:crypto';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from './test-support/harness';

/** Issue 11.6: unknown keys are limited per client address, before they cost a Postgres lookup. */
let behindProxy: Harness;
let direct: Harness;
let tenant: TestTenant;
let lookups = 0;

const randomKey = () => `cds_${randomBytes(4).toString('hex')}_${randomBytes(32).toString('base64url')}`;
const jobsOf = (h: Harness, key: string, address?: string) => {
  const req = h.http.get(`/v1/key/projects/${tenant.projectId}/jobs`).set(bearer(key));
  return address ? req.set('X-Forwarded-For', address) : req;
};

/** Failures are counted in fixed one-minute windows: start a burst where it cannot straddle two. */
async function freshWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
}

beforeEach(freshWindow);

beforeAll(async () => {
  // Behind one trusted proxy (the test client on loopback plays the load balancer).
  behindProxy = await startHarness({ authFailuresPerMinute: 5, trustProxy: ['loopback'], authCacheTtlMs: 60_000 });
  direct = await startHarness({ authFailuresPerMinute: 5 });
  tenant = await createTenant(behindProxy.deps.db);
  const find = behindProxy.deps.tenancy.findPrincipalByKeyHash.bind(behindProxy.deps.tenancy);
  behindProxy.deps.tenancy.findPrincipalByKeyHash = async (hash) => {
    lookups += 1;
    return find(hash);
  };
});
afterAll(async () => {
  await behindProxy.close();
  await direct.close();
});

it('after 5 failed authentications an address gets 429 with Retry-After, and its guesses no longer reach Postgres', async () => {
  const address = '203.0.113.7';
  lookups = 0;
  for (let i = 0; i < 5; i++) {
    const res = await jobsOf(behindProxy, randomKey(), address);
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([401, 'UNAUTHORIZED', 'Invalid API key.']);
  }
  expect(lookups).toBe(5);
  for (let i = 0; i < 50; i++) {
    const res = await jobsOf(behindProxy, randomKey(), address);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(res.body.error.message).toMatch(/^Too many failed authentications from this address; retry after \d+ s\.$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  }
  expect(lookups).toBe(5);
  // Another client is not affected.
  expect((await jobsOf(behindProxy, tenant.apiKey, '198.51.100.20')).status).toBe(200);
});

it('a key this gateway already knows keeps working from a blocked address (a valid client behind the same NAT)', async () => {
  const address = '203.0.113.8';
  expect((await jobsOf(behindProxy, tenant.apiKey, address)).status).toBe(200); // cached now
  for (let i = 0; i < 5; i++) await jobsOf(behindProxy, 'cds_bad', address);
  expect((await jobsOf(behindProxy, randomKey(), address)).status).toBe(429);
  expect((await jobsOf(behindProxy, tenant.apiKey, address)).status).toBe(200);
});

it('without a trusted proxy, X-Forwarded-For is ignored: rotating it does not escape the limit', async () => {
  for (let i = 0; i < 5; i++) expect((await jobsOf(direct, randomKey(), `192.0.2.${i}`)).status).toBe(401);
  const res = await jobsOf(direct, randomKey(), '192.0.2.99');
  expect(res.status).toBe(429);
});

it('a well-formed Bearer header with a key that cannot be ours says the key is invalid, not that the header is malformed', async () => {
  const h = behindProxy;
  const bad = await jobsOf(h, 'cds_bad', '203.0.113.50');
  expect([bad.status, bad.body.error.message]).toEqual([401, 'Invalid API key.']);
  const scheme = await h.http.get(`/v1/key/projects/${tenant.projectId}/jobs`).set('Authorization', 'Basic abc').set('X-Forwarded-For', '203.0.113.51');
  expect(scheme.body.error.message).toBe('Malformed Authorization header; send "Authorization: Bearer <API key>".');
});
