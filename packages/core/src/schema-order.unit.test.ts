import { productChangedDataSchema, webhookDeliveryBody } from './webhook-events';
import { inSchemaOrder } from './schema-order';

/** Postgres jsonb gives keys back shortest first; these objects are in that order. */
describe('inSchemaOrder / webhookDeliveryBody', () => {
  it('puts product.changed data (nested objects and union members) back in schema order, unknown keys last', () => {
    const fromJsonb = {
      asin: 'B0TEST0001',
      jobId: 'job_1',
      changes: [
        { to: 10, from: 12, field: 'price' },
        { to: { rank: 3, category: 'Lamps' }, from: { rank: 5, category: 'Lamps' }, field: 'bestSellersRank' },
      ],
      extra: 1,
      snapshot: {
        price: 10,
        title: 'Lamp',
        rating: null,
        seller: null,
        isPrime: null,
        currency: 'USD',
        listPrice: null,
        mainImage: null,
        availability: null,
        reviewsCount: null,
        lowestNewPrice: null,
        bestSellersRank: { rank: 3, category: 'Lamps' },
      },
      marketplace: 'US',
    };
    const ordered = inSchemaOrder(productChangedDataSchema, fromJsonb) as typeof fromJsonb;
    expect(Object.keys(ordered)).toEqual(['asin', 'marketplace', 'jobId', 'changes', 'snapshot', 'extra']);
    expect(ordered.changes.map((c) => Object.keys(c))).toEqual([
      ['field', 'from', 'to'],
      ['field', 'from', 'to'],
    ]);
    expect(Object.keys(ordered.changes[1]!.to as object)).toEqual(['category', 'rank']);
    expect(Object.keys(ordered.snapshot)).toEqual(Object.keys(productChangedDataSchema.shape.snapshot.shape));
    expect(ordered).toEqual(fromJsonb); // only the order changed
  });

  it('serializes the same data the same way whatever order it arrives in', () => {
    const a = {
      asin: 'B0TEST0001',
      marketplace: 'US',
      jobId: 'job_1',
      changes: [{ field: 'title', from: 'a', to: 'b' }],
      snapshot: { title: 'b' },
    };
    const b = {
      jobId: 'job_1',
      asin: 'B0TEST0001',
      snapshot: { title: 'b' },
      changes: [{ to: 'b', from: 'a', field: 'title' }],
      marketplace: 'US',
    };
    const body = (data: unknown) =>
      webhookDeliveryBody({ id: 'dlv_1', event: 'product.changed', createdAt: new Date(0), projectId: 'prj_1', data });
    expect(body(b)).toBe(body(a));
    expect(body(a)).toBe(
      JSON.stringify({ id: 'dlv_1', event: 'product.changed', createdAt: '1970-01-01T00:00:00.000Z', projectId: 'prj_1', data: a }),
    );
  });
});
