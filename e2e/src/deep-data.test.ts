/**
 * The offers, bestsellers and reviews job types end to end through the gateway, the
 * workers and the simulator: the request each target makes (docs/fetch-contract.md), lifecycle,
 * credits (reserved for every page, review pages a product does not have refunded), exports,
 * the sign-in wall as BLOCKED, validation of the bodies, and results scoped to the project.
 */
import { bestsellerResultItemSchema, llmExportSchema, offerResultItemSchema, reviewResultItemSchema } from '@crawl/core';
import { EventRepository } from '@crawl/db';
import { REAL_PAGES_DIR } from '@crawl/testing';
import { auth, type Stack, startStack } from './stack';

/** The cases on the saved real pages (docs/testing.md, "Real marketplace pages"; CRAWL_REAL_PAGES_DIR=none runs without). */
const withFixtures = REAL_PAGES_DIR ? it : it.skip;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
afterEach(() => {
  stack.simulator.clearFaults();
  stack.simulator.setPageCounts(null);
});

type Tenant = Awaited<ReturnType<Stack['tenant']>>;

async function results(tenant: Tenant, id: string): Promise<Record<string, any>[]> {
  const res = await stack.http.get(`/v1/key/jobs/${id}/results?limit=100`).set(auth(tenant));
  expect(res.status).toBe(200);
  const rows: Record<string, any>[] = res.body.data;
  for (let offset = 100; offset < res.body.pagination.total; offset += 100) {
    rows.push(...(await stack.http.get(`/v1/key/jobs/${id}/results?limit=100&offset=${offset}`).set(auth(tenant))).body.data);
  }
  return rows;
}

async function exports(tenant: Tenant, id: string) {
  const csv = await stack.http.get(`/v1/key/jobs/${id}/export?format=csv`).set(auth(tenant));
  expect(csv.status).toBe(200);
  const llm = await stack.http.get(`/v1/key/jobs/${id}/export?format=llm`).set(auth(tenant));
  expect(llm.status).toBe(200);
  expect(llmExportSchema.safeParse(llm.body).success).toBe(true);
  const json = await stack.http.get(`/v1/key/jobs/${id}/export?format=json`).set(auth(tenant));
  expect(json.status).toBe(200);
  return {
    header: csv.text.split('\r\n')[0]!.split(','),
    csvRows: csv.text.trim().split('\r\n').length - 1,
    llm: llm.body,
    json: json.body,
  };
}

const requested = (prefix: string) =>
  stack.simulator
    .requests()
    .filter((r) => r.path.startsWith(prefix))
    .map((r) => r.path);

withFixtures(
  'offers: every page of a listing, one item per offer with the product ASIN; 2 credits per page, 10 reserved; exports',
  async () => {
    const tenant = await stack.tenant({ credits: 100 });
    stack.simulator.resetLog();
    const id = await stack.createJob(tenant, { type: 'offers', targets: ['0133356728', 'https://www.amazon.com/dp/B0OFFERS01/ref=x'] });
    const job = await stack.waitForJob(id);
    // The saved listing is page 1 of 2 (its "Next" link); the other product's listing has one page.
    expect(job).toMatchObject({
      type: 'offers',
      status: 'completed',
      pages: 10,
      sort: null,
      progress: { total: 2, succeeded: 2, failed: 0 },
      credits: { reserved: 40, consumed: 6, refunded: 34 },
      errors: [],
      notes: [],
    });
    expect(requested('/gp/offer-listing/').sort()).toEqual([
      '/gp/offer-listing/0133356728',
      '/gp/offer-listing/0133356728?startIndex=10',
      '/gp/offer-listing/B0OFFERS01',
    ]);

    const rows = await results(tenant, id);
    expect(rows.length).toBe(job.resultsCount);
    for (const row of rows) expect(offerResultItemSchema.safeParse(row).success).toBe(true);
    const saved = rows.filter((r) => r.target === '0133356728');
    // ten offers a page, positions continuing on page 2
    expect(saved).toHaveLength(20);
    expect(saved.map((r) => r.position)).toEqual(saved.map((_, i) => i + 1));
    expect(saved.every((r) => r.asin === '0133356728' && Array.isArray(r.missingFields) && typeof r.parserVersion === 'string')).toBe(true);
    expect(rows.filter((r) => r.target.includes('B0OFFERS01')).every((r) => r.asin === 'B0OFFERS01')).toBe(true);

    const out = await exports(tenant, id);
    expect(out.header.slice(0, 5)).toEqual(['target', 'asin', 'position', 'price_amount', 'price_currency']);
    expect(out.header).toEqual(
      expect.arrayContaining(['seller_name', 'seller_id', 'is_buy_box', 'fulfilled_by_amazon', 'missing_fields', 'parser_version']),
    );
    expect(out.csvRows).toBe(rows.length);
    expect(out.llm.items[0]).toMatchObject({
      source: 'offers',
      asin: rows[0]!.asin,
      rank: rows[0]!.position,
      condition: rows[0]!.condition,
    });
    expect(out.json).toHaveLength(rows.length);
    expect(await stack.gateway.credits.ledgerTotals(tenant.organizationId)).toEqual({ grant: 100, reserve: 40, refund: 34, consume: 6 });
  },
);

