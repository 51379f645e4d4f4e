import { createTenant, type TestTenant } from '@crawl/testing';
import fc from 'fast-check';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/**
 * Property: whatever body, query string or id a client sends to any endpoint, the answer is
 * never a 5xx, and every error has the documented JSON shape.
 */
// Thousands of requests per property: a few seconds each on a quiet machine, over a minute with
// the whole suite on two cores. The timeout guards against a hang, not the speed.
jest.setTimeout(300_000);

let h: Harness;
let tenant: TestTenant;
let jobId: string;
let ruleId: string;

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db, { credits: 10_000_000 });
  const res = await h.http
    .post(`/v1/key/projects/${tenant.projectId}/jobs`)
    .set(bearer(tenant.apiKey))
    .send({ type: 'search', targets: ['fuzz'] });
  jobId = res.body.data.id;
  const rule = await h.http
    .post(`/v1/key/projects/${tenant.projectId}/alert-rules`)
    .set(bearer(tenant.apiKey))
    .send({ name: 'fuzz', condition: { type: 'price_below', value: 10 } });
  ruleId = rule.body.data.id;
});
afterAll(() => h.close());

function expectWellFormed(res: { status: number; body: any; headers: Record<string, string> }): void {
  expect(res.status).toBeLessThan(500);
  expect(res.headers['x-request-id']).toBeTruthy();
  if (res.status >= 400) {
    expect(res.body).toEqual({
      error: expect.objectContaining({
        code: expect.stringMatching(/^[A-Z_]+$/),
        message: expect.any(String),
        requestId: res.headers['x-request-id'],
      }),
    });
  }
}

const targetLike = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[A-Z0-9]{10}$/),
  fc.constantFrom(
    'https://www.amazon.com/dp/B0DR8G428S',
    'https://www.amazon.de/gp/product/B01GAWQSFW',
    'http://evil.example/dp/B0DR8G428S',
    'https://www.amazon.com/',
  ),
  fc.fullUnicodeString({ maxLength: 30 }),
  fc.jsonValue({ maxDepth: 2 }),
);

const bodyArb = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.record(
    {
      type: fc.oneof(fc.constantFrom('search', 'details'), fc.jsonValue({ maxDepth: 1 })),
      targets: fc.oneof(fc.array(targetLike, { maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })),
      config: fc.oneof(
        fc.record(
          {
            marketplace: fc.oneof(fc.constantFrom('US', 'de', 'XX'), fc.string()),
            lang: fc.oneof(fc.constantFrom('en-US', 'pt_br'), fc.string()),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
);

const rawBodyArb = fc.oneof(
  fc.string(),
  fc.fullUnicodeString(),
  fc.constantFrom('{', '{"type":', '[', 'null', '"x"', '1e999999', '{"__proto__":{"x":1}}', '\u0000'),
);

const queryArb = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom('status', 'q', 'from', 'to', 'limit', 'offset', 'format', 'marketplace', 'changedSince', 'ruleId', 'asin'),
        fc.string({ maxLength: 8 }),
      ),
      fc.oneof(
        fc.string(),
        fc.fullUnicodeString({ maxLength: 20 }),
        fc.integer().map(String),
        fc.constantFrom('2026-01-01', '-1', '1e9', 'NaN', '%', '%zz', 'queued', 'csv'),
      ),
    ),
    { maxLength: 5 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

const getPaths = () => [
  `/v1/key/projects/${tenant.projectId}/analytics`,
  `/v1/key/projects/${tenant.projectId}/tracked-targets`,
  `/v1/key/projects/${tenant.projectId}/tracked-targets/B0DR8G428S/timeline`,
  `/v1/key/projects/${tenant.projectId}/compare`,
  `/v1/key/projects/${tenant.projectId}/schedules`,
  `/v1/key/projects/${tenant.projectId}/webhooks`,
  `/v1/key/projects/${tenant.projectId}/jobs`,
  `/v1/key/jobs/${jobId}`,
  `/v1/key/jobs/${jobId}/results`,
  `/v1/key/jobs/${jobId}/export`,
  `/v1/key/projects/${tenant.projectId}/alert-rules`,
  `/v1/key/projects/${tenant.projectId}/alerts`,
  `/v1/key/alert-rules/${ruleId}`,
];
const postPaths = () => [
  `/v1/key/projects/${tenant.projectId}/jobs`,
  `/v1/key/jobs/${jobId}/retry`,
  `/v1/key/jobs/${jobId}/cancel`,
  `/v1/key/projects/${tenant.projectId}/webhooks/test`,
  `/v1/key/projects/${tenant.projectId}/alert-rules`,
  `/v1/key/projects/${tenant.projectId}/alert-rules/preview`,
];

it('random JSON bodies to every POST endpoint', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...postPaths()), bodyArb, async (path, body) => {
      const res = await h.http.post(path).set(bearer(tenant.apiKey)).set('content-type', 'application/json').send(JSON.stringify(body));
      expectWellFormed(res);
    }),
    { numRuns: 1500 },
  );
});

