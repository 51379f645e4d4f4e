/**
 * The "Deliver to" flow (docs/crawling.md, "Delivery location"): the three requests set a
 * session's place, wrong tokens are refused, every page's deliver-to block (read by the
 * parser) names the place, two postal codes give two prices and delivery promises, and the
 * expire and refuse controls work.
 */
import { readdirSync } from 'node:fs';
import { deliveryLocationOf, parseDetailsPage, parseOffersPage, parseSearchPage, PageSource } from '@crawl/marketplace';
import type { MarketplaceCode } from '@crawl/core';
import { defaultFixturesDir } from './page-store';
import { startSimulator, type Simulator } from './index';

const SELECTIONS =
  '/portal-migration/hz/glow/get-rendered-address-selections?deviceType=desktop&pageType=Gateway&storeContext=NoStoreName&actionSource=desktop-modal';
const CHANGE = '/portal-migration/hz/glow/address-change?actionSource=glow';
const LANG: Record<string, string> = {
  US: 'en-US,en;q=0.9',
  DE: 'de-DE,de;q=0.9,en;q=0.8',
  UK: 'en-GB,en;q=0.9',
  ES: 'es-ES,es;q=0.9',
  BR: 'pt-BR,pt;q=0.9',
};

/** One shopper: a cookie jar on one marketplace. */
class Shopper {
  private cookies = new Map<string, string>();
  constructor(
    private readonly base: string,
    readonly marketplace: MarketplaceCode = 'US',
  ) {}