withFixtures(
  'bestsellers: the list path (without its /ref= tail) is re-rooted on the origin; items in rank order (lazy ones with null card fields); 5 credits per list',
  async () => {
    const tenant = await stack.tenant({ credits: 100 });
    stack.simulator.resetLog();
    const list = 'https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_nav_0?pg=1#top';
    const id = await stack.createJob(tenant, { type: 'bestsellers', targets: [list, 'https://www.amazon.com/gp/bestsellers/books'] });
    const job = await stack.waitForJob(id);
    expect(job).toMatchObject({
      status: 'completed',
      progress: { succeeded: 2, failed: 0 },
      credits: { reserved: 10, consumed: 10, refunded: 0 },
    });
    expect(requested('/Best-Sellers-').concat(requested('/gp/bestsellers/')).sort()).toEqual([
      '/Best-Sellers-Electronics/zgbs/electronics',
      '/gp/bestsellers/books',
    ]);
    expect(job.targets[0]).toBe('https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_nav_0?pg=1');

    const rows = await results(tenant, id);
    for (const row of rows) expect(bestsellerResultItemSchema.safeParse(row).success).toBe(true);
    const electronics = rows.filter((r) => r.target === job.targets[0]);
    expect(electronics.length).toBeGreaterThan(10);
    const ranks = electronics.map((r) => r.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(electronics[0]).toMatchObject({ rank: 1, category: expect.any(String) });
    for (const lazy of electronics.filter((r) => r.title === null && r.image === null)) {
      expect(lazy.missingFields).toEqual(['title', 'image', 'price', 'rating', 'reviewsCount']);
      expect(lazy.url).toBe(`${stack.simulator.url}/dp/${lazy.asin}`);
    }

    const out = await exports(tenant, id);
    expect(out.header.slice(0, 5)).toEqual(['target', 'category', 'rank', 'asin', 'title']);
    expect(out.csvRows).toBe(rows.length);
    expect(out.llm.items[0]).toMatchObject({ source: 'bestsellers', rank: rows[0]!.rank, asin: rows[0]!.asin });
  },
);

withFixtures(
  'reviews: pages with sortBy, stop early at the last page, 2 credits per page crawled (the rest refunded); the summary on every item',
  async () => {
    const tenant = await stack.tenant({ credits: 100 });
    stack.simulator.setPageCounts({ B0REVIEWS1: 2 });
    stack.simulator.resetLog();
    const id = await stack.createJob(tenant, { type: 'reviews', targets: ['B0REVIEWS1'], config: { pages: 4, sort: 'recent' } });
    const job = await stack.waitForJob(id);
    expect(job).toMatchObject({
      status: 'completed',
      pages: 4,
      sort: 'recent',
      progress: { succeeded: 1 },
      credits: { reserved: 8, consumed: 4, refunded: 4 },
      errors: [],
      notes: [],
    });
    expect(requested('/product-reviews/')).toEqual([
      '/product-reviews/B0REVIEWS1?pageNumber=1&sortBy=recent',
      '/product-reviews/B0REVIEWS1?pageNumber=2&sortBy=recent',
    ]);

    const rows = await results(tenant, id);
    for (const row of rows) expect(reviewResultItemSchema.safeParse(row).success).toBe(true);
    expect(new Set(rows.map((r) => r.page))).toEqual(new Set([1, 2]));
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.every((r) => r.asin === 'B0REVIEWS1' && r.target === 'B0REVIEWS1')).toBe(true);
    expect(rows[0]!.product).toMatchObject({ rating: expect.any(Number), ratingsCount: expect.any(Number), histogram: expect.any(Object) });
    expect(rows.every((r) => JSON.stringify(r.product) === JSON.stringify(rows[0]!.product))).toBe(true);

    const out = await exports(tenant, id);
    expect(out.header.slice(0, 5)).toEqual(['target', 'asin', 'page', 'id', 'rating']);
    expect(out.header).toEqual(expect.arrayContaining(['product_rating', 'product_ratings_count', 'product_histogram']));
    expect(out.llm.items[0]).toMatchObject({ source: 'reviews', reviewId: rows[0]!.id, description: rows[0]!.body, page: 1 });
    expect(await stack.gateway.credits.ledgerTotals(tenant.organizationId)).toEqual({ grant: 100, reserve: 8, refund: 4, consume: 4 });
  },
);

