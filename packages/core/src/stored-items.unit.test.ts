import { JOB_TYPES } from './domain';
import { JOB_KINDS } from './kinds';
import { readStoredFields, readStoredItem } from './stored-items';

/** The smallest row a job type could have stored: its identity, nothing observed. */
const IDENTITY = {
  details: { target: 'B0STORED01', asin: 'B0STORED01', parserVersion: 'v1' },
  search: { keyword: 'lamp', page: 2, position: 3, asin: 'B0STORED02', parserVersion: 'v1' },
  offers: { target: 'B0STORED03', asin: 'B0STORED03', position: 1, parserVersion: 'v1' },
  bestsellers: {
    target: 'https://www.amazon.com/gp/bestsellers/pc',
    rank: 1,
    asin: 'B0STORED04',
    url: 'https://x/dp/B0STORED04',
    parserVersion: 'v1',
  },
  reviews: { target: 'B0STORED05', asin: 'B0STORED05', page: 1, id: 'R1', verifiedPurchase: true, parserVersion: 'v1' },
} as const;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('readStoredItem', () => {
  it.each(JOB_TYPES)('reads a %s row that has only its identity as a valid item of the current schema', (type) => {
    const item = readStoredItem(type, IDENTITY[type]);
    expect(JOB_KINDS[type].itemSchema.safeParse(item).error?.issues ?? []).toEqual([]);
    expect(Object.keys(item)).toEqual(Object.keys(JOB_KINDS[type].itemSchema.shape));
    // A read item is complete: read again, it is returned as it is.
    expect(readStoredItem(type, item)).toBe(item);
  });

  it('gives every missing field its not-observed value, derived from the schema', () => {
    const item = readStoredItem('details', IDENTITY.details);
    expect(item).toMatchObject({
      title: null, // nullable
      price: null, // money or null
      images: [], // array
      specifications: {}, // record
      availability: { status: 'unknown', text: null }, // object whose every field has a not-observed value
      ratingHistogram: null,
      badges: [],
      isPrime: null,
      missingFields: [],
    });
    expect(readStoredItem('reviews', IDENTITY.reviews).product).toEqual({
      asin: null,
      title: null,
      rating: null,
      ratingsCount: null,
      histogram: null,
    });
  });

  it('returns a complete, valid row itself (no copy) and never changes a stored value', () => {
    const complete = deepFreeze(readStoredItem('details', { ...IDENTITY.details, images: ['a'], seller: { name: 'S', id: null } }));
    expect(readStoredItem('details', JSON.parse(JSON.stringify(complete)))).toEqual(complete);
    expect(readStoredItem('details', complete)).toBe(complete);
    const old = deepFreeze({ ...IDENTITY.details, title: 5, images: ['a', 7], extra: true });
    expect(() => readStoredItem('details', old)).not.toThrow();
  });

  it('reads wrong-typed values as not observed, without coercing them', () => {
    const item = readStoredItem('details', {
      ...IDENTITY.details,
      rating: '4.5',
      reviewsCount: 12.5, // not an integer
      price: { amount: '19.99', currency: 'USD' },
      listPrice: { amount: 30, currency: 'USD' },
      availability: { status: 'sold_out_forever', text: 'Gone' },
      seller: { name: 7, id: 'A1' },
      images: ['https://img/1.jpg', 5, null],
      specifications: { Colour: 'Red', Weight: 3 },
      badges: ['best_seller', 'a_future_badge'],
      bestSellersRank: [
        { category: 'Lamps', rank: '3' },
        { category: 'Home', rank: 9 },
      ],
      ratingHistogram: { '5': 70, '4': 20, '3': 5, '2': 3, '1': 102 },
      isPrime: 'yes',
      missingFields: 'title',
    });
    expect(item).toMatchObject({
      rating: null,
      reviewsCount: null,
      price: null,
      listPrice: { amount: 30, currency: 'USD' },
      availability: { status: 'unknown', text: 'Gone' },
      seller: null,
      images: ['https://img/1.jpg'],
      specifications: { Colour: 'Red' },
      badges: ['best_seller'],
      bestSellersRank: [{ category: 'Home', rank: 9 }],
      ratingHistogram: null, // 102 % is no histogram
      isPrime: null,
      missingFields: [],
    });
    expect(JOB_KINDS.details.itemSchema.safeParse(item).success).toBe(true);
  });

  it('drops keys the schema does not name, at every depth', () => {
    const item = readStoredItem('details', {
      ...IDENTITY.details,
      availabilityText: 'In stock', // an old parser's name
      availability: { status: 'in_stock', text: 'In stock', since: '2020' },
      price: { amount: 5, currency: 'USD', formatted: '$5' },
    });
    expect(item).not.toHaveProperty('availabilityText');
    expect(item.availability).toEqual({ status: 'in_stock', text: 'In stock' });
    expect(item.price).toEqual({ amount: 5, currency: 'USD' });
    expect(JOB_KINDS.details.itemSchema.safeParse(item).success).toBe(true);
  });

  it('derives the required fields older shapes lacked from the row: page 1, the ASIN of the target', () => {
    const { page: _, ...card } = IDENTITY.search;
    expect(readStoredItem('search', card).page).toBe(1);
    const { asin: __, ...offer } = IDENTITY.offers;
    expect(readStoredItem('offers', { ...offer, target: 'https://www.amazon.de/dp/B0OFFER999?th=1' }).asin).toBe('B0OFFER999');
    // A present but invalid value is not an absence: nothing is invented for it.
    expect(readStoredItem('search', { ...card, page: 0 }).page).toBeNull();
  });

  it.each([null, 'text', 42, [], [1, 2], { price: [] }, { availability: 'in_stock', images: { a: 1 } }])(
    'never throws on a row that is no item at all (%j)',
    (raw) => {
      for (const type of JOB_TYPES) {
        const item = readStoredItem(type, raw) as Record<string, unknown>;
        expect(Object.keys(item)).toEqual(Object.keys(JOB_KINDS[type].itemSchema.shape));
      }
    },
  );
});

describe('readStoredFields', () => {
  const FIELDS = ['asin', 'availability', 'price', 'keyword'];

  it('reads only the fields of the list that the type has, by the same rules', () => {
    const projection = { asin: 'B0STORED01', availability: null, price: { amount: '1', currency: 'USD' }, keyword: 'x' };
    expect(readStoredFields('details', projection, FIELDS)).toEqual({
      asin: 'B0STORED01',
      price: null,
      availability: { status: 'unknown', text: null },
    });
  });

  it('returns a projection of exactly those fields, all valid, as it is', () => {
    const projection = { asin: 'B0STORED01', price: null, availability: { status: 'in_stock', text: null } };
    expect(readStoredFields('details', projection, FIELDS)).toBe(projection);
  });
});