  async request(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.base}${path}`, {
      ...init,
      headers: { 'accept-language': LANG[this.marketplace]!, ...(cookie ? { cookie } : {}), ...init.headers },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return { status: res.status, text: await res.text(), cookies: res.headers.getSetCookie() };
  }

  /** The three requests; returns the address change's answer. */
  async deliverTo(zipCode: string): Promise<Record<string, unknown>> {
    const home = await this.request('/');
    const modal = /id="nav-global-location-data-modal-action"[^>]*data-a-modal="([^"]*)"/.exec(home.text)![1]!;
    const settings = JSON.parse(
      modal
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    ) as {
      ajaxHeaders: Record<string, string>;
      url: string;
    };
    const selections = await this.request(settings.url, { headers: settings.ajaxHeaders });
    expect(selections.status).toBe(200);
    const csrf = /CSRF_TOKEN : "([^"]+)"/.exec(selections.text)![1]!;
    const change = await this.request(CHANGE, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'anti-csrftoken-a2z': csrf },
      body: JSON.stringify({
        locationType: 'LOCATION_INPUT',
        zipCode,
        deviceType: 'web',
        storeContext: 'generic',
        pageType: 'Gateway',
        actionSource: 'glow',
      }),
    });
    expect(change.status).toBe(200);
    return JSON.parse(change.text) as Record<string, unknown>;
  }

  async placeOn(path: string) {
    return deliveryLocationOf(PageSource.of((await this.request(path)).text), this.marketplace);
  }
}

describe('the deliver-to flow on the built-in pages', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: null, knownValues: false });
  });
  afterAll(() => sim.close());
  afterEach(() => {
    sim.expireLocations();
    sim.setRefusedPostalCodes(null);
  });

  it('the home page hands out session cookies and the modal token; a new session shows the default place', async () => {
    const shopper = new Shopper(sim.url);
    const home = await shopper.request('/');
    expect(home.status).toBe(200);
    expect(home.cookies.map((c) => c.split('=')[0])).toEqual(['session-id', 'session-id-time', 'i18n-prefs']);
    expect(home.text).toMatch(/data-a-modal="[^"]*&quot;anti-csrftoken-a2z&quot;:&quot;[A-Za-z0-9+/=]{20,}&quot;/);
    expect(await shopper.placeOn('/dp/B0LOCATE01')).toEqual({ text: expect.stringMatching(/^\S+ 20147$/), postalCode: '20147' });
  });

  it('sets the place through the three requests; every page kind names it, the offers ajax page has no block', async () => {
    const shopper = new Shopper(sim.url);
    expect(await shopper.deliverTo('60601')).toMatchObject({ isValidAddress: 1, isAddressUpdated: 1 });
    for (const path of [
      '/',
      '/dp/B0LOCATE01',
      '/s?k=desk+lamp',
      '/gp/offer-listing/B0LOCATE01',
      '/product-reviews/B0LOCATE01',
      '/gp/bestsellers/electronics',
    ])
      expect({ path, place: await shopper.placeOn(path) }).toEqual({
        path,
        place: { text: expect.stringMatching(/^\S+ 60601$/), postalCode: '60601' },
      });
    expect(await shopper.placeOn('/gp/product/ajax/aodAjaxMain/?asin=B0LOCATE01&pageno=2')).toBeNull();
    expect(sim.locations().sessions).toEqual([expect.objectContaining({ marketplace: 'US', postalCode: '60601' })]);
  });

  it('speaks the marketplace language and its code formats (DE, UK outward code)', async () => {
    const de = new Shopper(sim.url, 'DE');
    expect(await de.deliverTo('10115')).toMatchObject({ isAddressUpdated: 1 });
    const page = (await de.request('/dp/B0LOCATE01')).text;
    expect(page).toMatch(/id="glow-ingress-line1">Liefern an \S+ 10115</);
    expect(page).toContain('>Standort aktualisieren<');
    const uk = new Shopper(sim.url, 'UK');
    expect(await uk.deliverTo('w12 7rj')).toMatchObject({ isAddressUpdated: 1 });
    expect(await uk.placeOn('/dp/B0LOCATE01')).toEqual({ text: expect.stringMatching(/ W12$/), postalCode: 'W12' });
  });

  it('answers isValidAddress 0 for a code the marketplace does not know, and keeps the place', async () => {
    const shopper = new Shopper(sim.url);
    expect(await shopper.deliverTo('ABCDE')).toMatchObject({ isValidAddress: 0, isAddressUpdated: 0 });
    expect((await shopper.placeOn('/dp/B0LOCATE01'))?.postalCode).toBe('20147');
  });

  it('refuses the selections and the address change without the right token or the session cookie', async () => {
    const shopper = new Shopper(sim.url);
    await shopper.request('/');
    expect((await shopper.request(SELECTIONS)).status).toBe(400);
    expect((await shopper.request(SELECTIONS, { headers: { 'anti-csrftoken-a2z': 'forged' } })).status).toBe(403);
    // another session's token
    const other = new Shopper(sim.url);
    const home = (await other.request('/')).text;
    const token = /anti-csrftoken-a2z&quot;:&quot;([^&]+)&quot;/.exec(home)![1]!;
    expect((await shopper.request(SELECTIONS, { headers: { 'anti-csrftoken-a2z': token } })).status).toBe(403);
    // no cookie at all
    const res = await fetch(`${sim.url}${SELECTIONS}`, { headers: { 'anti-csrftoken-a2z': token } });
    expect(res.status).toBe(403);
    // the home page's token is not the address change's
    const change = await other.request(CHANGE, {
      method: 'POST',
      headers: { 'anti-csrftoken-a2z': token },
      body: JSON.stringify({ locationType: 'LOCATION_INPUT', zipCode: '60601' }),
    });
    expect(change.status).toBe(403);
    expect(sim.locations().sessions).toEqual([]);
  });

  it('two postal codes: two prices and two delivery promises for the same ASIN, the same ones again for the same code', async () => {
    const ctx = { marketplace: 'US', origin: 'https://www.amazon.com' } as const;
    const at = async (code: string) => {
      const shopper = new Shopper(sim.url);
      await shopper.deliverTo(code);
      // over several ASINs: an ASIN may be out of stock at one of the places
      return Promise.all(
        ['B0LOCPRICE', 'B0LOCPRICF', 'B0LOCPRICG'].map(async (asin) => {
          const page = (await shopper.request(`/dp/${asin}`)).text;
          sim.setOffersLayout('aod');
          const offers = parseOffersPage((await shopper.request(`/gp/offer-listing/${asin}`)).text, ctx)!;
          return {
            price: parseDetailsPage(page, ctx)?.price ?? null,
            promise: /data-csa-c-delivery-price="([^"]*)" [^>]*data-csa-c-delivery-time="([^"]*)"/.exec(page)?.slice(1) ?? null,
            offers: offers.offers.map((o) => [o.price?.amount, o.shipping?.amount]),
          };
        }),
      );
    };
    const chicago = await at('60601');
    const seattle = await at('98101');
    expect(await at('60601')).toEqual(chicago);
    const both = chicago.map((c, i) => [c, seattle[i]!] as const).filter(([c, s]) => c.price && s.price);
    expect(both.length).toBeGreaterThan(0);
    for (const [c, s] of both) {
      expect(s.price).not.toEqual(c.price);
      expect(s.offers).not.toEqual(c.offers);
    }
    expect(seattle.map((s) => s.promise)).not.toEqual(chicago.map((c) => c.promise));
    sim.setOffersLayout('legacy');
  });

  it('expire: the sessions of a code show the default place again; others keep theirs', async () => {
    const chicago = new Shopper(sim.url);
    const seattle = new Shopper(sim.url);
    await chicago.deliverTo('60601');
    await seattle.deliverTo('98101');
    expect(sim.expireLocations('60601')).toBe(1);
    expect((await chicago.placeOn('/dp/B0LOCATE01'))?.postalCode).toBe('20147');
    expect((await seattle.placeOn('/dp/B0LOCATE01'))?.postalCode).toBe('98101');
    // over the control API
    const res = await fetch(`${sim.url}/__sim/locations/expire`, { method: 'POST', body: '{"postalCode":"98101"}' });
    expect(await res.json()).toEqual({ expired: 1 });
    expect((await seattle.placeOn('/s?k=lamp'))?.postalCode).toBe('20147');
  });

  it('refuse: not updated, or updated while pages keep showing the place before', async () => {
    const put = await fetch(`${sim.url}/__sim/locations/refused`, {
      method: 'PUT',
      body: JSON.stringify([{ postalCode: '60601' }, { postalCode: '98101', mode: 'other-place' }]),
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual([
      { postalCode: '60601', mode: 'not-updated' },
      { postalCode: '98101', mode: 'other-place' },
    ]);
    const one = new Shopper(sim.url);
    expect(await one.deliverTo('60601')).toMatchObject({ isValidAddress: 1, isAddressUpdated: 0 });
    expect((await one.placeOn('/dp/B0LOCATE01'))?.postalCode).toBe('20147');
    const two = new Shopper(sim.url);
    expect(await two.deliverTo('98101')).toMatchObject({ isValidAddress: 1, isAddressUpdated: 1 });
    expect((await two.placeOn('/dp/B0LOCATE01'))?.postalCode).toBe('20147');
    expect((await fetch(`${sim.url}/__sim/locations/refused`, { method: 'PUT', body: '[{"mode":"x"}]' })).status).toBe(400);
    expect(() => sim.setRefusedPostalCodes([{ postalCode: '1', mode: 'nope' as never }])).toThrow(TypeError);
  });
});

const fixturesDir = defaultFixturesDir();
// Saved real pages exist only next to a checkout that has them (docs/testing.md, "Real marketplace pages").
(fixturesDir ? describe : describe.skip)('the deliver-to block of saved pages', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir });
  });
  afterAll(() => sim.close());

  it('is rewritten to the session place; without one, pages are served as saved', async () => {
    const shopper = new Shopper(sim.url);
    const before = (await shopper.request('/dp/B0ANYASIN9')).text;
    await shopper.deliverTo('60601');
    const after = (await shopper.request('/dp/B0ANYASIN9')).text;
    expect(after).not.toEqual(before);
    expect(deliveryLocationOf(PageSource.of(after), 'US')).toEqual({ text: expect.stringMatching(/ 60601$/), postalCode: '60601' });
    expect(deliveryLocationOf(PageSource.of((await shopper.request('/s?k=portable+charger')).text), 'US')?.postalCode).toBe('60601');
  });

  /** Two postal codes of each marketplace with saved product pages. */
  const CODES = {
    US: ['60601', '98101'],
    DE: ['10115', '80331'],
    UK: ['W12 7RJ', 'M1 1AE'],
    ES: ['28001', '08001'],
    BR: ['01310-100', '20040-020'],
  } satisfies Record<string, [string, string]>;
  const at = async (marketplace: keyof typeof CODES, code: string, paths: string[]) => {
    const shopper = new Shopper(sim.url, marketplace as MarketplaceCode);
    expect(await shopper.deliverTo(code)).toMatchObject({ isAddressUpdated: 1 });
    return Promise.all(paths.map(async (path) => (await shopper.request(path)).text));
  };

  it("saved product pages and the template's: two postal codes give two prices, the same code the same bytes", async () => {
    const saved = readdirSync(fixturesDir!)
      .map((f) => /^details-(US|DE|UK|ES|BR)-([A-Z0-9]{10})\.html$/.exec(f))
      .filter((m) => m !== null)
      .map((m) => ({ marketplace: m[1] as keyof typeof CODES, asin: m[2]! }));
    // B0ANYASIN9..: no saved page, the details template re-targeted (what the bench crawls)
    const pages = [...saved, ...['B0ANYASIN1', 'B0ANYASIN2', 'B0ANYASIN3'].map((asin) => ({ marketplace: 'US' as const, asin }))];
    let priced = 0;
    for (const { marketplace, asin } of pages) {
      const ctx = { marketplace: marketplace as MarketplaceCode, origin: 'https://www.amazon.com' };
      const [one, two] = CODES[marketplace];
      const [first, again] = await at(marketplace, one, [`/dp/${asin}`, `/dp/${asin}`]);
      const [second] = await at(marketplace, two, [`/dp/${asin}`]);
      expect({ asin, same: again === first }).toEqual({ asin, same: true });
      const [a, b] = [parseDetailsPage(first!, ctx), parseDetailsPage(second!, ctx)];
      expect(a?.asin).toBe(asin);
      if (!a?.price) continue; // a saved page without a buy-box price (unavailable there)
      priced++;
      expect({ asin, differs: a.price.amount !== b?.price?.amount }).toEqual({ asin, differs: true });
    }
    expect(priced).toBeGreaterThanOrEqual(10);
  });

  it('a product page with the 2023+ delivery message gives each place its charge and dates; search cards move too', async () => {
    const ctx = { marketplace: 'US', origin: 'https://www.amazon.com' } as const;
    const asins = ['B0DR8G428S', 'B073WRF565', 'B0ANYASIN4', 'B0ANYASIN5'];
    const paths = [...asins.map((a) => `/dp/${a}`), '/s?k=portable+charger', '/s?k=desk+lamp'];
    const [one, two] = await Promise.all(CODES.US.map((code) => at('US', code, paths)));
    const promise = (html: string) => {
      const item = parseDetailsPage(html, ctx);
      return [item?.shipping?.amount, item?.deliveryPromise?.text];
    };
    expect(one!.slice(0, 4).map(promise)).not.toEqual(two!.slice(0, 4).map(promise));
    for (const page of one!.slice(0, 4)) expect(parseDetailsPage(page, ctx)?.deliveryPromise?.text).toMatch(/June/);
    for (const i of [4, 5]) {
      const prices = (html: string) => parseSearchPage(html, ctx).map((c) => c.price?.amount);
      expect(prices(one![i]!)).not.toEqual(prices(two![i]!));
    }
  });

  it('a page served at a place leaves the saved pages and the template pool as they were', async () => {
    const plain = new Shopper(sim.url);
    const before = await Promise.all(['/dp/B0DR8G428S', '/dp/B0ANYASIN6'].map(async (p) => (await plain.request(p)).text));
    await at('US', '60601', ['/dp/B0DR8G428S', '/dp/B0ANYASIN6', '/dp/B0ANYASIN6']);
    const after = await Promise.all(['/dp/B0DR8G428S', '/dp/B0ANYASIN6'].map(async (p) => (await plain.request(p)).text));
    expect(after).toEqual(before);
  });
});
