/**
 * Search depth (`config.pages`) end to end through the gateway, the workers and the simulator:
 * `config.pages` result pages per keyword, overall positions across pages, early stops, keywords
 * without results, and credits charged per page crawled (reserved for all, the rest refunded).
 */
import fs from 'node:fs';
import path from 'node:path';
import { EventRepository } from '@crawl/db';
import { parseSearchPage } from '@crawl/marketplace';
import { auth, type Stack, startStack } from './stack';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/amazon');
const withFixtures = fs.existsSync(FIXTURES) ? it : it.skip;

interface Card {
  keyword: string;
  page: number;
  position: number;
  organicPosition: number | null;
  asin: string;
  isSponsored: boolean | null;
}

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
afterEach(() => {
  stack.simulator.clearFaults();
  stack.simulator.setPageCounts(null);
});

async function results(tenant: Parameters<typeof auth>[0], id: string): Promise<Card[]> {
  const res = await stack.http.get(`/v1/key/jobs/${id}/results?limit=100`).set(auth(tenant));
  expect(res.status).toBe(200);
  const rows: Card[] = res.body.data;
  for (let offset = 100; offset < res.body.pagination.total; offset += 100) {
    const next = await stack.http.get(`/v1/key/jobs/${id}/results?limit=100&offset=${offset}`).set(auth(tenant));
    rows.push(...next.body.data);
  }
  return rows;
}

const searchRequests = (keywordParam: string) =>
  stack.simulator
    .requests()
    .filter((r) => r.path.startsWith(`/s?k=${keywordParam}`))
    .map((r) => r.path);

