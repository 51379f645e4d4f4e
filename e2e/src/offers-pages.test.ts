/**
 * Offer listings of several pages end to end (gateway, crawl worker, simulator): an offers job
 * crawls every page of a product's listing up to `config.pages` (default 10), asking for page n
 * the way page 1's layout pages (the AOD panel's own pages, or the legacy listing's startIndex),
 * ranks offers across pages, reserves 2 credits for each of the 10 pages and refunds the pages
 * the listing does not have, tracks the lowest new price over every page, and says when a
 * listing was cut short (the TRUNCATED note, on the job and in its job.completed event).
 */
import { offerResultItemSchema } from '@crawl/core';
import { EventRepository } from '@crawl/db';
import { aodListing } from '@crawl/simulator';
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
  stack.simulator.setOffersLayout('legacy');
});

type Tenant = Awaited<ReturnType<Stack['tenant']>>;

async function results(tenant: Tenant, id: string): Promise<Record<string, any>[]> {
  const res = await stack.http.get(`/v1/key/jobs/${id}/results?limit=100`).set(auth(tenant));
  expect(res.status).toBe(200);
  expect(res.body.pagination.total).toBeLessThanOrEqual(100);
  return res.body.data;
}

const requested = (...prefixes: string[]) =>
  stack.simulator
    .requests()
    .map((r) => r.path)
    .filter((p) => prefixes.some((prefix) => p.startsWith(prefix)));

const cents = (amount: number) => Math.round(amount * 100);
const dollars = (c: number) => `$${Math.floor(c / 100).toLocaleString('en-US')}.${String(c % 100).padStart(2, '0')}`;

it('an AOD listing of two pages: both pages, positions continuing, 2 pages charged and 8 refunded, the lowest new price from page 2', async () => {
  // A listing whose page 2 has a New offer: made the cheapest new offer of all by a rewrite of page 2 only.
  const asin = ['B0OFFPAGE1', 'B0OFFPAGE2', 'B0OFFPAGE3', 'B0OFFPAGE4'].find((a) =>
    aodListing(a, 2)
      .listed.slice(10)
      .some((o) => o.condition === 'New'),
  )!;
  const listing = aodListing(asin, 2);
  const cheap = listing.listed.slice(10).find((o) => o.condition === 'New')!;
  const tenant = await stack.tenant({ credits: 100 });
  stack.simulator.setOffersLayout('aod');
  stack.simulator.setPageCounts({ [asin]: 2 });
  stack.simulator.setFaults([{ match: 'pageno=2', fault: { kind: 'rewrite', replace: [[dollars(cheap.priceCents), '$1.23']] } }]);
  stack.simulator.resetLog();

  const id = await stack.createJob(tenant, { type: 'offers', targets: [asin] });
  const job = await stack.waitForJob(id);
  expect(job).toMatchObject({
    status: 'completed',
    pages: 10,
    progress: { succeeded: 1, failed: 0 },
    credits: { reserved: 20, consumed: 4, refunded: 16 },
    errors: [],
    notes: [],
  });
  // Page 2 from the panel's own pages (built from the ASIN and the page number), not a link on page 1.
  expect(requested('/gp/offer-listing/', '/gp/product/ajax/')).toEqual([
    `/gp/offer-listing/${asin}`,
    `/gp/product/ajax/aodAjaxMain/?asin=${asin}&pc=dp&isonlyrenderofferlist=true&pageno=2`,
  ]);

  const rows = await results(tenant, id);
  for (const row of rows) expect(offerResultItemSchema.safeParse(row).success).toBe(true);
  const offers = [listing.pinned, ...listing.listed];
  expect(rows).toHaveLength(offers.length);
  expect(rows.map((r) => r.position)).toEqual(offers.map((_, i) => i + 1));
  expect(rows.filter((r) => r.isBuyBox).map((r) => r.position)).toEqual([1]);
  // 1 pinned + 10 listed on page 1, the rest from page 2 (one price rewritten there)
  expect(rows.map((r) => cents(r.price.amount))).toEqual(offers.map((o) => (o === cheap ? 123 : o.priceCents)));
  expect(rows.find((r) => cents(r.price.amount) === 123)!.position).toBeGreaterThan(11);

  const timeline = await stack.http
    .get(`/v1/key/projects/${tenant.projectId}/tracked-targets/${asin}/timeline?marketplace=US`)
    .set(auth(tenant));
  expect(timeline.status).toBe(200);
  expect(timeline.body.data.map((e: any) => [e.source, e.snapshot.price, e.snapshot.lowestNewPrice])).toEqual([
    ['offers', listing.pinned.priceCents / 100, 1.23],
  ]);
  expect(await stack.gateway.credits.ledgerTotals(tenant.organizationId)).toEqual({ grant: 100, reserve: 20, refund: 16, consume: 4 });
});

withFixtures(
  'a legacy listing longer than config.pages: pages by startIndex, every page charged, a TRUNCATED note on the job and its event',
  async () => {
    const asin = 'B0OFFLEG03';
    const tenant = await stack.tenant({ credits: 100 });
    stack.simulator.setPageCounts({ [asin]: 3 });
    stack.simulator.resetLog();

    const id = await stack.createJob(tenant, { type: 'offers', targets: [asin], config: { pages: 2 } });
    const note = {
      target: asin,
      code: 'TRUNCATED',
      message: 'the listing has more offers than the 2 pages crawled (config.pages, at most 10)',
    };
    expect(await stack.waitForJob(id)).toMatchObject({
      status: 'completed',
      pages: 2,
      credits: { reserved: 4, consumed: 4, refunded: 0 },
      notes: [note],
    });
    expect(requested('/gp/offer-listing/')).toEqual([`/gp/offer-listing/${asin}`, `/gp/offer-listing/${asin}?startIndex=10`]);
    const rows = await results(tenant, id);
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(rows.every((r) => r.asin === asin && r.isBuyBox === null)).toBe(true);

    const events = await new EventRepository(stack.db).listForProject(tenant.projectId);
    const completed = events.find((e) => e.type === 'job.completed' && (e.data as any).id === id);
    expect((completed?.data as any)?.notes).toEqual([note]);
  },
);
