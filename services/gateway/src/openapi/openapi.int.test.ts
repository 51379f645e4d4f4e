import { ERROR_STATUS } from '@crawl/core';
import type { Router } from 'express';
import { accountRouter, apiRouter, publicRouter } from '../app';
import { bearer, type Harness, startHarness } from '../test-support/harness';
import { createMetricsRegistry } from '@crawl/observability';
import { createTenant } from '@crawl/testing';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** "METHOD /path/{param}" for every route a router serves (express `:param` as OpenAPI `{param}`). */
function routesOf(router: Router, prefix: string): string[] {
  const out: string[] = [];
  for (const layer of (router as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] }).stack) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) {
      out.push(`${method.toUpperCase()} ${prefix}${layer.route.path.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return out;
}

it('documents every route the gateway serves, and nothing it does not', async () => {
  // a registry of its own: building the routers again registers their metrics again
  const deps = { ...h.deps, metrics: createMetricsRegistry('openapi-test') };
  const served = [
    ...routesOf(publicRouter(deps), ''),
    ...routesOf(apiRouter(deps), '/v1/key'),
    ...routesOf(accountRouter(deps), '/v1/account'),
  ].sort();
  const doc = (await h.http.get('/openapi.json')).body;
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
  expect(documented).toEqual(served);
});

it('is OpenAPI 3.1 with the error codes, headers and examples clients rely on', async () => {
  const res = await h.http.get('/openapi.json');
  expect(res.status).toBe(200);
  const doc = res.body;
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  const text = JSON.stringify(doc);
  for (const code of Object.keys(ERROR_STATUS).filter((c) => c !== 'INTERNAL')) expect(text).toContain(code);
  for (const header of [
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
    'Retry-After',
    'X-Request-Id',
    'Idempotency-Key',
  ])
    expect(text).toContain(header);
  const create = doc.paths['/v1/key/projects/{projectId}/jobs'].post;
  expect(Object.keys(create.responses).sort()).toEqual([
    '202',
    '400',
    '401',
    '402',
    '403',
    '404',
    '409',
    '413',
    '422',
    '429',
    '500',
    '503',
  ]);
  expect(Object.keys(create.responses['202'].headers)).toEqual(
    expect.arrayContaining(['Location', 'Idempotent-Replayed', 'X-Request-Id', 'X-RateLimit-Limit']),
  );
  expect(Object.keys(create.responses['429'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'X-Request-Id']));
  expect(doc.paths['/v1/key/projects/{projectId}/schedules'].post.responses['201'].headers.Location.required).toBe(true);
  expect(create.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateJobBody' });
  expect(doc.components.schemas.CreateJobBody.properties.type.enum).toEqual(['search', 'details', 'offers', 'bestsellers', 'reviews']);
  const list = doc.paths['/v1/key/projects/{projectId}/jobs'].get.parameters.map((p: { name: string }) => p.name);
  expect(list).toEqual(expect.arrayContaining(['status', 'q', 'from', 'to', 'limit', 'offset']));
});

it('a documented request body is what the gateway accepts: an example built from the schema validates', async () => {
  const tenant = await createTenant(h.deps.db);
  const res = await h.http
    .post(`/v1/key/projects/${tenant.projectId}/jobs`)
    .set(bearer(tenant.apiKey))
    .send({ type: 'details', targets: ['B0DR8G428S'], config: { marketplace: 'US', lang: 'en-US' } });
  expect(res.status).toBe(202);
  const docs = await h.http.get('/docs');
  expect(docs.status).toBe(200);
  expect(docs.text).toContain('/docs/assets/swagger-ui-bundle.js');
  expect((await h.http.get('/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
});

it('documents result items as a union of the item schemas, and the llm export as an object', async () => {
  const doc = (await h.http.get('/openapi.json')).body;
  const schemas = doc.components.schemas;
  expect(schemas.ResultItem.anyOf).toEqual(
    ['DetailsResultItem', 'SearchResultItem', 'OfferResultItem', 'BestsellerResultItem', 'ReviewResultItem'].map((name) => ({
      $ref: `#/components/schemas/${name}`,
    })),
  );
  expect(schemas.DetailsResultItem.required).toEqual(
    expect.arrayContaining(['target', 'asin', 'price', 'availability', 'missingFields', 'parserVersion']),
  );
  expect(schemas.SearchResultItem.required).toEqual(expect.arrayContaining(['keyword', 'position', 'organicPosition', 'isSponsored']));
  // a drift the hand-kept contract once had: the llm export was documented as an array of result items
  expect(schemas.LlmExport).toMatchObject({
    type: 'object',
    required: expect.arrayContaining(['schemaVersion', 'generatedAt', 'job', 'items']),
  });
  const exported = doc.paths['/v1/key/jobs/{jobId}/export'].get.responses['200'].content['application/json'].schema;
  expect(exported.anyOf).toContainEqual({ $ref: '#/components/schemas/LlmExport' });
  // drift example: the log entry's deliveryId is nullable and its duration always set
  expect(schemas.WebhookLogEntry.properties.deliveryId.type).toEqual(['string', 'null']);
  expect(schemas.WebhookLogEntry.properties.durationMs.type).toBe('integer');
  expect(schemas.WebhookLogEntry.required).toContain('durationMs');
});

it('renders a nullable named schema as one that accepts null, and has no allOf (whose strict branches would reject valid bodies)', async () => {
  const doc = (await h.http.get('/openapi.json')).body;
  expect(doc.components.schemas.DetailsResultItem.properties.price.anyOf).toEqual(
    expect.arrayContaining([{ $ref: '#/components/schemas/Money' }, { type: 'null' }]),
  );
  expect(doc.components.schemas.TrackedTarget.properties.snapshot.anyOf).toEqual(
    expect.arrayContaining([{ $ref: '#/components/schemas/ProductSnapshot' }, { type: 'null' }]),
  );
  expect(JSON.stringify(doc)).not.toContain('"allOf"');
  const refs = new Set<string>(JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? []);
  for (const ref of refs) expect(doc.components.schemas).toHaveProperty(ref.split('/').pop()!);
});

it('documents the webhook events with their delivery headers and the signature scheme', async () => {
  const doc = (await h.http.get('/openapi.json')).body;
  expect(Object.keys(doc.webhooks)).toEqual(['job.completed', 'job.failed', 'schedule.triggered', 'product.changed', 'product.alert']);
  for (const [event, item] of Object.entries<{
    post: { parameters: { name: string; in: string; required: boolean }[]; requestBody: { content: Record<string, { schema: unknown }> } };
  }>(doc.webhooks)) {
    const headers = item.post.parameters.filter((p) => p.in === 'header' && p.required).map((p) => p.name);
    expect(headers).toEqual(['X-Service-Signature', 'X-Service-Event', 'X-Service-Delivery', 'X-Service-Webhook-Id']);
    const ref = (item.post.requestBody.content['application/json']!.schema as { $ref: string }).$ref;
    const body = doc.components.schemas[ref.split('/').pop()!];
    expect(body.properties.event.enum).toEqual([event]);
  }
  expect(JSON.stringify(doc.webhooks)).toContain('HMAC-SHA256');
});