it('reviews behind a sign-in wall fail as BLOCKED with a message that says so, all refunded; never an empty success', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.resetLog();
  stack.simulator.setFaults([{ match: '/product-reviews/B0SIGNIN01', fault: { kind: 'signin' } }]);
  const id = await stack.createJob(tenant, { type: 'reviews', targets: ['B0SIGNIN01'], config: { pages: 3 } });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({
    status: 'failed',
    resultsCount: 0,
    credits: { reserved: 6, consumed: 0, refunded: 6 },
    errors: [{ target: 'B0SIGNIN01', code: 'BLOCKED', message: expect.stringMatching(/sign-in.*reviews/) }],
  });
  // the wall is the page's: with a single exit there is no other exit to retry from
  expect(requested('/product-reviews/B0SIGNIN01')).toHaveLength(1);
  expect(await stack.gateway.credits.balance(tenant.organizationId)).toBe(100);
});

withFixtures("an offer listing of another product than the target's is PARSE_ERROR, never its result", async () => {
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.setFaults([
    { match: '/gp/offer-listing/0133356728', fault: { kind: 'rewrite', replace: [['0133356728', '1133958095']] } },
  ]);
  const id = await stack.createJob(tenant, { type: 'offers', targets: ['0133356728'] });
  expect(await stack.waitForJob(id)).toMatchObject({
    status: 'failed',
    resultsCount: 0,
    credits: { reserved: 20, refunded: 20 },
    errors: [{ target: '0133356728', code: 'PARSE_ERROR' }],
  });
});

