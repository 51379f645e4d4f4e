import { productSnapshots } from './kinds';
import { diffSnapshot, type ProductSnapshot, snapshotOf } from './product-snapshot';

const details = (over: Record<string, unknown> = {}) => ({
  asin: 'B0TEST0001',
  price: { amount: 19.9, currency: 'USD' },
  listPrice: { amount: 24.99, currency: 'USD' },
  availability: { status: 'in_stock', text: 'In Stock' },
  rating: 4.5,
  reviewsCount: 1234,
  title: 'Acme  Lamp',
  seller: { name: 'Acme', id: 'A1' },
  bestSellersRank: [
    { category: 'Lamps', rank: 12 },
    { category: 'Home', rank: 900 },
  ],
  isPrime: true,
  mainImage: 'https://m.media-amazon.com/images/I/61abc._AC_SL1500_.jpg',
  ...over,
});

it('the first snapshot is a baseline, not a change', () => {
  expect(diffSnapshot(null, snapshotOf('product', details())).changes).toEqual([]);
});

it('reports exactly the fields that changed', () => {
  const before = snapshotOf('product', details());
  const after = snapshotOf(
    'product',
    details({
      price: { amount: 17.49, currency: 'USD' },
      availability: { status: 'out_of_stock', text: 'Currently unavailable' },
      rating: 4.2,
    }),
  );
  expect(diffSnapshot(before, after).changes).toEqual([
    { field: 'price', from: 19.9, to: 17.49 },
    { field: 'availability', from: 'in_stock', to: 'out_of_stock' },
    { field: 'rating', from: 4.5, to: 4.2 },
  ]);
});

it('ignores representation noise: cents, rating rounding, whitespace, image size modifiers', () => {
  const before = snapshotOf('product', details());
  const after = snapshotOf(
    'product',
    details({
      price: { amount: 19.900000001, currency: 'USD' },
      title: ' Acme Lamp ',
      rating: 4.5,
      mainImage: 'https://m.media-amazon.com/images/I/61abc._AC_SX679_.jpg',
    }),
  );
  expect(diffSnapshot(before, after).changes).toEqual([]);
});

it('treats fields the page did not show as unobserved: no change, last value kept', () => {
  const before = snapshotOf('product', details());
  const { changes, merged } = diffSnapshot(
    before,
    snapshotOf('product', details({ price: null, availability: { status: 'unknown', text: null } })),
  );
  expect(changes).toEqual([]);
  expect(merged.price).toBe(19.9);
  expect(merged.availability).toBe('in_stock');
});

it('compares search cards only on the fields a card shows', () => {
  const before = snapshotOf('product', details());
  const card = snapshotOf('card', {
    asin: 'B0TEST0001',
    price: { amount: 19.9, currency: 'USD' },
    rating: 4.5,
    reviewsCount: 1300,
    title: 'Acme Lamp',
    image: 'https://m.media-amazon.com/images/I/61abc._AC_UL320_.jpg',
    isPrime: false,
  });
  const { changes, merged } = diffSnapshot(before, card);
  expect(changes).toEqual([{ field: 'reviewsCount', from: 1234, to: 1300 }]);
  expect((merged as ProductSnapshot).isPrime).toBe(true); // a card does not tell Prime
});

it('detects a best-sellers rank move and a currency change', () => {
  const before = snapshotOf('product', details());
  const after = snapshotOf(
    'product',
    details({ bestSellersRank: [{ category: 'Lamps', rank: 7 }], price: { amount: 19.9, currency: 'EUR' } }),
  );
  expect(diffSnapshot(before, after).changes.map((c) => c.field)).toEqual(['currency', 'bestSellersRank']);
});

/** A Prime flag the page did not show (null) is not observed, in either direction. */
it('isPrime null between observations is neither a change nor an erasure; a real flip is one change', () => {
  const crawls = [true, null, true, null, null, false].map((isPrime) => snapshotOf('product', details({ isPrime })));
  let known: ProductSnapshot | null = null;
  const changes = [];
  for (const snapshot of crawls) {
    const diff = diffSnapshot(known, snapshot);
    changes.push(...diff.changes);
    known = diff.merged;
  }
  expect(changes).toEqual([{ field: 'isPrime', from: true, to: false }]);
  expect(
    diffSnapshot(snapshotOf('product', details({ isPrime: null })), snapshotOf('product', details({ isPrime: false }))).changes,
  ).toEqual([]); // first observation
});

const offer = (over: Record<string, unknown>) => ({
  target: 'B0TEST0001',
  asin: 'B0TEST0001',
  condition: 'New',
  price: { amount: 30, currency: 'USD' },
  seller: { name: 'Shop', id: null },
  isBuyBox: null,
  ...over,
});

