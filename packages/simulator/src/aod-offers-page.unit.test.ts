/**
 * The generated 2021+ All Offers Display listing: the markup of the real panel (the ids,
 * classes and nesting of the saved 2021 panel), what the real offers parser reads from it (a
 * buy box, sellers with ids, both conditions, the announced offer count, further pages),
 * determinism per ASIN, and the control that serves it for ASINs without a saved listing.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { detectPageKind, parseOffersPage } from '@crawl/marketplace';
import { AMAZON_US, AOD_OFFERS_PER_PAGE, aodListing } from './aod-offer-data';
import { aodOffersAjaxPage, aodOffersPage, usd } from './aod-offers-page';
import { defaultFixturesDir, startSimulator, type Simulator } from './index';

const US = { marketplace: 'US', origin: 'https://www.amazon.com' };
const FIXTURES = defaultFixturesDir();

describe('generated AOD offer listing', () => {
  // One listing whose buy box is a third-party seller's, one whose buy box is Amazon's.
  it.each(['B0AODTRK01', 'B0AODTRK02'])(
    '%s parses as an offers page of that ASIN with one buy box, both conditions and seller ids',
    (asin) => {
      const html = aodOffersPage(asin).toString('utf8');
      expect(detectPageKind(html)).toBe('offers');
      const page = parseOffersPage(html, US)!;
      expect(page).toMatchObject({ layout: 'aod', asin, title: aodListing(asin).title, hasNextPage: false });
      // the announced total is the other offers, the pinned one not counted
      expect(page.offers.length).toBe(page.totalOffers! + 1);
      expect(page.offers.length).toBeGreaterThanOrEqual(4);
      expect(page.offers.filter((o) => o.isBuyBox).map((o) => o.position)).toEqual([1]);
      expect(page.offers.map((o) => o.position)).toEqual(page.offers.map((_, i) => i + 1));
      expect(page.offers[0]!.condition).toBe('New');
      expect(page.offers.some((o, i) => i > 0 && o.condition === 'New')).toBe(true);
      expect(page.offers.some((o) => /^Used - (Like New|Very Good|Good|Acceptable)$/.test(o.condition ?? ''))).toBe(true);
      for (const o of page.offers) {
        expect(o.missingFields).toEqual([]);
        expect(o.seller!.id).toMatch(/^A[0-9A-Z]{12,13}$/);
        expect(o.price!.currency).toBe('USD');
        expect(o.shipping!.currency).toBe('USD');
        expect(typeof o.fulfilledByAmazon).toBe('boolean');
        expect(o.deliveryText).toMatch(/^Arrives: \S/);
      }
      expect(new Set(page.offers.map((o) => o.seller!.name)).size).toBe(page.offers.length);
    },
  );

  it('the parsed offers are the generated ones: pinned first, then the list cheapest first', () => {
    const listing = aodListing('B0AODTRK01');
    const page = parseOffersPage(aodOffersPage('B0AODTRK01').toString('utf8'), US)!;
    const expected = [listing.pinned, ...listing.listed].map((o, i) => ({
      position: i + 1,
      isBuyBox: i === 0,
      price: { amount: o.priceCents / 100, currency: 'USD' },
      shipping: { amount: o.shippingCents / 100, currency: 'USD' },
      condition: o.condition,
      seller: o.seller,
      fulfilledByAmazon: o.fulfilledByAmazon,
      shipsFrom: o.fulfilledByAmazon ? 'Amazon.com' : o.seller.name,
      deliveryText: `Arrives: ${o.deliveryDate}`,
    }));
    expect(page.offers).toEqual(expected.map((e) => expect.objectContaining(e)));
    const totals = listing.listed.map((o) => o.priceCents + o.shippingCents);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
  });

  it('is deterministic per ASIN and differs between ASINs', () => {
    expect(aodOffersPage('B0AODTRK01').equals(aodOffersPage('B0AODTRK01'))).toBe(true);
    expect(aodOffersPage('B0AODTRK01').equals(aodOffersPage('B0AODTRK02'))).toBe(false);
    expect(aodListing('B0AODTRK01').title).not.toBe(aodListing('B0AODTRK02').title);
  });

  it('across many ASINs: 3-8 listed offers, unique prices and sellers, Amazon and third parties in the buy box', () => {
    const buyBoxSellers = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const listing = aodListing(`B0GEN${String(i).padStart(5, '0')}`);
      const all = [listing.pinned, ...listing.listed];
      expect(listing.listed.length).toBeGreaterThanOrEqual(3);
      expect(listing.listed.length).toBeLessThanOrEqual(8);
      expect(new Set(all.map((o) => o.priceCents)).size).toBe(all.length);
      expect(new Set(all.map((o) => o.seller.name)).size).toBe(all.length);
      expect(listing.pinned.condition).toBe('New');
      buyBoxSellers.add(listing.pinned.seller.name === 'Amazon.com' ? 'amazon' : 'third-party');
    }
    expect(buyBoxSellers).toEqual(new Set(['amazon', 'third-party']));
    expect(usd(123456)).toBe('$1,234.56');
    expect(usd(1205)).toBe('$12.05');
  });
});

const FIXTURE_PANEL = FIXTURES ? path.join(FIXTURES, 'offers-US-B004OA758C-aod.html') : null;
const withPanel = FIXTURE_PANEL && existsSync(FIXTURE_PANEL) ? it : it.skip;

/**
 * The panel's skeleton: every element with an id, as tag|id|class (numbered ids such as
 * aod-price-3 as aod-price-N), cut into the head (sticky copy, pinned offer, filter bar, list
 * start), one part per #aod-offer block and the footer.
 */