it('validation: list URL path and host, sort only on reviews, pages per type; nothing reserved', async () => {
  const tenant = await stack.tenant({ credits: 100 });
  const create = (body: object) => stack.http.post(`/v1/key/projects/${tenant.projectId}/jobs`).set(auth(tenant)).send(body);
  const refused = async (body: object, path: string, message: RegExp) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: expect.arrayContaining([expect.objectContaining({ path, message: expect.stringMatching(message) })]),
    });
  };
  await refused({ type: 'bestsellers', targets: ['https://www.amazon.com/dp/B0TEST0001'] }, 'body.targets.0', /path must start with/);
  await refused(
    { type: 'bestsellers', targets: ['https://www.amazon.com//evil.example/zgbs/x'] },
    'body.targets.0',
    /path must start with/,
  );
  await refused({ type: 'bestsellers', targets: ['https://evil.example/zgbs/electronics'] }, 'body.targets.0', /not an Amazon marketplace/);
  await refused(
    { type: 'bestsellers', targets: ['https://www.amazon.de/zgbs/electronics'], config: { marketplace: 'US' } },
    'body.targets.0',
    /marketplace DE/,
  );
  await refused({ type: 'bestsellers', targets: ['electronics'] }, 'body.targets.0', /best-seller list URL/);
  await refused({ type: 'offers', targets: ['B0TEST0001'], config: { sort: 'recent' } }, 'body.config.sort', /reviews jobs only/);
  await refused({ type: 'offers', targets: ['B0TEST0001'], config: { pages: 11 } }, 'body.config.pages', /at most 10 for offers/);
  await refused(
    { type: 'details', targets: ['B0TEST0001'], config: { pages: 2 } },
    'body.config.pages',
    /search, offers and reviews jobs only/,
  );
  await refused({ type: 'offers', targets: ['not an asin'] }, 'body.targets.0', /ASIN/);
  await refused({ type: 'reviews', targets: ['B0TEST0001'], config: { pages: 11 } }, 'body.config.pages', /at most 10/);
  await refused({ type: 'reviews', targets: ['B0TEST0001'], config: { sort: 'newest' } }, 'body.config.sort', /recent/);
  await refused({ type: 'search', targets: ['lamp'], config: { pages: 8 } }, 'body.config.pages', /at most 7/);
  await refused({ type: 'search', targets: ['lamp'], config: { sort: 'helpful' } }, 'body.config.sort', /reviews jobs only/);

  // A marketplace is taken from list URLs of one host, as from product URLs.
  const de = await create({ type: 'bestsellers', targets: ['https://www.amazon.de/gp/bestsellers/books'] });
  expect(de.status).toBe(202);
  expect(de.body.data).toMatchObject({ marketplace: 'DE', credits: { reserved: 5 } });
  const estimate = await stack.http
    .post(`/v1/key/projects/${tenant.projectId}/jobs/estimate`)
    .set(auth(tenant))
    .send({ type: 'reviews', targets: ['B0TEST0001', 'B0TEST0002'], config: { pages: 10 } });
  expect(estimate.body.data).toMatchObject({ targets: 2, pages: 10, creditsPerTarget: 20, cost: 40 });
});

it('results, exports and retries of the new types are scoped to the project (another project gets 404)', async () => {
  const owner = await stack.tenant({ credits: 100 });
  const other = await stack.tenant({ credits: 100 });
  stack.simulator.setFaults([{ match: '/gp/offer-listing/B0NOTFOUND', fault: { kind: 'not_found' } }]);
  const id = await stack.createJob(owner, { type: 'offers', targets: ['B0NOTFOUND'] });
  expect(await stack.waitForJob(id)).toMatchObject({ status: 'failed', errors: [{ code: 'NOT_FOUND' }], credits: { refunded: 20 } });
  for (const url of [`/v1/key/jobs/${id}`, `/v1/key/jobs/${id}/results`, `/v1/key/jobs/${id}/export?format=csv`]) {
    const res = await stack.http.get(url).set(auth(other));
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  }
  expect((await stack.http.post(`/v1/key/jobs/${id}/retry`).set(auth(other))).status).toBe(404);
  const retry = await stack.http.post(`/v1/key/jobs/${id}/retry`).set(auth(owner));
  expect(retry.status).toBe(202);
  expect(retry.body.data).toMatchObject({ type: 'offers', pages: 10, credits: { reserved: 20 } });
});

