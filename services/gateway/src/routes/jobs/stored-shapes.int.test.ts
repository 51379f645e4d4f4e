import { JOB_KINDS, JOB_TYPES, type JobType, llmExportSchema, newId } from '@crawl/core';
import { productSnapshots } from '@crawl/jobs';
import { createTenant, searchItem, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';
import { csvHeader } from '@crawl/exports';

/**
 * Rows stored by older parsers, before fields existed, are read as items of the current schema
 * everywhere: results, every export format, compare and change tracking. The rows below are the
 * oldest shapes each job type stored (the parsers' output types of the first commits, and the
 * first offers, best-seller and review item schemas), inserted straight into Postgres the way
 * they lie in a database that was upgraded since.
 */
const V1 = 'amazon-2026.11.1';
const money = (amount: number) => ({ amount, currency: 'USD' });

/** The first details item, less `availability` (rows of the earliest parser had none). */
const oldDetails = (asin: string, price: number) => ({
  target: asin,
  asin,
  url: `https://www.amazon.com/dp/${asin}`,
  title: `Old product ${asin}`,
  brand: 'Acme',
  price: money(price),
  listPrice: null,
  rating: 4.2,
  reviewsCount: 31,
  mainImage: `https://m.media-amazon.com/images/I/${asin}.jpg`,
  images: [`https://m.media-amazon.com/images/I/${asin}.jpg`],
  features: ['Sturdy, "heavy" build'],
  description: null,
  categories: ['Home', 'Lamps'],
  bestSellersRank: [{ category: 'Lamps', rank: 12 }],
  seller: { name: 'Acme Store', id: 'A1ACME' },
  isPrime: false,
  variants: [],
  specifications: { Colour: 'Red' },
  missingFields: [],
  parserVersion: V1,
});

/** A search card before result pages, organic positions and badges were stored. */
const oldCard = (keyword: string, position: number, asin: string) => ({
  keyword,
  position,
  asin,
  title: `Card ${asin}`,
  url: `https://www.amazon.com/dp/${asin}`,
  image: null,
  price: money(9.99),
  listPrice: null,
  rating: 4,
  reviewsCount: 10,
  isSponsored: false,
  isPrime: true,
  missingFields: [],
  parserVersion: V1,
});

const OLDEST: Record<JobType, Record<string, unknown>[]> = {
  details: [oldDetails('B0OLDDET01', 19.99), { ...oldDetails('B0OLDDET02', 5), availability: { status: 'in_stock', text: 'In Stock.' } }],
  search: [oldCard('desk lamp', 1, 'B0OLDCRD01'), oldCard('desk lamp', 2, 'B0OLDCRD02')],
  // Offers before the product's ASIN was stored: the target (an ASIN or product URL) is the product.
  offers: [
    {
      target: 'https://www.amazon.com/dp/B0OLDOFF01?th=1',
      position: 1,
      price: money(21.5),
      shipping: money(0),
      condition: 'New',
      seller: { name: 'Acme Store', id: 'A1ACME' },
      fulfilledByAmazon: true,
      shipsFrom: 'Amazon',
      isBuyBox: true,
      deliveryText: null,
      missingFields: [],
      parserVersion: V1,
    },
  ],
  // Best-seller items before the list's category was stored.
  bestsellers: [
    {
      target: 'https://www.amazon.com/gp/bestsellers/electronics',
      rank: 1,
      asin: 'B0OLDBES01',
      title: 'Best seller',
      url: 'https://www.amazon.com/dp/B0OLDBES01',
      image: null,
      price: money(15),
      rating: 4.6,
      reviewsCount: 900,
      missingFields: [],
      parserVersion: V1,
    },
  ],
  // Reviews before the product's ASIN, the review page and the product's rating summary were stored.
  reviews: [
    {
      target: 'B0OLDREV01',
      id: 'R1OLDREVIEW',
      rating: 5,
      title: 'Great',
      body: 'Works well.\nWould buy again.',
      author: 'Jo',
      date: '2026-11-01',
      dateText: 'Reviewed in the United States on November 1, 2026',
      country: 'United States',
      verifiedPurchase: true,
      helpfulVotes: null,
      variant: null,
      missingFields: [],
      parserVersion: V1,
    },
  ],
};

/** What a field an old row lacks reads as, when it is not simply null, [] or {} (see readStoredItem). */
const DERIVED: Partial<Record<JobType, Record<string, unknown>>> = {
  details: { availability: { status: 'unknown', text: null } },
  search: { page: 1 },
  offers: { asin: 'B0OLDOFF01' },
  reviews: { asin: 'B0OLDREV01', page: 1, product: { asin: null, title: null, rating: null, ratingsCount: null, histogram: null } },
};

let h: Harness;
let tenant: TestTenant;
const jobs = {} as Record<JobType, string>;

async function completedJob(type: JobType, items: object[]): Promise<string> {
  const id = newId('job');
  const targets = [
    ...new Set(items.map((i) => String((i as { target?: string; keyword?: string }).target ?? (i as { keyword: string }).keyword))),
  ];
  await h.deps.db
    .insertInto('job')
    .values({
      id,
      project_id: tenant.projectId,
      organization_id: tenant.organizationId,
      type,
      status: 'completed',
      marketplace: 'US',
      lang: null,
      targets: JSON.stringify(targets),
      target_count: targets.length,
      succeeded: targets.length,
      results_count: items.length,
      credits_reserved: 2,
      credits_consumed: 2,
      started_at: new Date(),
      finished_at: new Date(),
    })
    .execute();
  await h.deps.db
    .insertInto('result_item')
    .values(items.map((item, i) => ({ job_id: id, target_idx: 0, position: i + 1, data: JSON.stringify(item) })))
    .execute();
  return id;
}

beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
  for (const type of JOB_TYPES) jobs[type] = await completedJob(type, OLDEST[type]);
});
afterAll(() => h.close());