function skeleton(html: string): string[][] {
  const from = html.lastIndexOf('<div', html.indexOf('id="all-offers-display-scroller"'));
  const parts: string[][] = [[]];
  for (const m of html.slice(Math.max(from, 0)).matchAll(/<([a-z0-9]+)\b([^>]*)>/g)) {
    const id = /\bid="([^"]*)"/.exec(m[2]!)?.[1];
    if (!id) continue;
    const cls = /\bclass="([^"]*)"/.exec(m[2]!)?.[1]?.replace(/\s+/g, ' ') ?? '';
    const tag = `${m[1]}|${id.replace(/-\d+$/, '-N')}|${cls}`;
    if (id === 'aod-offer' || id === 'aod-footer') parts.push([]);
    parts.at(-1)!.push(tag);
  }
  return parts;
}

describe('generated AOD offer listing: the real panel markup, and its pages', () => {
  withPanel('ids, classes and nesting order of the saved 2021 panel: head, every offer block, the footer', () => {
    const real = skeleton(readFileSync(FIXTURE_PANEL!, 'utf8'));
    // an Amazon.com buy box, as in the saved panel (a third-party one adds the seller rating)
    const asin = ['B0AODTRK02', 'B0AODTRK03', 'B0AODTRK04'].find((a) => aodListing(a).pinned.seller.id === AMAZON_US.id)!;
    const generated = skeleton(aodOffersPage(asin).toString('utf8'));
    expect(generated[0]).toEqual(real[0]);
    expect(generated.at(-1)).toEqual(real.at(-1));
    // every listed offer of the saved panel is a third-party offer with a seller rating
    for (const block of generated.slice(1, -1)) expect(block).toEqual(real[1]);
    expect(new Set(real.slice(1, -1).map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it('a listing of 3 pages: ten offers on the first page under "See more", the rest on the panel pages, numbered on', () => {
    const asin = 'B0AODPAGES';
    const listing = aodListing(asin, 3);
    expect(listing.listed.length).toBeGreaterThan(2 * AOD_OFFERS_PER_PAGE);
    expect(listing.listed.length).toBeLessThanOrEqual(3 * AOD_OFFERS_PER_PAGE);
    const first = parseOffersPage(aodOffersPage(asin, 3).toString('utf8'), US)!;
    expect(first).toMatchObject({ layout: 'aod', asin, totalOffers: listing.listed.length, hasNextPage: true });
    expect(first.offers).toHaveLength(1 + AOD_OFFERS_PER_PAGE);
    const later = [2, 3].map((n) => aodOffersAjaxPage(asin, n, 3).toString('utf8'));
    expect(later[0]).toContain('id="aod-price-11"');
    expect(later[0]).not.toContain('aod-pinned-offer');
    const [second, third] = later.map((html) => parseOffersPage(html, US)!);
    expect(second).toMatchObject({ layout: 'aod', asin, hasNextPage: true });
    expect(third).toMatchObject({ layout: 'aod', asin, hasNextPage: false });
    const all = [...first.offers, ...second!.offers, ...third!.offers];
    expect(all.map((o) => o.price!.amount)).toEqual([listing.pinned, ...listing.listed].map((o) => o.priceCents / 100));
    // a page past the last: no offers, "End of results"
    expect(parseOffersPage(aodOffersAjaxPage(asin, 4, 3).toString('utf8'), US)).toMatchObject({ offers: [], hasNextPage: false });
    // the one-page listing of an ASIN is not changed by the extra offers of a longer one
    expect(aodListing(asin, 1).pinned).toEqual(listing.pinned);
  });
});

describe('offers layout control', () => {
  let sim: Simulator;
  const layoutUrl = () => `${sim.url}/__sim/offers-layout`;
  const put = (body: string) => fetch(layoutUrl(), { method: 'PUT', body });
  const listing = async (asin: string) => (await fetch(`${sim.url}/gp/offer-listing/${asin}`)).text();

  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: FIXTURES });
  });
  afterEach(() => sim.setOffersLayout('legacy'));
  afterAll(() => sim.close());

  it('PUT/GET round trip; ASINs without a saved listing then get the AOD page, saved ones stay as saved', async () => {
    expect(await (await fetch(layoutUrl())).json()).toEqual({ layout: 'legacy' });
    const res = await put(JSON.stringify({ layout: 'aod' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ layout: 'aod' });
    expect(await (await fetch(layoutUrl())).json()).toEqual({ layout: 'aod' });
    expect(await (await fetch(`${sim.url}/__sim/health`)).json()).toMatchObject({ offersLayout: 'aod' });
    expect(await listing('B0AODTRK01')).toBe(aodOffersPage('B0AODTRK01').toString('utf8'));
    if (FIXTURES) expect(await listing('0133356728')).toContain('olpOffer');

    expect((await put(JSON.stringify({ layout: 'legacy' }))).status).toBe(200);
    const legacy = await fetch(`${sim.url}/gp/offer-listing/B0AODTRK01`);
    // without a saved legacy page to re-target (a plain clone), the generated panel in either layout
    if (FIXTURES) expect(await legacy.text()).toContain('olpOffer');
    else expect(await legacy.text()).toBe(aodOffersPage('B0AODTRK01').toString('utf8'));
  });

  it("the panel's further pages for any ASIN, as many as set for it (/__sim/pages), else one", async () => {
    const page = async (asin: string, n: number) =>
      fetch(`${sim.url}/gp/product/ajax/aodAjaxMain/?asin=${asin}&pc=dp&isonlyrenderofferlist=true&pageno=${n}`);
    sim.setOffersLayout('aod');
    sim.setPageCounts({ B0AODPAGES: 3 });
    try {
      expect(await listing('B0AODPAGES')).toBe(aodOffersPage('B0AODPAGES', 3).toString('utf8'));
      expect(await (await page('B0AODPAGES', 2)).text()).toBe(aodOffersAjaxPage('B0AODPAGES', 2, 3).toString('utf8'));
      // the other request forms Amazon's panel has used
      const ref = await fetch(
        `${sim.url}/gp/product/ajax/ref=aod_page_3?asin=B0AODPAGES&pc=dp&isonlyrenderofferlist=true&pageno=3&experienceId=aodAjaxMain`,
      );
      expect(await ref.text()).toBe(aodOffersAjaxPage('B0AODPAGES', 3, 3).toString('utf8'));
      expect(await listing('B0AODONE01')).toBe(aodOffersPage('B0AODONE01', 1).toString('utf8'));
      expect((await page('not-an-asin', 2)).status).toBe(404);
    } finally {
      sim.setPageCounts(null);
    }
  });

  it('refuses anything but {"layout": "aod" | "legacy"} with 400 and changes nothing; DELETE restores legacy', async () => {
    sim.setOffersLayout('aod');
    for (const body of [
      JSON.stringify({ layout: 'modern' }),
      JSON.stringify('aod'),
      JSON.stringify({}),
      JSON.stringify({ layout: 'aod', page: 2 }),
      JSON.stringify([]),
      '{not json',
    ]) {
      const res = await put(body);
      expect([body, res.status]).toEqual([body, 400]);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    }
    expect(await (await fetch(layoutUrl())).json()).toEqual({ layout: 'aod' });
    expect(() => sim.setOffersLayout('modern' as never)).toThrow(TypeError);

    expect((await fetch(layoutUrl(), { method: 'DELETE' })).status).toBe(204);
    expect(await (await fetch(layoutUrl())).json()).toEqual({ layout: 'legacy' });
  });
});