withFixtures(
  'change tracking: the lowest new price and the review count change as product.changed events; best-seller rank moves in compare',
  async () => {
    const tenant = await stack.tenant({ credits: 1000 });
    const changes = async () =>
      (await new EventRepository(stack.db).listForProject(tenant.projectId))
        .filter((e) => e.type === 'product.changed')
        .map((e) => ({ asin: (e.data as any).asin, changes: (e.data as any).changes }));
    const offers = { type: 'offers', targets: ['0133356728'] };

    // The saved listing is the legacy layout, which marks no buy box: it observes the lowest new price ($197.32) only.
    expect(await stack.waitForJob(await stack.createJob(tenant, offers))).toMatchObject({ status: 'completed' });
    // a used offer's price is no change of the product
    stack.simulator.setFaults([{ match: '/gp/offer-listing/0133356728', fault: { kind: 'rewrite', replace: [['$189.74', '$179.74']] } }]);
    expect(await stack.waitForJob(await stack.createJob(tenant, offers))).toMatchObject({ status: 'completed' });
    expect(await changes()).toEqual([]);
    stack.simulator.setFaults([{ match: '/gp/offer-listing/0133356728', fault: { kind: 'rewrite', replace: [['$197.32', '$187.32']] } }]);
    expect(await stack.waitForJob(await stack.createJob(tenant, offers))).toMatchObject({ status: 'completed' });
    expect(await changes()).toEqual([{ asin: '0133356728', changes: [{ field: 'lowestNewPrice', from: 197.32, to: 187.32 }] }]);
    const timeline = await stack.http
      .get(`/v1/key/projects/${tenant.projectId}/tracked-targets/0133356728/timeline?marketplace=US`)
      .set(auth(tenant));
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.map((e: any) => [e.source, e.snapshot.lowestNewPrice, e.snapshot.seller])).toEqual([
      ['offers', 187.32, null],
      ['offers', 197.32, null],
      ['offers', 197.32, null],
    ]);

    const reviews = { type: 'reviews', targets: ['B0TRACKRV1'] };
    expect(await stack.waitForJob(await stack.createJob(tenant, reviews))).toMatchObject({ status: 'completed' });
    stack.simulator.setFaults([
      { match: '/product-reviews/B0TRACKRV1', fault: { kind: 'rewrite', replace: [['25,181 global ratings', '25,190 global ratings']] } },
    ]);
    expect(await stack.waitForJob(await stack.createJob(tenant, reviews))).toMatchObject({ status: 'completed' });
    expect((await changes()).filter((c) => c.asin === 'B0TRACKRV1')).toEqual([
      { asin: 'B0TRACKRV1', changes: [{ field: 'reviewsCount', from: 25181, to: 25190 }] },
    ]);

    const list = { type: 'bestsellers', targets: ['https://www.amazon.com/zgbs/electronics'] };
    const before = await stack.createJob(tenant, list);
    await stack.waitForJob(before);
    stack.simulator.setFaults([
      {
        match: '/zgbs/electronics',
        fault: {
          kind: 'rewrite',
          replace: [
            ['B08JHCVHTY', 'XSWAPXSWAP'],
            ['B0DCH8VDXF', 'B08JHCVHTY'],
            ['XSWAPXSWAP', 'B0DCH8VDXF'],
          ],
        },
      },
    ]);
    const after = await stack.createJob(tenant, list);
    await stack.waitForJob(after);
    const compare = await stack.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${before}&to=${after}`).set(auth(tenant));
    expect(compare.status).toBe(200);
    expect(compare.body.data.summary).toMatchObject({ onlyInFrom: 0, onlyInTo: 0, moved: 2 });
    expect(compare.body.data.moved).toEqual(
      expect.arrayContaining([
        { asin: 'B08JHCVHTY', keyword: list.targets[0], from: 1, to: 2, delta: 1 },
        { asin: 'B0DCH8VDXF', keyword: list.targets[0], from: 2, to: 1, delta: -1 },
      ]),
    );
    // A best-seller list feeds compare only: no product.changed from list cards.
    expect((await changes()).map((c) => c.asin).sort()).toEqual(['0133356728', 'B0TRACKRV1']);

    const offersJob = await stack.createJob(tenant, { type: 'offers', targets: ['0133356728'] });
    const refused = await stack.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${before}&to=${offersJob}`).set(auth(tenant));
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
  },
);