it('random JSON bodies to PATCH webhooks', async () => {
  const configArb = fc.record(
    {
      id: fc.oneof(fc.string(), fc.constant('whk_0000000000000000')),
      url: fc.oneof(fc.webUrl(), fc.string(), fc.constant('http://127.0.0.1:1/x')),
      triggerAction: fc.oneof(fc.constantFrom('job.completed', 'product.changed'), fc.string()),
      enabled: fc.jsonValue({ maxDepth: 0 }),
      secret: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 1 })),
      name: fc.jsonValue({ maxDepth: 0 }),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.record({ configs: fc.oneof(fc.array(configArb, { maxLength: 22 }), fc.jsonValue({ maxDepth: 1 })) }),
      ),
      async (body) => {
        const res = await h.http
          .patch(`/v1/key/projects/${tenant.projectId}/webhooks`)
          .set(bearer(tenant.apiKey))
          .set('content-type', 'application/json')
          .send(JSON.stringify(body));
        expectWellFormed(res);
      },
    ),
    { numRuns: 300 },
  );
});

const conditionArb = fc.oneof(
  fc.record(
    {
      type: fc.oneof(
        fc.constantFrom(
          'price_below',
          'price_above',
          'price_drop_pct',
          'price_rise_pct',
          'back_in_stock',
          'out_of_stock',
          'seller_changed',
        ),
        fc.constantFrom('rating_below', 'field_changed'),
        fc.string(),
      ),
      value: fc.oneof(fc.double(), fc.integer(), fc.constantFrom(0, 99.99, 100, -1, 1e308), fc.jsonValue({ maxDepth: 0 })),
      baseline: fc.oneof(fc.constantFrom('previous', 'median_7d', 'median_30d'), fc.jsonValue({ maxDepth: 0 })),
      field: fc.oneof(fc.constantFrom('title', 'price', 'seller'), fc.string()),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const ruleBodyArb = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      name: fc.oneof(fc.string({ maxLength: 120 }), fc.fullUnicodeString({ maxLength: 20 }), fc.jsonValue({ maxDepth: 0 })),
      condition: conditionArb,
      asins: fc.oneof(fc.array(targetLike, { maxLength: 5 }), fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
      marketplace: fc.oneof(fc.constantFrom('US', 'DE', 'xx', null), fc.string()),
      postalCode: fc.oneof(fc.constantFrom('10001', 'SW1A 1AA', null), fc.string()),
      cooldownSeconds: fc.oneof(fc.integer(), fc.double(), fc.jsonValue({ maxDepth: 0 })),
      maxPerDay: fc.oneof(fc.integer(), fc.jsonValue({ maxDepth: 0 })),
      enabled: fc.jsonValue({ maxDepth: 0 }),
      notify: fc.oneof(
        fc.record({ members: fc.oneof(fc.array(fc.string(), { maxLength: 22 }), fc.jsonValue({ maxDepth: 1 })) }),
        fc.constant(null),
      ),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [] },
  ),
);

it('random alert rule bodies to POST and PATCH alert rules', async () => {
  await fc.assert(
    fc.asyncProperty(fc.boolean(), ruleBodyArb, async (create, body) => {
      const req = create ? h.http.post(`/v1/key/projects/${tenant.projectId}/alert-rules`) : h.http.patch(`/v1/key/alert-rules/${ruleId}`);
      const res = await req.set(bearer(tenant.apiKey)).set('content-type', 'application/json').send(JSON.stringify(body));
      expectWellFormed(res);
    }),
    { numRuns: 600 },
  );
});

it('malformed raw bodies to PATCH alert rules', async () => {
  await fc.assert(
    fc.asyncProperty(rawBodyArb, fc.constantFrom('application/json', 'text/plain', 'application/merge-patch+json'), async (raw, type) => {
      const res = await h.http.patch(`/v1/key/alert-rules/${ruleId}`).set(bearer(tenant.apiKey)).set('content-type', type).send(raw);
      expectWellFormed(res);
    }),
    { numRuns: 300 },
  );
});

it('malformed raw bodies and content types to every POST endpoint', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...postPaths()),
      rawBodyArb,
      fc.constantFrom(
        'application/json',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'application/merge-patch+json',
      ),
      async (path, raw, type) => {
        const res = await h.http.post(path).set(bearer(tenant.apiKey)).set('content-type', type).send(raw);
        expectWellFormed(res);
      },
    ),
    { numRuns: 800 },
  );
});

it('random query strings to every GET endpoint', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...getPaths()), queryArb, async (path, query) => {
      const res = await h.http.get(`${path}?${query}`).set(bearer(tenant.apiKey));
      expectWellFormed(res);
    }),
    { numRuns: 1500 },
  );
});

it('random ids and path segments', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.string({ minLength: 1 }),
        fc.fullUnicodeString({ minLength: 1, maxLength: 40 }),
        fc.constantFrom('..', '%2e%2e', '%', '%zz', 'job_', 'prj_0000000000000000'),
      ),
      fc.constantFrom('/v1/key/jobs/', '/v1/key/projects/', '/v1/key/jobs/x/', '/v1/key/projects/x/jobs/', '/v1/key/alert-rules/'),
      fc.boolean(),
      async (id, prefix, rawPercent) => {
        const encoded = encodeURIComponent(id);
        const res = await h.http.get(`${prefix}${rawPercent ? encoded.replace(/%25/g, '%') : encoded}`).set(bearer(tenant.apiKey));
        expectWellFormed(res);
      },
    ),
    { numRuns: 600 },
  );
});
