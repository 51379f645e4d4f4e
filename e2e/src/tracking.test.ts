import { syntheticSearchCards } from '@crawl/simulator';
import { loadWebhooksConfig, startWebhooks, type WebhooksHandle } from '@crawl/webhooks';
import { verify } from '@crawl/client';
import { Receiver } from './receivers';
import { auth, type Stack, startStack } from './stack';

/** Synthetic pages (no fixtures): their prices, stock and stars are known, so changes are exact. */
let stack: Stack;
let webhooks: WebhooksHandle;
let receiver: Receiver;

beforeAll(async () => {
  stack = await startStack({ simulator: { fixturesDir: null } });
  webhooks = await startWebhooks(
    loadWebhooksConfig({
      ...stack.workerEnv,
      SECRETS_KEY: 'c'.repeat(64),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '50',
    }),
  );
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await webhooks.close();
  await stack.close();
});
afterEach(() => stack.simulator.clearFaults());

const CHANGED_PAGE: [string, string][] = [
  ['$19.99', '$17.49'],
  ['<span class="a-price-whole">19<', '<span class="a-price-whole">17<'],
  ['<span class="a-price-fraction">99<', '<span class="a-price-fraction">49<'],
  [' In Stock ', ' Currently unavailable. '],
  ['4.5 out of 5 stars', '4.1 out of 5 stars'],
  ['>4.5<', '>4.1<'],
  ['a-star-4-5', 'a-star-4'],
];

