import { randomBytes } from 'node:crypto';
import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/**
 * Failed authentications are limited per client address; a valid key is never refused for
 * what its address did (a guesser behind the same NAT must not lock out valid clients).
 */
let behindProxy: Harness;
let direct: Harness;
let uncached: Harness;
let tenant: TestTenant;

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
  // The defaults' limit, and no principal cache: every request's key is looked up.
  uncached = await startHarness({ authFailuresPerMinute: 30, trustProxy: ['loopback'], authCacheTtlMs: 0 });
  tenant = await createTenant(behindProxy.deps.db);
});
afterAll(async () => {
  await behindProxy.close();
  await direct.close();
  await uncached.close();
});

it('after 5 failed authentications an address gets 429 with Retry-After for unknown keys; other addresses are not affected', async () => {
  const address = '203.0.113.7';
  for (let i = 0; i < 5; i++) {
    const res = await jobsOf(behindProxy, randomKey(), address);
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([401, 'UNAUTHORIZED', 'Invalid API key.']);
  }
  for (let i = 0; i < 20; i++) {
    const res = await jobsOf(behindProxy, i % 2 ? randomKey() : 'cds_bad', address);
    expect(res.status).toBe(429);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(res.body.error.message).toMatch(/^Too many failed authentications from this address; retry after \d+ s\.$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  }
  // A request without any key is limited too.
  expect((await behindProxy.http.get(`/v1/key/projects/${tenant.projectId}/jobs`).set('X-Forwarded-For', address)).status).toBe(429);
  // Another client is not affected.
  expect((await jobsOf(behindProxy, tenant.apiKey, '198.51.100.20')).status).toBe(200);
});

it("a valid key is never refused for its address's failures, even one this gateway has never seen", async () => {
  const address = '203.0.113.9';
  // 30 invalid keys (the default limit), then more: the address is over its limit.
  for (let i = 0; i < 30; i++) expect((await jobsOf(uncached, randomKey(), address)).status).toBe(401);
  expect((await jobsOf(uncached, randomKey(), address)).status).toBe(429);
  // Keys of two other projects, never used before, from the same address: served at once.
  const others = [await createTenant(uncached.deps.db), await createTenant(uncached.deps.db)];
  for (const other of others) {
    for (let i = 0; i < 3; i++) {
      const res = await uncached.http
        .get(`/v1/key/projects/${other.projectId}/jobs`)
        .set(bearer(other.apiKey))
        .set('X-Forwarded-For', address);
      expect([res.status, res.headers['retry-after']]).toEqual([200, undefined]);
    }
  }
  // ...while unknown keys from it stay limited, interleaved with the valid ones.
  const unknown = await jobsOf(uncached, randomKey(), address);
  expect([unknown.status, unknown.body.error.code]).toEqual([429, 'RATE_LIMITED']);
  expect(Number(unknown.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const valid = await uncached.http
    .get(`/v1/key/projects/${others[0]!.projectId}/jobs`)
    .set(bearer(others[0]!.apiKey))
    .set('X-Forwarded-For', address);
  expect(valid.status).toBe(200);
});

it('a revoked key from a limited address is limited like an unknown one', async () => {
  const address = '203.0.113.10';
  const revoked = await createTenant(uncached.deps.db);
  await uncached.deps.db.updateTable('api_key').set({ revoked_at: new Date() }).where('project_id', '=', revoked.projectId).execute();
  const res = await uncached.http
    .get(`/v1/key/projects/${revoked.projectId}/jobs`)
    .set(bearer(revoked.apiKey))
    .set('X-Forwarded-For', address);
  expect([res.status, res.body.error.message]).toEqual([401, 'This API key has been revoked.']);
  for (let i = 0; i < 30; i++) await jobsOf(uncached, 'cds_bad', address);
  const limited = await uncached.http
    .get(`/v1/key/projects/${revoked.projectId}/jobs`)
    .set(bearer(revoked.apiKey))
    .set('X-Forwarded-For', address);
  expect(limited.status).toBe(429);
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
  const scheme = await h.http
    .get(`/v1/key/projects/${tenant.projectId}/jobs`)
    .set('Authorization', 'Basic abc')
    .set('X-Forwarded-For', '203.0.113.51');
  expect(scheme.body.error.message).toBe('Malformed Authorization header; send "Authorization: Bearer <API key>".');
});
