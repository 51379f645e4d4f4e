/**
 * The generated 2021+ All Offers Display listing: what the real offers parser reads from it
 * (a buy box, sellers with ids, both conditions, the announced offer count), determinism per
 * ASIN, and the control that serves it for ASINs without a saved listing.
 */
import { detectPageKind, parseOffersPage } from '@crawl/marketplace';
import { aodListing } from './aod-offer-data';
import { aodOffersPage, usd } from './aod-offers-page';
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
      expect(page).toMatchObject({ asin, title: aodListing(asin).title, hasNextPage: false });
      expect(page.offers.length).toBe(page.totalOffers);
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
        expect(o.deliveryText).toMatch(/^(FREE|\$\d+\.\d\d) delivery /);
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
      deliveryText: `${o.shippingCents ? usd(o.shippingCents) : 'FREE'} delivery ${o.deliveryDate}`,
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
    if (FIXTURES) expect(await legacy.text()).toContain('olpOffer');
    else expect(legacy.status).toBe(404);
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
