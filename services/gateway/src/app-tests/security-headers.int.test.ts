import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/** /docs once had no security headers; responses carrying webhook secrets were cacheable. */
let h: Harness;
let tenant: TestTenant;
beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
});
afterAll(() => h.close());

it('/docs and its scripts carry a CSP without inline scripts, no framing, and nosniff', async () => {
  const page = await h.http.get('/docs');
  expect(page.status).toBe(200);
  const csp = String(page.headers['content-security-policy']);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(page.headers['x-content-type-options']).toBe('nosniff');
  expect(page.headers['x-frame-options']).toBe('DENY');
  // Every script of the page is a file of this origin (the CSP forbids inline ones).
  expect(page.text).not.toMatch(/<script>(?!<\/script>)/);
  for (const src of [...page.text.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!)) {
    const script = await h.http.get(src);
    expect([src, script.status, script.headers['content-type']]).toEqual([src, 200, expect.stringMatching(/javascript/)]);
  }
});

it('webhook configurations (with their secrets) and every other API answer are Cache-Control: no-store', async () => {
  const patched = await h.http
    .patch(`/v1/key/projects/${tenant.projectId}/webhooks`)
    .set(bearer(tenant.apiKey))
    .send({ configs: [{ url: 'http://127.0.0.1:9/hooks', triggerAction: 'job.completed' }] });
  expect(patched.status).toBe(200);
  expect(patched.body.data.configs[0].secret).toMatch(/^whsec_/);
  expect(patched.headers['cache-control']).toBe('no-store');
  const listed = await h.http.get(`/v1/key/projects/${tenant.projectId}/webhooks`).set(bearer(tenant.apiKey));
  expect(listed.headers['cache-control']).toBe('no-store');
  const unauthenticated = await h.http.get(`/v1/key/projects/${tenant.projectId}/webhooks`);
  expect([unauthenticated.status, unauthenticated.headers['cache-control']]).toEqual([401, 'no-store']);
  expect(listed.headers['x-content-type-options']).toBe('nosniff');
});