const get = (path: string) => h.http.get(path).set(bearer(tenant.apiKey));
/** An export body as text (supertest would parse JSON and drop CSV). */
const exported = (jobId: string, format: string) =>
  get(`/v1/key/jobs/${jobId}/export?format=${format}`)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });

/** Every issue of `item` against the type's current (strict) item schema. */
const issues = (type: JobType, item: unknown) =>
  (JOB_KINDS[type].itemSchema.safeParse(item).error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

/** The stored values unchanged, every lacking field not observed (null, [] or {}) unless DERIVED names it. */
function expectReadAsCurrent(type: JobType, served: Record<string, unknown>, stored: Record<string, unknown>): void {
  expect(issues(type, served)).toEqual([]);
  for (const key of Object.keys(JOB_KINDS[type].itemSchema.shape)) {
    if (key in stored) expect([key, served[key]]).toEqual([key, stored[key]]);
    else if (DERIVED[type] && key in DERIVED[type]) expect([key, served[key]]).toEqual([key, DERIVED[type][key]]);
    else expect([key, [null, '[]', '{}'].includes(served[key] === null ? null : JSON.stringify(served[key]))]).toEqual([key, true]);
  }
}

/** RFC 4180 records of a whole CSV document (quoted cells may hold commas, quotes and newlines). */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (quoted || (c !== ',' && c !== '\r')) cell += c;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else {
      records.push([...cells, cell]);
      cells = [];
      cell = '';
      i++; // the \n of \r\n
    }
  }
  return records;
}

