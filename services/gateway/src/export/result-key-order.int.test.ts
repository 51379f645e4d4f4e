import { newId } from '@crawl/core';
import type { Db } from '@crawl/db';
import { createTenant, detailsItem, searchItem, type TestTenant } from '@crawl/testing';
import { csvHeader } from '@crawl/exports';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/**
 * Result items once came back in Postgres jsonb key order (shorter keys first), not in
 * the documented order (docs/results.md), which is written out here on purpose.
 */
const DETAILS_ORDER = [
  'target',
  'asin',
  'url',
  'title',
  'brand',
  'price',
  'listPrice',
  'rating',
  'reviewsCount',
  'availability',
  'mainImage',
  'images',
  'features',
  'description',
  'categories',
  'bestSellersRank',
  'seller',
  'isPrime',
  'variants',
  'specifications',
  'parentAsin',
  'manufacturer',
  'modelNumber',
  'weight',
  'dimensions',
  'firstAvailable',
  'ratingHistogram',
  'badges',
  'coupon',
  'boughtPastMonth',
  'shipsFrom',
  'soldBy',
  'fulfilledByAmazon',
  'newOffersCount',
  'lowestNewPrice',
  'isbn13',
  'gtin',
  'deliveryLocation',
  'shipping',
  'deliveryPromise',
  'unitPrice',
  'subscribeAndSave',
  'couponValue',
  'stockQuantity',
  'missingFields',
  'parserVersion',
  'fetchedAt',
  'sourceUrl',
];
const SEARCH_ORDER = [
  'keyword',
  'page',
  'totalResults',
  'position',
  'organicPosition',
  'asin',
  'title',
  'url',
  'image',
  'price',
  'listPrice',
  'unitPrice',
  'rating',
  'reviewsCount',
  'isSponsored',
  'isPrime',
  'badges',
  'brand',
  'boughtPastMonth',
  'coupon',
  'deliveryText',
  'deliveryLocation',
  'missingFields',
  'parserVersion',
  'fetchedAt',
  'sourceUrl',
];

let h: Harness;
let tenant: TestTenant;
beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
});
afterAll(() => h.close());

async function completedJob(db: Db, type: 'details' | 'search', item: object): Promise<string> {
  const id = newId('job');
  await db
    .insertInto('job')
    .values({
      id,
      project_id: tenant.projectId,
      organization_id: tenant.organizationId,
      type,
      status: 'completed',
      marketplace: 'US',
      lang: null,
      targets: JSON.stringify(['t']),
      target_count: 1,
      succeeded: 1,
      results_count: 1,
      credits_reserved: 2,
      credits_consumed: 2,
      started_at: new Date(),
      finished_at: new Date(),
    })
    .execute();
  await db
    .insertInto('result_item')
    .values({ job_id: id, target_idx: 0, position: 1, data: JSON.stringify(item) })
    .execute();
  return id;
}

const get = (path: string) => h.http.get(path).set(bearer(tenant.apiKey));

it.each([
  [
    'details',
    () => detailsItem('B0ORDER001', { seller: { name: 'Acme', id: 'A1' }, listPrice: { amount: 30, currency: 'USD' } }),
    DETAILS_ORDER,
  ],
  ['search', () => searchItem('desk lamp', 1, { listPrice: { amount: 30, currency: 'USD' } }), SEARCH_ORDER],
] as const)('%s items: results and the json export list the fields in the documented order', async (type, make, order) => {
  const item = make();
  const jobId = await completedJob(h.deps.db, type, item);
  const results = await get(`/v1/key/jobs/${jobId}/results`);
  const exported = await get(`/v1/key/jobs/${jobId}/export?format=json`)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => done(null, JSON.parse(text)));
    });
  for (const served of [results.body.data[0], exported.body[0]]) {
    expect(Object.keys(served)).toEqual(order);
    expect(Object.keys(served.price)).toEqual(['amount', 'currency']);
    expect(Object.keys(served.listPrice)).toEqual(['amount', 'currency']);
    if (type === 'details') {
      expect(Object.keys(served.availability)).toEqual(['status', 'text']);
      expect(Object.keys(served.seller)).toEqual(['name', 'id']);
    }
    expect(served).toEqual(item); // same values, only the order differs from the stored row
  }
});

it('CSV columns follow the same order, with money and nested objects split', () => {
  expect(csvHeader('search')).toBe(
    'keyword,page,total_results,position,organic_position,asin,title,url,image,price_amount,price_currency,list_price_amount,list_price_currency,unit_price_amount,unit_price_currency,unit_price_unit,rating,reviews_count,is_sponsored,is_prime,badges,brand,bought_past_month,coupon,delivery_text,delivery_location_text,delivery_location_postal_code,missing_fields,parser_version,fetched_at,source_url\r\n',
  );
  expect(csvHeader('details')).toBe(
    'target,asin,url,title,brand,price_amount,price_currency,list_price_amount,list_price_currency,rating,reviews_count,availability_status,availability_text,main_image,images,features,description,categories,best_sellers_rank,seller_name,seller_id,is_prime,variants,specifications,parent_asin,manufacturer,model_number,weight,dimensions,first_available,rating_histogram_1,rating_histogram_2,rating_histogram_3,rating_histogram_4,rating_histogram_5,badges,coupon,bought_past_month,ships_from,sold_by,fulfilled_by_amazon,new_offers_count,lowest_new_price_amount,lowest_new_price_currency,isbn13,gtin,delivery_location_text,delivery_location_postal_code,shipping_amount,shipping_currency,delivery_promise_text,delivery_promise_earliest,delivery_promise_latest,unit_price_amount,unit_price_currency,unit_price_unit,subscribe_and_save_amount,subscribe_and_save_currency,coupon_value_type,coupon_value_value,stock_quantity,missing_fields,parser_version,fetched_at,source_url\r\n',
  );
});