/** An offer listing observes its buy box (winner and price) and its lowest new price; nothing else. */
it('offers: the buy-box winner and its price, and the lowest price of a new offer, per product', () => {
  const snapshots = productSnapshots('offers', [
    offer({ condition: 'Used - Like New', price: { amount: 9, currency: 'USD' } }),
    offer({ isBuyBox: true, price: { amount: 25, currency: 'USD' }, seller: { name: ' Acme  Store ', id: 'A1' } }),
    offer({ price: { amount: 27.5, currency: 'USD' } }),
    offer({ condition: null, price: { amount: 1, currency: 'USD' } }),
    offer({ asin: 'B0TEST0002', price: { amount: 5, currency: 'USD' } }),
    offer({ asin: 'B0TEST0003', condition: 'Rental', price: { amount: 5, currency: 'USD' } }),
  ]);
  const none = snapshotOf('card', {});
  // a used offer and an offer of unknown condition are not new
  expect(snapshots.get('B0TEST0001')).toEqual({ ...none, price: 25, currency: 'USD', seller: 'Acme Store', lowestNewPrice: 25 });
  // Legacy layouts mark no buy box: only the lowest new price is observed.
  expect(snapshots.get('B0TEST0002')).toEqual({ ...none, currency: 'USD', lowestNewPrice: 5 });
  // nothing observed, nothing erased, no snapshot
  expect(snapshots.has('B0TEST0003')).toBe(false);

  const before = snapshotOf('product', details());
  const { changes, merged } = diffSnapshot(before, snapshots.get('B0TEST0001')!);
  expect(changes).toEqual([
    { field: 'price', from: 19.9, to: 25 },
    { field: 'seller', from: 'Acme', to: 'Acme Store' },
  ]);
  expect(merged).toMatchObject({ rating: 4.5, availability: 'in_stock', lowestNewPrice: 25 });
  const cheaper = productSnapshots('offers', [
    offer({ isBuyBox: true, price: { amount: 25, currency: 'USD' }, seller: { name: 'Acme Store', id: 'A1' } }),
    offer({ price: { amount: 22.99, currency: 'USD' } }),
  ]);
  expect(diffSnapshot(merged, cheaper.get('B0TEST0001')!).changes).toEqual([{ field: 'lowestNewPrice', from: 25, to: 22.99 }]);
});

it('offers: new in every marketplace language, in the currency of the listing', () => {
  const lowest = (...offers: Record<string, unknown>[]) =>
    productSnapshots('offers', offers.map(offer)).get('B0TEST0001')?.lowestNewPrice ?? null;
  for (const condition of ['New', 'Neu', 'Neuf', 'Nuevo', 'Nuovo', 'Novo', 'Nieuw', 'Nowy', 'Yeni', '新品', 'جديد', ' new '])
    expect([condition, lowest({ condition })]).toEqual([condition, 30]);
  for (const condition of [
    'Used - Like New',
    'Gebraucht - Wie neu',
    "D'occasion - Comme neuf",
    'Usato - Come nuovo',
    '中古品 - ほぼ新品',
    'Collectible - New',
    'Renewed',
    'Rental',
  ])
    expect([condition, lowest({ condition })]).toEqual([condition, null]);
  // a price in another currency than the listing's buy box is not compared with it
  expect(lowest({ isBuyBox: true, price: { amount: 40, currency: 'EUR' } }, { price: { amount: 30, currency: 'USD' } })).toBe(40);
});

it('a snapshot stored before a field existed reads as not observing it', () => {
  const { lowestNewPrice: _dropped, ...old } = snapshotOf('product', details());
  const { changes, merged } = diffSnapshot(
    old as ProductSnapshot,
    snapshotOf('product', details({ price: { amount: 21, currency: 'USD' } })),
  );
  expect(changes).toEqual([{ field: 'price', from: 19.9, to: 21 }]);
  expect(merged.lowestNewPrice).toBeNull();
});

it('reviews: the rating summary of the first item of each product', () => {
  const review = (ratingsCount: number) => ({
    asin: 'B0TEST0001',
    id: `R${ratingsCount}`,
    product: { asin: 'B0TEST0001', title: 'Acme Lamp', rating: 4.5, ratingsCount, histogram: null },
  });
  const first = productSnapshots('reviews', [review(1234), review(9999)]).get('B0TEST0001')!;
  expect(first).toMatchObject({ rating: 4.5, reviewsCount: 1234, title: 'Acme Lamp', price: null, seller: null });
  const { changes, merged } = diffSnapshot(
    snapshotOf('product', details()),
    productSnapshots('reviews', [review(1300)]).get('B0TEST0001')!,
  );
  expect(changes).toEqual([{ field: 'reviewsCount', from: 1234, to: 1300 }]);
  expect(merged).toMatchObject({ price: 19.9, reviewsCount: 1300 });
});
