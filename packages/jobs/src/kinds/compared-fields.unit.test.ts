import { type JobType, readStoredFields } from '@crawl/core';
import { detailsItem, searchItem } from '@crawl/testing';
import { COMPARED_ITEM_FIELDS, JOBS_KINDS } from '.';
import { MONITORED_FIELDS, type MonitoredField, SEARCH_FIELDS, SNAPSHOT_ITEM_FIELDS, snapshotOf } from '../product-snapshot';
import type { Item } from './snapshot-values';

/** What the tracking repository hands compare: the stored item's `fields` only, read as it reads them. */
function projected(type: JobType, item: Item): Record<string, unknown> {
  const fields = COMPARED_ITEM_FIELDS[type];
  return readStoredFields(type, Object.fromEntries(fields.map((f) => [f, item[f]])), fields);
}

/** Items that observe every field their type can, so that a field left out of the projection shows. */
const ITEMS: Partial<Record<JobType, Item>> = {
  details: detailsItem('B0CMPFLD01', {
    listPrice: { amount: 24.99, currency: 'USD' },
    seller: { name: 'Acme', id: 'A1' },
    bestSellersRank: [{ category: 'Lamps', rank: 12 }],
    isPrime: true,
  }) as unknown as Item,
  search: searchItem('desk lamp', 7, {
    asin: 'B0CMPFLD02',
    image: 'https://m.media-amazon.com/images/I/71x._AC_UL320_.jpg',
    listPrice: { amount: 12.99, currency: 'USD' },
    isPrime: true,
  }) as unknown as Item,
  bestsellers: {
    target: 'https://www.amazon.com/gp/bestsellers/electronics',
    category: 'Best Sellers in Electronics',
    rank: 3,
    asin: 'B0CMPFLD03',
    title: 'Earbuds',
    url: 'https://www.amazon.com/dp/B0CMPFLD03',
    image: 'https://m.media-amazon.com/images/I/51e._AC_UL300_.jpg',
    price: { amount: 29.99, currency: 'USD' },
    rating: 4.4,
    reviewsCount: 5120,
    missingFields: [],
    parserVersion: 'test',
  },
};

/** What an item of each type can show: a product page everything but offers' lowest new price, a best-seller card no list price. */
const OBSERVABLE: Partial<Record<JobType, MonitoredField[]>> = {
  details: MONITORED_FIELDS.filter((f) => f !== 'lowestNewPrice'),
  search: SEARCH_FIELDS,
  bestsellers: SEARCH_FIELDS.filter((f) => f !== 'listPrice'),
};

const comparable = (Object.keys(JOBS_KINDS) as JobType[]).filter((type) => JOBS_KINDS[type].compare);

it('has a full item for every type compare applies to', () => {
  expect(comparable.filter((type) => !ITEMS[type] || !OBSERVABLE[type])).toEqual([]);
});

it.each(comparable)('%s: the projected fields give compare the same product, snapshot and position as the whole item', (type) => {
  const rule = JOBS_KINDS[type].compare!;
  const item = ITEMS[type]!;
  const data = projected(type, item);
  expect(data.asin).toBe(item.asin);
  expect(rule.snapshot(data)).toEqual(rule.snapshot(item));
  expect(rule.position(data)).toEqual(rule.position(item));
  // the item observes every field its view can, so a field the projection left out would show
  const snapshot = rule.snapshot(item);
  expect(MONITORED_FIELDS.filter((f) => snapshot[f] !== null)).toEqual(OBSERVABLE[type]);
});

it('a snapshot is made of SNAPSHOT_ITEM_FIELDS only, on a product page and on a card', () => {
  const item = ITEMS.details!;
  const only = (fields: readonly string[], from: Item) => Object.fromEntries(fields.map((f) => [f, from[f]]));
  expect(snapshotOf('product', only(SNAPSHOT_ITEM_FIELDS, item))).toEqual(snapshotOf('product', item));
  const card = ITEMS.search!;
  expect(snapshotOf('card', only(SNAPSHOT_ITEM_FIELDS, card))).toEqual(snapshotOf('card', card));
});