describe.each(JOB_TYPES)('%s rows of the oldest shape', (type) => {
  it('GET /results answers 200 with items of the current schema, missing fields not observed', async () => {
    const res = await get(`/v1/key/jobs/${jobs[type]}/results`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(OLDEST[type].length);
    res.body.data.forEach((item: Record<string, unknown>, i: number) => expectReadAsCurrent(type, item, OLDEST[type][i]!));
    // In the documented order, like every item.
    expect(Object.keys(res.body.data[0])).toEqual(Object.keys(JOB_KINDS[type].itemSchema.shape));
  });

  it('the json export answers 200 with the same items', async () => {
    const res = await exported(jobs[type], 'json');
    expect(res.status).toBe(200);
    const items = JSON.parse(res.body as string) as Record<string, unknown>[];
    expect(items).toHaveLength(OLDEST[type].length);
    items.forEach((item, i) => expectReadAsCurrent(type, item, OLDEST[type][i]!));
  });

  it('the csv export answers 200 with every column, empty cells for what was not observed', async () => {
    const res = await exported(jobs[type], 'csv');
    expect(res.status).toBe(200);
    const [header, ...rows] = csvRecords(res.body as string);
    expect(`${header!.join(',')}\r\n`).toBe(csvHeader(type));
    expect(rows).toHaveLength(OLDEST[type].length);
    for (const row of rows) expect(row).toHaveLength(header!.length);
    const first = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
    if (type === 'details')
      expect(first).toMatchObject({ availability_status: 'unknown', parent_asin: '', badges: '[]', is_prime: 'false' });
    if (type === 'search') expect(first).toMatchObject({ page: '1', organic_position: '', badges: '[]', brand: '' });
    if (type === 'offers') expect(first.asin).toBe('B0OLDOFF01');
    if (type === 'reviews') expect(first).toMatchObject({ asin: 'B0OLDREV01', page: '1', product_ratings_count: '' });
  });

  it('the llm export answers 200 with a valid document', async () => {
    const res = await exported(jobs[type], 'llm');
    expect(res.status).toBe(200);
    const parsed = llmExportSchema.safeParse(JSON.parse(res.body as string));
    expect(parsed.error?.issues ?? []).toEqual([]);
    const items = parsed.data!.items;
    expect(items).toHaveLength(OLDEST[type].length);
    expect(items.every((item) => item.source === type && item.asin !== null)).toBe(true);
    if (type === 'details') expect(items.map((i) => i.availability)).toEqual(['unknown', 'in_stock']);
    if (type === 'details') expect(items[0]).toMatchObject({ parentAsin: null, isbn13: null, badges: [], price: 19.99 });
    if (type === 'reviews') expect(items[0]).toMatchObject({ page: 1, reviewCount: null, reviewId: 'R1OLDREVIEW' });
  });
});

describe('change tracking over rows of the oldest shape', () => {
  it('compares two details jobs of old rows: the price change, and availability not observed is no change', async () => {
    const later = await completedJob('details', [
      { ...oldDetails('B0OLDDET01', 17.99), availability: { status: 'in_stock', text: 'In Stock.' } },
      { ...oldDetails('B0OLDDET02', 5), availability: { status: 'in_stock', text: 'In Stock.' } },
    ]);
    const res = await get(`/v1/key/projects/${tenant.projectId}/compare?from=${jobs.details}&to=${later}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      onlyInFrom: [],
      onlyInTo: [],
      changed: [{ asin: 'B0OLDDET01', changes: [{ field: 'price', from: 19.99, to: 17.99 }] }],
      summary: { inBoth: 2, changed: 1 },
    });
  });

  it('compares old search cards with current ones: positions per keyword move', async () => {
    const later = await completedJob('search', [
      searchItem('desk lamp', 1, { asin: 'B0OLDCRD02', title: 'Card B0OLDCRD02' }),
      searchItem('desk lamp', 2, { asin: 'B0OLDCRD01', title: 'Card B0OLDCRD01', price: money(8.99) }),
    ]);
    const res = await get(`/v1/key/projects/${tenant.projectId}/compare?from=${jobs.search}&to=${later}`);
    expect(res.status).toBe(200);
    expect(res.body.data.changed).toEqual([{ asin: 'B0OLDCRD01', changes: [{ field: 'price', from: 9.99, to: 8.99 }] }]);
    expect(res.body.data.moved).toEqual(
      expect.arrayContaining([
        { asin: 'B0OLDCRD01', keyword: 'desk lamp', from: 1, to: 2, delta: 1 },
        { asin: 'B0OLDCRD02', keyword: 'desk lamp', from: 2, to: 1, delta: -1 },
      ]),
    );
  });

  it('snapshots of read old rows observe what they have and nothing they lack', async () => {
    const items = (await get(`/v1/key/jobs/${jobs.details}/results`)).body.data;
    expect(productSnapshots('details', items).get('B0OLDDET01')).toMatchObject({ price: 19.99, availability: null, isPrime: false });
    const offers = (await get(`/v1/key/jobs/${jobs.offers}/results`)).body.data;
    expect(productSnapshots('offers', offers).get('B0OLDOFF01')).toMatchObject({ price: 21.5, seller: 'Acme Store', lowestNewPrice: 21.5 });
    const reviews = (await get(`/v1/key/jobs/${jobs.reviews}/results`)).body.data;
    // A summary the old rows never stored is not observed: no snapshot rather than one of nulls.
    expect(productSnapshots('reviews', reviews).size).toBe(0);
  });
});