it('a product whose page changed between two crawls: exact changes in tracked targets, timeline, compare and one signed product.changed delivery', async () => {
  const tenant = await stack.tenant();
  const hook = await stack.http
    .patch(`/v1/key/projects/${tenant.projectId}/webhooks`)
    .set(auth(tenant))
    .send({ configs: [{ url: receiver.url, triggerAction: 'product.changed' }] });
  const secret = hook.body.data.configs[0].secret;
  const first = await stack.createJob(tenant, { type: 'details', targets: ['B0TRACK001', 'B0TRACK002'] });
  await stack.waitForJob(first);
  let tracked = await stack.http.get(`/v1/key/projects/${tenant.projectId}/tracked-targets`).set(auth(tenant));
  expect(tracked.body.pagination.total).toBe(2);
  expect(tracked.body.data.every((t: { changeCount: number }) => t.changeCount === 0)).toBe(true);

  stack.simulator.setFaults([{ match: 'B0TRACK001', fault: { kind: 'rewrite', replace: CHANGED_PAGE } }]);
  const second = await stack.createJob(tenant, { type: 'details', targets: ['B0TRACK001', 'B0TRACK002'] });
  await stack.waitForJob(second);

  const expected = [
    { field: 'price', from: 19.99, to: 17.49 },
    { field: 'availability', from: 'in_stock', to: 'out_of_stock' },
    { field: 'rating', from: 4.5, to: 4.1 },
  ];
  tracked = await stack.http.get(`/v1/key/projects/${tenant.projectId}/tracked-targets?marketplace=us`).set(auth(tenant));
  const byAsin = Object.fromEntries(tracked.body.data.map((t: { asin: string }) => [t.asin, t]));
  expect(byAsin.B0TRACK001).toMatchObject({
    changeCount: 3,
    marketplace: 'US',
    snapshot: { price: 17.49, availability: 'out_of_stock', rating: 4.1 },
  });
  expect(byAsin.B0TRACK001.lastChangedAt).not.toBeNull();
  expect(byAsin.B0TRACK002).toMatchObject({ changeCount: 0, lastChangedAt: null });
  const since = await stack.http
    .get(`/v1/key/projects/${tenant.projectId}/tracked-targets?changedSince=${encodeURIComponent(byAsin.B0TRACK001.lastChangedAt)}`)
    .set(auth(tenant));
  expect(since.body.data.map((t: { asin: string }) => t.asin)).toEqual(['B0TRACK001']);

  const timeline = await stack.http
    .get(`/v1/key/projects/${tenant.projectId}/tracked-targets/B0TRACK001/timeline?marketplace=US`)
    .set(auth(tenant));
  expect(timeline.status).toBe(200);
  expect(timeline.body.data.map((e: { jobId: string }) => e.jobId)).toEqual([second, first]);
  expect(timeline.body.data[0].changes).toEqual(expected);
  expect(timeline.body.data[1].changes).toEqual([]);

  const compare = await stack.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${first}&to=${second}`).set(auth(tenant));
  expect(compare.body.data).toMatchObject({
    onlyInFrom: [],
    onlyInTo: [],
    changed: [{ asin: 'B0TRACK001', changes: expected }],
    moved: [],
  });

  const [delivery] = await receiver.waitFor(1);
  await new Promise((r) => setTimeout(r, 500));
  expect(receiver.received).toHaveLength(1);
  const body = JSON.parse(delivery!.body);
  expect(body).toMatchObject({
    event: 'product.changed',
    data: { asin: 'B0TRACK001', marketplace: 'US', jobId: second, changes: expected },
  });
  expect(verify(secret, delivery!.body, delivery!.headers['x-service-signature']).ok).toBe(true);
});

it('timeline needs a marketplace and a crawled product', async () => {
  const tenant = await stack.tenant();
  const base = `/v1/key/projects/${tenant.projectId}/tracked-targets`;
  expect((await stack.http.get(`${base}/B0TRACK001/timeline`).set(auth(tenant))).status).toBe(400);
  expect((await stack.http.get(`${base}/B0TRACK001/timeline?marketplace=US`).set(auth(tenant))).status).toBe(404);
  expect((await stack.http.get(`${base}/not-an-asin/timeline?marketplace=US`).set(auth(tenant))).status).toBe(404);
});

it('compare of two search jobs reports added, removed and moved ASINs', async () => {
  const tenant = await stack.tenant();
  const cards = syntheticSearchCards('garden hose').map((c) => c.asin);
  const first = await stack.createJob(tenant, { type: 'search', targets: ['garden hose'] });
  await stack.waitForJob(first);
  // Second crawl: card 3 is gone, card 5 is replaced by a new product.
  stack.simulator.setFaults([
    {
      match: '/s?',
      fault: {
        kind: 'rewrite',
        replace: [
          [cards[2]!, ''],
          [cards[4]!, 'B0NEWCARD1'],
        ],
      },
    },
  ]);
  const second = await stack.createJob(tenant, { type: 'search', targets: ['garden hose'] });
  await stack.waitForJob(second);
  const res = await stack.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${first}&to=${second}`).set(auth(tenant));
  expect(res.status).toBe(200);
  const data = res.body.data;
  expect(data.onlyInFrom.sort()).toEqual([cards[2], cards[4]].sort());
  expect(data.onlyInTo).toEqual(['B0NEWCARD1']);
  // Every card after the removed one moved up one place.
  expect(data.moved.map((m: { asin: string }) => m.asin).sort()).toEqual([cards[3], ...cards.slice(5)].sort());
  expect(data.moved.every((m: { delta: number; keyword: string }) => m.delta === -1 && m.keyword === 'garden hose')).toBe(true);
  expect(data.changed).toEqual([]);

  const details = await stack.createJob(tenant, { type: 'details', targets: [cards[0]!] });
  await stack.waitForJob(details);
  const mixed = await stack.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${first}&to=${details}`).set(auth(tenant));
  expect(mixed.body.data.note).toMatch(/search card/);
  expect(mixed.body.data.fieldsCompared).not.toContain('availability');

  const other = await stack.tenant();
  const foreign = await stack.http.get(`/v1/key/projects/${other.projectId}/compare?from=${first}&to=${second}`).set(auth(other));
  expect(foreign.status).toBe(404);
  const forbidden = await stack.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${first}&to=${second}`).set(auth(other));
  expect(forbidden.status).toBe(403);
});
