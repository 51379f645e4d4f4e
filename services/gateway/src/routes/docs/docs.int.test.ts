import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type Harness, startHarness } from '../../test-support/harness';

let h: Harness;
let base: string;
beforeAll(async () => {
  h = await startHarness();
  base = (await h.listen()).url;
});
afterAll(() => h.close());

/** Raw bytes and headers: node's http client, which (unlike fetch and supertest) never decodes. */
function raw(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const dist = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** /docs once shipped a 1.7 MB bundle uncompressed and nearly uncached. */
it('serves the Swagger UI bundle and stylesheet compressed per Accept-Encoding, cached, with the docs CSP', async () => {
  const page = await h.http.get('/docs');
  const links = [...page.text.matchAll(/(?:src|href)="(\/docs\/assets\/swagger-ui[^"]+)"/g)].map((m) => m[1]!);
  expect(links).toHaveLength(2);
  for (const link of links) {
    const original = readFileSync(path.join(dist, link.replace(/^\/docs\/assets\/|\?.*$/g, '')));
    const br = await raw(base + link, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect([link, br.status, br.headers['content-encoding']]).toEqual([link, 200, 'br']);
    expect(br.body.length).toBeLessThan(original.length / 3);
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toMatch(/Accept-Encoding/i);
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    expect(br.headers['x-frame-options']).toBe('DENY');

    const gz = await raw(base + link, { 'Accept-Encoding': 'gzip;q=1, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(original)).toBe(true);

    const plain = await raw(base + link, { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(3);

    const again = await raw(base + link, { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  }
  // An unversioned URL is cached for a while only (it may change on an upgrade).
  const unversioned = await raw(`${base}/docs/assets/swagger-ui-bundle.js`, { 'Accept-Encoding': 'gzip' });
  expect([unversioned.headers['content-encoding'], unversioned.headers['cache-control']]).toEqual(['gzip', 'public, max-age=3600']);
});

it('leaves the API answers uncompressed (exports stream with backpressure)', async () => {
  const spec = await raw(`${base}/openapi.json`, { 'Accept-Encoding': 'gzip, br' });
  expect(spec.status).toBe(200);
  expect(spec.headers['content-encoding']).toBeUndefined();
});
