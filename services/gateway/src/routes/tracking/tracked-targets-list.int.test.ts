import { createTenant, type TestTenant } from '@crawl/testing';
import { bearer, type Harness, startHarness } from '../../test-support/harness';

let h: Harness;
let tenant: TestTenant;
let other: TestTenant;

const products = [
  { asin: 'B0SORT0001', title: 'Desk lamp, brass', price: 30, change_count: 2, last_changed_at: new Date('2026-03-02T10:00:00Z') },
  { asin: 'B0SORT0002', title: 'Floor lamp', price: 12.5, change_count: 5, last_changed_at: null },
  { asin: 'B0SORT0003', title: 'Kettle 100% steel', price: null, change_count: 0, last_changed_at: new Date('2026-03-01T10:00:00Z') },
];

beforeAll(async () => {
  h = await startHarness();
  [tenant, other] = await Promise.all([createTenant(h.deps.db), createTenant(h.deps.db)]);
  await h.deps.db
    .insertInto('tracked_target')
    .values([
      ...products.map((p, i) => ({
        project_id: tenant.projectId,
        marketplace: 'US',
        asin: p.asin,
        latest_snapshot: JSON.stringify({ title: p.title, price: p.price }),
        change_count: p.change_count,
        last_changed_at: p.last_changed_at,
        last_seen_at: new Date(Date.UTC(2026, 2, 1 + i)),
      })),
      // another tenant's lamp: never in this tenant's answers
      { project_id: other.projectId, marketplace: 'US', asin: 'B0SORT0009', latest_snapshot: JSON.stringify({ title: 'Other lamp' }) },
    ])
    .execute();
});
afterAll(() => h.close());

const list = (query: string, t: TestTenant = tenant) =>
  h.http.get(`/v1/key/projects/${t.projectId}/tracked-targets?${query}`).set(bearer(t.apiKey));
const asins = (res: { body: { data: { asin: string }[] } }) => res.body.data.map((t) => t.asin.slice(-1));

it('sorts by each whitelisted field, both directions, nulls last', async () => {
  expect(asins(await list(''))).toEqual(['3', '2', '1']); // default: last seen, newest first
  expect(asins(await list('sort=price:asc'))).toEqual(['2', '1', '3']);
  expect(asins(await list('sort=price:desc'))).toEqual(['1', '2', '3']);
  expect(asins(await list('sort=changeCount:desc'))).toEqual(['2', '1', '3']);
  expect(asins(await list('sort=lastChangedAt:asc'))).toEqual(['3', '1', '2']);
  expect(asins(await list('sort=lastChangedAt:desc'))).toEqual(['1', '3', '2']);
  expect(asins(await list('sort=title:asc'))).toEqual(['1', '2', '3']);
  expect(asins(await list('sort=asin'))).toEqual(['1', '2', '3']);
});

it('searches ASIN prefixes and titles, case-insensitive, with % and _ taken literally', async () => {
  expect(asins(await list('q=LAMP&sort=asin:asc'))).toEqual(['1', '2']);
  expect(asins(await list('q=b0sort0002'))).toEqual(['2']);
  expect(asins(await list(`q=${encodeURIComponent('100%')}`))).toEqual(['3']);
  expect(asins(await list(`q=${encodeURIComponent('%')}`))).toEqual(['3']);
  expect(asins(await list('q=_'))).toEqual([]);
  expect(asins(await list('q=SORT0001'))).toEqual([]); // an ASIN matches by prefix only
});

it('pages a sorted, searched list with the total of the search', async () => {
  const first = await list('q=lamp&sort=price:desc&limit=1');
  expect(asins(first)).toEqual(['1']);
  expect(first.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
  const second = await list('q=lamp&sort=price:desc&limit=1&offset=1');
  expect(asins(second)).toEqual(['2']);
  expect(second.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, hasMore: false });
  expect((await list('offset=10')).body).toEqual({ data: [], pagination: { total: 3, limit: 20, offset: 10, hasMore: false } });
});

it("answers only the key's own project", async () => {
  expect(asins(await list('q=lamp', other))).toEqual(['9']);
  const foreign = await h.http.get(`/v1/key/projects/${other.projectId}/tracked-targets?q=lamp`).set(bearer(tenant.apiKey));
  expect(foreign.status).toBe(403);
});

it.each([
  'sort=price:up',
  'sort=snapshot:asc',
  'sort=',
  'sort=price:asc:desc',
  'sort=project_id:desc',
  'sort=price&sort=asin',
  'q=',
  `q=${'x'.repeat(101)}`,
])('%s is a 400 naming the parameter', async (query) => {
  const res = await list(query);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  expect(res.body.error.details[0].path).toBe(`query.${query.split('=')[0]}`);
});
