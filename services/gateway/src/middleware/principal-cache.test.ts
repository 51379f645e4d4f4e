import type { KeyPrincipal } from '@crawl/db';
import { PrincipalCache } from './principal-cache';

const principal = (revoked: boolean): KeyPrincipal => ({
  keyId: 'key_1',
  keyPrefix: 'cds_1',
  projectId: 'prj_1',
  userId: 'usr_1',
  organizationId: 'org_1',
  plan: 'starter',
  perMinuteLimit: null,
  maxSchedulesPerProject: null,
  minScheduleIntervalSeconds: null,
  revoked,
});

it('serves a principal for the TTL, then reloads it (a revocation shows after the TTL)', async () => {
  let now = 0;
  let revoked = false;
  let loads = 0;
  const cache = new PrincipalCache(5_000, 10, () => now);
  const load = async () => {
    loads += 1;
    return principal(revoked);
  };
  expect((await cache.get('h', load))!.revoked).toBe(false);
  revoked = true;
  now = 4_999;
  expect((await cache.get('h', load))!.revoked).toBe(false);
  now = 5_000;
  expect((await cache.get('h', load))!.revoked).toBe(true);
  expect(loads).toBe(2);
});

it('does not cache unknown keys, bounds its size, and can be disabled', async () => {
  const cache = new PrincipalCache(5_000, 2);
  let loads = 0;
  const missing = async () => {
    loads += 1;
    return undefined;
  };
  await cache.get('x', missing);
  await cache.get('x', missing);
  expect(loads).toBe(2);
  for (const k of ['a', 'b', 'c']) await cache.get(k, async () => principal(false));
  expect((cache as unknown as { entries: Map<string, unknown> }).entries.size).toBe(2);
  const off = new PrincipalCache(0);
  let offLoads = 0;
  for (let i = 0; i < 3; i++) await off.get('k', async () => (offLoads++, principal(false)));
  expect(offLoads).toBe(3);
});