it('change tracking on the AOD layout: the buy-box seller and price (and the lowest new price they set) change as product.changed events', async () => {
  const tenant = await stack.tenant({ credits: 1000 });
  const asin = 'B0AODTRK01';
  const offers = { type: 'offers', targets: [asin] };
  const changes = async () =>
    (await new EventRepository(stack.db).listForProject(tenant.projectId))
      .filter((e) => e.type === 'product.changed' && (e.data as any).asin === asin)
      .map((e) => (e.data as any).changes);
  stack.simulator.setOffersLayout('aod');
  try {
    const first = await stack.createJob(tenant, offers);
    expect(await stack.waitForJob(first)).toMatchObject({ status: 'completed', progress: { succeeded: 1 } });
    const rows = await results(tenant, first);
    for (const row of rows) expect(offerResultItemSchema.safeParse(row).success).toBe(true);
    expect(rows.filter((r) => r.isBuyBox === true).map((r) => r.position)).toEqual([1]);
    expect(rows.every((r) => r.asin === asin && r.seller?.id)).toBe(true);
    const buyBox = rows[0]!;
    // This listing's buy box is a third-party seller's New offer, the cheapest New one on it.
    expect(buyBox).toMatchObject({ condition: 'New', fulfilledByAmazon: expect.any(Boolean) });
    expect(buyBox.seller.name).not.toMatch(/^Amazon/);
    const otherNew = rows.filter((r) => !r.isBuyBox && r.condition === 'New').map((r) => r.price.amount as number);
    expect(otherNew.length).toBeGreaterThan(0);
    expect(Math.min(...otherNew)).toBeGreaterThan(buyBox.price.amount);

    // The rewrite must touch the pinned offer only (and the sticky header's copy of it): its price
    // and seller name occur neither in the product block before them nor in the offer list after.
    const oldPrice = `$${buyBox.price.amount.toFixed(2)}`;
    const newAmount = Math.round((buyBox.price.amount - 2.5) * 100) / 100;
    const newPrice = `$${newAmount.toFixed(2)}`;
    const newSeller = 'Westbrook Merchants';
    const html = await (await fetch(`${stack.simulator.url}/gp/offer-listing/${asin}`)).text();
    const listStart = html.indexOf('id="aod-offer-list"');
    for (const text of [oldPrice, buyBox.seller.name]) {
      expect(html.indexOf(text)).toBeGreaterThan(html.indexOf('id="aod-sticky-pinned-container"'));
      expect(html.lastIndexOf(text)).toBeLessThan(listStart);
    }
    expect(html).not.toContain(newPrice);

    stack.simulator.setFaults([
      {
        match: `/gp/offer-listing/${asin}`,
        fault: {
          kind: 'rewrite',
          replace: [
            [oldPrice, newPrice],
            [buyBox.seller.name, newSeller],
          ],
        },
      },
    ]);
    const second = await stack.createJob(tenant, offers);
    expect(await stack.waitForJob(second)).toMatchObject({ status: 'completed' });
    const after = await results(tenant, second);
    expect(after.filter((r) => r.isBuyBox === true).map((r) => [r.position, r.seller.name, r.price.amount])).toEqual([
      [1, newSeller, newAmount],
    ]);

    // The buy box was the cheapest New offer and got cheaper still: the lowest new price follows it.
    expect(await changes()).toEqual([
      [
        { field: 'price', from: buyBox.price.amount, to: newAmount },
        { field: 'seller', from: buyBox.seller.name, to: newSeller },
        { field: 'lowestNewPrice', from: buyBox.price.amount, to: newAmount },
      ],
    ]);
    const timeline = await stack.http
      .get(`/v1/key/projects/${tenant.projectId}/tracked-targets/${asin}/timeline?marketplace=US`)
      .set(auth(tenant));
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.map((e: any) => [e.source, e.snapshot.seller, e.snapshot.price, e.snapshot.lowestNewPrice])).toEqual([
      ['offers', newSeller, newAmount, newAmount],
      ['offers', buyBox.seller.name, buyBox.price.amount, buyBox.price.amount],
    ]);
  } finally {
    stack.simulator.setOffersLayout('legacy');
  }
});