withFixtures(
  'a 3-page search: positions continue across pages, sponsored cards stay flagged, duplicates are kept with their page',
  async () => {
    const tenant = await stack.tenant({ credits: 1000 });
    stack.simulator.resetLog();
    // The saved page answers every page of its keyword (with a Next link): the same cards three times.
    const id = await stack.createJob(tenant, { type: 'search', targets: ['portable charger'], config: { pages: 3 } });
    const job = await stack.waitForJob(id);
    expect(job).toMatchObject({
      status: 'completed',
      pages: 3,
      progress: { succeeded: 1, failed: 0 },
      credits: { reserved: 15, consumed: 15, refunded: 0 },
      errors: [],
      notes: [],
    });
    expect(searchRequests('portable+charger')).toEqual([
      '/s?k=portable+charger',
      '/s?k=portable+charger&page=2',
      '/s?k=portable+charger&page=3',
    ]);

    const page = parseSearchPage(fs.readFileSync(path.join(FIXTURES, 'search-US-portable-charger.html'), 'utf8'), {
      marketplace: 'US',
      origin: stack.simulator.url,
    });
    const rows = await results(tenant, id);
    expect(job.resultsCount).toBe(3 * page.length);
    expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.map((r) => r.page)).toEqual([1, 2, 3].flatMap((p) => page.map(() => p)));
    const organicPerPage = page.filter((c) => c.isSponsored === false).length;
    for (const [p, pageNo] of [1, 2, 3].entries()) {
      const onPage = rows.filter((r) => r.page === pageNo);
      expect(onPage.map((r) => r.asin)).toEqual(page.map((c) => c.asin));
      expect(onPage.map((r) => r.isSponsored)).toEqual(page.map((c) => c.isSponsored));
      expect(onPage[0]!.position).toBe(p * page.length + 1);
      expect(onPage.map((r) => r.organicPosition)).toEqual(
        page.map((c) => (c.organicPosition === null ? null : p * organicPerPage + c.organicPosition)),
      );
    }
    expect(rows.filter((r) => r.isSponsored).length).toBe(3 * page.filter((c) => c.isSponsored).length);
    const first = rows[0]!.asin;
    expect(rows.filter((r) => r.asin === first).map((r) => r.page)).toEqual([1, 2, 3]);

    // Exports carry the page too: a csv column from the schema, and the llm item's `page`.
    const csv = await stack.http.get(`/v1/key/jobs/${id}/export?format=csv`).set(auth(tenant));
    expect(csv.text.split('\n')[0]!.split(',').slice(0, 5)).toEqual(['keyword', 'page', 'total_results', 'position', 'organic_position']);
    const llm = await stack.http.get(`/v1/key/jobs/${id}/export?format=llm`).set(auth(tenant));
    expect(llm.body.items.map((i: { page: number }) => i.page)).toEqual(rows.map((r) => r.page));
    expect(llm.body.items[page.length]).toMatchObject({ rank: page.length + 1, page: 2 });

    // Tracking: the cards of pages 2 and 3 are the same products seen again, not changes; a 1-page
    // crawl of the keyword compares with no moves (a product's position is its first, best one).
    const single = await stack.createJob(tenant, { type: 'search', targets: ['portable charger'] });
    expect(await stack.waitForJob(single)).toMatchObject({ status: 'completed', pages: 1, credits: { consumed: 5 } });
    const events = await new EventRepository(stack.db).listForProject(tenant.projectId);
    expect(events.filter((e) => e.type === 'product.changed')).toEqual([]);
    const compare = await stack.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${id}&to=${single}`).set(auth(tenant));
    expect(compare.body.data.summary).toMatchObject({ onlyInFrom: 0, onlyInTo: 0, changed: 0, moved: 0 });
  },
);

it('template keywords: different cards per page; a keyword with 2 pages in a 5-page job stops early, consumes 10 and refunds 15', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.setPageCounts({ 'usb c hub': 2 });
  stack.simulator.resetLog();
  const id = await stack.createJob(tenant, { type: 'search', targets: ['usb c hub'], config: { pages: 5 } });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({
    status: 'completed',
    pages: 5,
    progress: { succeeded: 1, failed: 0 },
    credits: { reserved: 25, consumed: 10, refunded: 15 },
    errors: [],
    notes: [],
  });
  expect(searchRequests('usb+c+hub')).toEqual(['/s?k=usb+c+hub', '/s?k=usb+c+hub&page=2']);
  const rows = await results(tenant, id);
  const pageOne = rows.filter((r) => r.page === 1).map((r) => r.asin);
  const pageTwo = rows.filter((r) => r.page === 2).map((r) => r.asin);
  expect(pageOne.length).toBeGreaterThan(0);
  expect(pageTwo.length).toBe(pageOne.length);
  expect(pageTwo.filter((a) => pageOne.includes(a))).toEqual([]);
  expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i + 1));

  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(90);
  expect(await stack.gateway.credits.ledgerTotals(tenant.organizationId)).toEqual({ grant: 100, reserve: 25, refund: 15, consume: 10 });
  const api = await stack.http.get(`/v1/key/jobs/${id}`).set(auth(tenant));
  expect(api.body.data).toMatchObject({ pages: 5, credits: { reserved: 25, consumed: 10, refunded: 15 } });
});

it('a keyword without results completes with zero rows, a NO_RESULTS note and a full refund; not PARSE_ERROR', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.setPageCounts({ 'xqzv gadget': 0, 'usb c hub': 1 });
  const id = await stack.createJob(tenant, { type: 'search', targets: ['xqzv gadget', 'usb c hub'], config: { pages: 2 } });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({
    status: 'completed',
    progress: { total: 2, succeeded: 2, failed: 0 },
    credits: { reserved: 20, consumed: 5, refunded: 15 },
    errors: [],
    notes: [{ target: 'xqzv gadget', code: 'NO_RESULTS', message: 'the marketplace found no results for this keyword' }],
  });
  const rows = await results(tenant, id);
  expect(new Set(rows.map((r) => r.keyword))).toEqual(new Set(['usb c hub']));
  expect(await stack.gateway.credits.ledgerTotals(tenant.organizationId)).toEqual({ grant: 100, reserve: 20, refund: 15, consume: 5 });

  // Alone, the keyword still completes (it is not a failure), with nothing charged.
  const alone = await stack.createJob(tenant, { type: 'search', targets: ['xqzv gadget'] });
  expect(await stack.waitForJob(alone)).toMatchObject({
    status: 'completed',
    resultsCount: 0,
    credits: { reserved: 5, consumed: 0, refunded: 5 },
    notes: [{ code: 'NO_RESULTS' }],
  });
  const api = await stack.http.get(`/v1/key/jobs/${alone}`).set(auth(tenant));
  expect(api.body.data.notes).toEqual([{ target: 'xqzv gadget', code: 'NO_RESULTS', message: expect.any(String) }]);
});

it('a page blocked once is retried through the queue from that page (earlier pages are not fetched again); a page that fails for good fails the keyword, all refunded', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.resetLog();
  stack.simulator.setFaults([{ match: 'k=desk+lamp&page=2', fault: { kind: 'captcha' }, times: 1 }]);
  const id = await stack.createJob(tenant, { type: 'search', targets: ['desk lamp'], config: { pages: 3 } });
  expect(await stack.waitForJob(id)).toMatchObject({ status: 'completed', credits: { reserved: 15, consumed: 15, refunded: 0 } });
  expect(searchRequests('desk+lamp')).toEqual([
    '/s?k=desk+lamp',
    '/s?k=desk+lamp&page=2',
    '/s?k=desk+lamp&page=2',
    '/s?k=desk+lamp&page=3',
  ]);
  expect((await results(tenant, id)).map((r) => r.page)).toEqual(expect.arrayContaining([1, 2, 3]));

  stack.simulator.setFaults([{ match: 'k=floor+lamp&page=2', fault: { kind: 'captcha' } }]);
  const failing = await stack.createJob(tenant, { type: 'search', targets: ['floor lamp'], config: { pages: 3 } });
  const failed = await stack.waitForJob(failing);
  expect(failed).toMatchObject({
    status: 'failed',
    resultsCount: 0,
    credits: { reserved: 15, consumed: 0, refunded: 15 },
    errors: [{ target: 'floor lamp', code: 'BLOCKED' }],
  });
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(85);
});

it('a cancel between two pages stops the keyword: no further pages are fetched, and its reservation is refunded', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.resetLog();
  stack.simulator.setFaults([{ match: 'k=slow+lamp', fault: { kind: 'latency', ms: 400 } }]);
  const id = await stack.createJob(tenant, { type: 'search', targets: ['slow lamp'], config: { pages: 7 } });
  const deadline = Date.now() + 10_000;
  while (searchRequests('slow+lamp').length < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const cancel = await stack.http.post(`/v1/key/jobs/${id}/cancel`).set(auth(tenant));
  expect(cancel.status).toBe(200);
  await new Promise((r) => setTimeout(r, 1500));
  expect(searchRequests('slow+lamp').length).toBeLessThanOrEqual(2);
  expect((await stack.http.get(`/v1/key/jobs/${id}`).set(auth(tenant))).body.data).toMatchObject({
    status: 'cancelled',
    resultsCount: 0,
    credits: { reserved: 35, consumed: 0, refunded: 35 },
  });
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(100);
});

it('config.pages is validated (400 with the field path), and refused for details jobs', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  const create = (body: object) => stack.http.post(`/v1/key/projects/${tenant.projectId}/jobs`).set(auth(tenant)).send(body);
  for (const pages of [0, 8, 2.5, '3', null]) {
    const res = await create({ type: 'search', targets: ['lamp'], config: { pages } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'body.config.pages' })] });
  }
  const details = await create({ type: 'details', targets: ['B0TEST0001'], config: { pages: 2 } });
  expect(details.status).toBe(400);
  expect(details.body.error.details).toEqual([
    expect.objectContaining({ path: 'body.config.pages', message: 'applies to search, offers and reviews jobs only' }),
  ]);
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(100);
});

it('estimate and retry reserve 5 credits per keyword per page', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  const estimate = await stack.http
    .post(`/v1/key/projects/${tenant.projectId}/jobs/estimate`)
    .set(auth(tenant))
    .send({ type: 'search', targets: ['lamp', 'desk lamp'], config: { pages: 3 } });
  expect(estimate.status).toBe(200);
  expect(estimate.body.data).toMatchObject({ targets: 2, pages: 3, creditsPerTarget: 15, cost: 30, balance: 100, accepted: true });
  const tooDeep = await stack.http
    .post(`/v1/key/projects/${tenant.projectId}/jobs/estimate`)
    .set(auth(tenant))
    .send({ type: 'search', targets: Array.from({ length: 5 }, (_, i) => `lamp ${i}`), config: { pages: 7 } });
  expect(tooDeep.body.data).toMatchObject({ cost: 175, accepted: false, refusal: { code: 'INSUFFICIENT_CREDITS' } });

  stack.simulator.setFaults([{ match: '/s?k=', fault: { kind: 'not_found' } }]);
  const id = await stack.createJob(tenant, { type: 'search', targets: ['lamp', 'desk lamp'], config: { pages: 3 } });
  expect(await stack.waitForJob(id)).toMatchObject({ status: 'failed', credits: { reserved: 30, consumed: 0, refunded: 30 } });
  stack.simulator.clearFaults();
  stack.simulator.setPageCounts({ lamp: 1, 'desk lamp': 3 });
  const retry = await stack.http.post(`/v1/key/jobs/${id}/retry`).set(auth(tenant));
  expect(retry.status).toBe(202);
  expect(retry.body.data).toMatchObject({ pages: 3, credits: { reserved: 30 } });
  expect(await stack.waitForJob(retry.body.data.id)).toMatchObject({
    status: 'completed',
    credits: { reserved: 30, consumed: 20, refunded: 10 },
  });
  expect(await stack.gateway.credits.ledgerTotals(tenant.organizationId)).toEqual({ grant: 100, reserve: 60, refund: 40, consume: 20 });
});
