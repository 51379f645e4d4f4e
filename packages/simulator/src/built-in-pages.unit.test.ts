/**
 * The built-in pages a plain clone is served (docs/testing.md, "Real marketplace pages"), read
 * by the real parsers: every page kind parses into rows with the fields a crawl stores, in the
 * marketplace's currency, number format and language; the same target always gives the same
 * page; drift epochs change what a recrawl sees; and the server picks the marketplace from the
 * request's language.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import {
  detectPageKind,
  parseBestsellersPage,
  parseDetailsPage,
  parseMoney,
  parseOffersPage,
  parseReviewsPage,
  parseSearchPage,
} from '@crawl/marketplace';
import { aodListing } from './aod-offer-data';
import { aodOffersAjaxPage, aodOffersPage } from './aod-offers-page';
import { BESTSELLERS_RENDERED, bestsellerAsins, bestsellersPage } from './bestsellers-page';
import { marketLocale } from './locale';
import { defaultFixturesDir } from './page-store';
import { productFacts } from './product-facts';
import { reviewsPage } from './reviews-page';
import { generatedDetailsPage, searchCardAsin, syntheticSearchCards, syntheticSearchPage } from './synthetic';
import { startSimulator, type Simulator } from './index';

const MARKETS = ['US', 'DE', 'FR', 'JP', 'UK'] as const;
const ctx = (code: string) => ({ marketplace: code, origin: marketLocale(code).origin });
const money = (code: string, minor: number) => ({ amount: minor / 10 ** marketLocale(code).digits, currency: marketLocale(code).currency });
const ASINS = Array.from({ length: 12 }, (_, i) => `B0PLAIN${String(i).padStart(3, '0')}`);

describe.each(MARKETS)('built-in pages on %s', (code) => {
  const locale = marketLocale(code);
  const variant = { locale, varied: true, epoch: 0 };

  it('product pages: title, brand, price, rating, count, stock and sellers of the product', () => {
    const stock = new Set<string>();
    for (const asin of ASINS) {
      const facts = productFacts(asin, locale);
      const html = generatedDetailsPage(asin, variant).toString('utf8');
      expect(detectPageKind(html)).toBe('details');
      const item = parseDetailsPage(html, ctx(code))!;
      expect(item).toMatchObject({ asin, title: facts.title, brand: facts.brand, rating: facts.rating, reviewsCount: facts.ratingsCount });
      stock.add(facts.stock.kind);
      if (facts.stock.kind === 'out') {
        expect(item.price).toBeNull();
        expect(item.availability.status).toBe('out_of_stock');
      } else {
        expect(item.price).toEqual(money(code, facts.priceMinor));
        expect(item.availability.status).toBe('in_stock');
        expect(item.seller).toEqual({ name: expect.any(String), id: expect.stringMatching(/^A[0-9A-Z]{12,13}$/) });
        expect(item.availability.text).toBe(facts.stock.kind === 'few' ? locale.texts.onlyLeft(facts.stock.left) : locale.texts.inStock);
      }
    }
    // some products are short of stock
    expect(stock.size).toBeGreaterThan(1);
  });

  it('search pages: ten cards with the keyword in the title, each with its product price, stars and count', () => {
    const cards = parseSearchPage(syntheticSearchPage('garden hose', 2, false, variant).toString('utf8'), ctx(code));
    const model = syntheticSearchCards('garden hose', 2, variant);
    expect(cards.map((c) => c.asin)).toEqual(model.map((c) => c.asin));
    cards.forEach((card, i) => {
      expect(card.asin).toBe(searchCardAsin('garden hose', 2, i));
      expect(card.title).toContain('garden hose');
      expect(card.price).toEqual(money(code, productFacts(card.asin, locale).priceMinor));
      expect(card.rating).toBe(productFacts(card.asin, locale).rating);
      expect(card.reviewsCount).toBe(productFacts(card.asin, locale).ratingsCount);
    });
  });

  it('offer listings (the AOD panel and its later pages): a buy box and several sellers, prices and shipping in the currency', () => {
    const asin = ASINS[3]!;
    const page = parseOffersPage(aodOffersPage(asin, 2, locale).toString('utf8'), ctx(code))!;
    const listing = aodListing(asin, 2, locale);
    expect(page).toMatchObject({ layout: 'aod', asin, hasNextPage: true });
    expect(page.offers[0]).toMatchObject({
      isBuyBox: true,
      condition: locale.texts.conditionNew,
      price: money(code, listing.pinned.priceCents),
    });
    expect(new Set(page.offers.map((o) => o.seller?.id)).size).toBeGreaterThanOrEqual(5);
    for (const o of page.offers) {
      expect(o.missingFields).toEqual([]);
      expect(o.price!.currency).toBe(locale.currency);
      expect(o.shipping!.currency).toBe(locale.currency);
      expect(o.deliveryText).toContain(locale.texts.arrives);
    }
    expect(page.offers.some((o) => (o.shipping?.amount ?? 0) > 0) && page.offers.some((o) => o.shipping?.amount === 0)).toBe(true);
    const more = parseOffersPage(aodOffersAjaxPage(asin, 2, 2, locale).toString('utf8'), ctx(code))!;
    expect(more.hasNextPage).toBe(false);
    expect(more.offers.map((o) => o.price)).toEqual(listing.listed.slice(10).map((o) => money(code, o.priceCents)));
  });

  it('review pages: the product summary and ten dated reviews per page, "Next page" until the last', () => {
    const asin = ASINS[5]!;
    const facts = productFacts(asin, locale);
    const first = parseReviewsPage(reviewsPage(facts, locale, 1, false).toString('utf8'), ctx(code))!;
    const last = parseReviewsPage(reviewsPage(facts, locale, 3, true).toString('utf8'), ctx(code))!;
    expect(first.product).toMatchObject({ asin, title: facts.title, rating: facts.rating, ratingsCount: facts.ratingsCount });
    expect(first.product.histogram).toEqual({
      fiveStar: facts.histogram[0],
      fourStar: facts.histogram[1],
      threeStar: facts.histogram[2],
      twoStar: facts.histogram[3],
      oneStar: facts.histogram[4],
    });
    expect([first.hasNextPage, last.hasNextPage]).toEqual([true, false]);
    expect(first.reviews).toHaveLength(10);
    for (const r of [...first.reviews, ...last.reviews]) {
      expect(r.missingFields).toEqual([]);
      expect(r.id).toMatch(/^R[0-9A-Z]{13}$/);
      expect(r.date).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(r.country).toBe(locale.country.replace(/^the /, ''));
      expect(r.rating).toBeGreaterThanOrEqual(1);
    }
    expect(first.reviews.some((r) => r.helpfulVotes! > 0) && first.reviews.some((r) => r.verifiedPurchase)).toBe(true);
    expect(new Set(first.reviews.map((r) => r.rating)).size).toBeGreaterThan(1);
    // newest first, and page 3 older than page 1
    expect(last.reviews[0]!.date! < first.reviews.at(-1)!.date!).toBe(true);
    expect(first.reviews.map((r) => r.id).filter((id) => last.reviews.some((l) => l.id === id))).toEqual([]);
  });

  it('best-seller lists: ranks 1-50 on page 1 (30 cards, 20 in the data), 51-100 on page 2, with prices and ratings', () => {
    const one = parseBestsellersPage(bestsellersPage('/zgbs/electronics', 'electronics', 1, locale).toString('utf8'), ctx(code))!;
    const two = parseBestsellersPage(bestsellersPage('/zgbs/electronics', 'electronics', 2, locale).toString('utf8'), ctx(code))!;
    expect(one.category).toBe(locale.texts.bestSellersIn('Electronics'));
    expect([one.hasNextPage, two.hasNextPage]).toEqual([true, false]);
    expect(one.items.map((i) => i.rank)).toEqual(Array.from({ length: BESTSELLERS_RENDERED }, (_, i) => i + 1));
    expect(one.lazyItems.map((i) => i.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 31));
    expect(two.items[0]!.rank).toBe(51);
    expect([...one.items, ...one.lazyItems].map((i) => i.asin).sort()).toEqual(bestsellerAsins('/zgbs/electronics', 1).sort());
    for (const item of one.items) {
      const facts = productFacts(item.asin, locale);
      expect(item).toMatchObject({ title: facts.title, rating: facts.rating, reviewsCount: facts.ratingsCount, missingFields: [] });
      expect(item.price).toEqual(money(code, facts.priceMinor));
      expect(item.image).toMatch(/^https:\/\//);
    }
  });
});

describe('marketplace formats', () => {
  it('prices in the locale format the parsers read', () => {
    const cases: [string, number, string][] = [
      ['US', 123456, '$1,234.56'],
      ['DE', 123456, '1.234,56\u00a0€'],
      ['FR', 123456, '1\u202f234,56\u00a0€'],
      ['UK', 1999, '£19.99'],
      ['JP', 1999, '￥1,999'],
    ];
    for (const [code, minor, text] of cases) {
      expect(marketLocale(code).price(minor).text).toBe(text);
      expect(parseMoney(text, code)).toEqual(money(code, minor));
    }
  });

  it('review dates in the marketplace language', () => {
    const de = reviewsPage(productFacts('B0DATEDE01', marketLocale('DE')), marketLocale('DE'), 1, false).toString('utf8');
    expect(de).toMatch(
      /Rezension aus Deutschland vom \d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) 20\d\d/,
    );
    const ja = reviewsPage(productFacts('B0DATEJP01', marketLocale('JP')), marketLocale('JP'), 1, false).toString('utf8');
    expect(ja).toMatch(/20\d\d年\d{1,2}月\d{1,2}日に日本でレビュー済み/);
  });

  it('the same target gives the same bytes; another target another page', () => {
    const de = marketLocale('DE');
    const page = () => reviewsPage(productFacts('B0SAME0001', de), de, 2, false);
    expect(page().equals(page())).toBe(true);
    expect(bestsellersPage('/zgbs/toys', 'toys', 1, de).equals(bestsellersPage('/zgbs/toys', 'toys', 1, de))).toBe(true);
    expect(bestsellersPage('/zgbs/toys', 'toys', 1, de).equals(bestsellersPage('/zgbs/books', 'books', 1, de))).toBe(false);
  });
});

describe('drift', () => {
  it('an epoch moves price, stock, rating or count; the same epoch is the same product', () => {
    const us = marketLocale('US');
    let moved = 0;
    for (const asin of ASINS) {
      const [a, b, again] = [productFacts(asin, us, 0), productFacts(asin, us, 1), productFacts(asin, us, 1)];
      expect(again).toEqual(b);
      expect(b.title).toBe(a.title);
      if (a.priceMinor !== b.priceMinor) moved++;
      expect(b.ratingsCount).toBeGreaterThan(a.ratingsCount);
    }
    expect(moved).toBeGreaterThanOrEqual(ASINS.length - 1);
  });
});

describe('the server without saved pages', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: null, knownValues: false });
  });
  afterAll(() => sim.close());
  const get = async (p: string, language = 'en-US') =>
    (await fetch(`${sim.url}${p}`, { headers: { 'accept-language': `${language},en;q=0.8` } })).text();

  it('answers every page kind, in the language the request asks for', async () => {
    const asin = 'B0SERVED01';
    const de = ctx('DE');
    expect(parseDetailsPage(await get(`/dp/${asin}`, 'de-DE'), de)!.price?.currency ?? 'EUR').toBe('EUR');
    expect(parseSearchPage(await get('/s?k=gartenschlauch', 'de-DE'), de)[0]!.price!.currency).toBe('EUR');
    for (const layout of ['legacy', 'aod'] as const) {
      sim.setOffersLayout(layout);
      const offers = parseOffersPage(await get(`/gp/offer-listing/${asin}`, 'de-DE'), de)!;
      expect(offers.offers[0]!.price!.currency).toBe('EUR');
    }
    const reviews = parseReviewsPage(await get(`/product-reviews/${asin}?pageNumber=2`, 'de-DE'), de)!;
    expect(reviews.reviews[0]!.country).toBe('Deutschland');
    const list = parseBestsellersPage(await get('/gp/bestsellers/electronics?pg=2', 'de-DE'), de)!;
    expect(list.items[0]!.rank).toBe(51);
    expect(list.items[0]!.price!.currency).toBe('EUR');
    // the review pages of an ASIN end where its page count says
    sim.setPageCounts({ [asin]: 3 });
    expect(parseReviewsPage(await get(`/product-reviews/${asin}?pageNumber=3`), ctx('US'))!.hasNextPage).toBe(false);
  });

  it('a drift epoch changes what a recrawl sees, until it is cleared', async () => {
    const asin = 'B0DRIFT001';
    const before = await get(`/dp/${asin}`);
    sim.setDrift({ [asin]: 1 });
    const after = await get(`/dp/${asin}`);
    expect(after).not.toBe(before);
    expect(await get(`/dp/${asin}`)).toBe(after);
    const res = await fetch(`${sim.url}/__sim/drift`);
    expect(await res.json()).toEqual({ [asin]: 1 });
    sim.setDrift(null);
    expect(await get(`/dp/${asin}`)).toBe(before);
    expect(() => sim.setDrift({ [asin]: -1 })).toThrow(TypeError);
  });
});

describe('defaultFixturesDir', () => {
  it('honours CRAWL_REAL_PAGES_DIR: a folder, or none', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'real-pages-'));
    try {
      expect(defaultFixturesDir({ CRAWL_REAL_PAGES_DIR: dir })).toBe(dir);
      expect(defaultFixturesDir({ CRAWL_REAL_PAGES_DIR: 'none' })).toBeNull();
      expect(defaultFixturesDir({ CRAWL_REAL_PAGES_DIR: path.join(dir, 'absent') })).toBeNull();
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
