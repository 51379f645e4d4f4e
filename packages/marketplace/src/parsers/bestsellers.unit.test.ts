/**
 * Expected values were read from the fixture HTML: #gridItemRoot cards (.zg-bdg-text badges,
 * data-asin or the faceout's element id, line-clamp title divs, star .a-icon-alt texts, count
 * spans / aria-labels, .p13n-sc-price spans) and the data-client-recs-list attribute.
 */
import { parsedBestsellersPageSchema } from '@crawl/core';
import { parseBestsellersPage } from './bestsellers';
import { PARSER_VERSION, type BestsellersPage } from './types';
import { describeOnRealPages, readRealPage } from '../test-support/real-pages';

const d = describeOnRealPages;

const US = { marketplace: 'US', origin: 'https://www.amazon.com' };
const IN = { marketplace: 'IN', origin: 'https://www.amazon.in' };

const cache = new Map<string, BestsellersPage>();
function parse(file: string): BestsellersPage {
  if (!cache.has(file)) {
    const page = parseBestsellersPage(readRealPage(file), file.includes('-IN-') ? IN : US);
    if (!page) throw new Error(`${file} did not parse as a best-seller page`);
    cache.set(file, page);
  }
  return cache.get(file) as BestsellersPage;
}

d('parseBestsellersPage: amazon.com Electronics, 2026 grid with XOF prices', () => {
  const file = 'bestsellers-US-electronics.html';

  it('30 rendered cards ranked 1-30, the other 20 of the list as lazy items, a next page', () => {
    const page = parse(file);
    expect(page.category).toBe('Best Sellers in Electronics');
    expect(page.hasNextPage).toBe(true);
    expect(page.items).toHaveLength(30);
    expect(page.items.map((i) => i.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(page.items.every((i) => i.missingFields.length === 0 && i.price?.currency === 'XOF')).toBe(true);
    expect(page.lazyItems).toHaveLength(20);
    expect(page.lazyItems[0]).toEqual({ rank: 31, asin: 'B00SFSU53G' });
    expect(page.lazyItems[19]).toEqual({ rank: 50, asin: 'B0BQPNMXQV' });
    expect(() => parsedBestsellersPageSchema.parse(page)).not.toThrow();
  });

  it('first and last cards in full', () => {
    const items = parse(file).items;
    expect(items[0]).toEqual({
      rank: 1,
      asin: 'B08JHCVHTY',
      title: 'blink plus plan with monthly auto-renewal',
      url: 'https://www.amazon.com/dp/B08JHCVHTY',
      image: 'https://images-na.ssl-images-amazon.com/images/I/31YHGbJsldL._AC_UL300_SR300,200_.png',
      price: { amount: 6765, currency: 'XOF' },
      rating: 4.4,
      reviewsCount: 272461,
      missingFields: [],
      parserVersion: PARSER_VERSION,
    });
    expect(items[29]).toEqual({
      rank: 30,
      asin: 'B0CXGXT6W8',
      title:
        'JLab Go Air Pop+ True Wireless Earbuds, in Ear Headphones, Bluetooth Earphones, 35H Playtime Ear Buds, Bluetooth Earbuds with Microphone, USB-C Charging Case, Dual Connect, EQ3 Sound, Black',
      url: 'https://www.amazon.com/dp/B0CXGXT6W8',
      image: 'https://images-na.ssl-images-amazon.com/images/I/714e6+cl0kL._AC_UL300_SR300,200_.jpg',
      price: { amount: 14101, currency: 'XOF' },
      rating: 4.4,
      reviewsCount: 5117,
      missingFields: [],
      parserVersion: PARSER_VERSION,
    });
  });

  it('"13 offers from XOF 9,107": the price is the offer price, not the offer count', () => {
    const item = parse(file).items[1]!;
    expect(item.asin).toBe('B0DCH8VDXF');
    expect(item.price).toEqual({ amount: 9107, currency: 'XOF' });
    expect(item.reviewsCount).toBe(27187);
  });
});

d('parseBestsellersPage: amazon.in Books, late-2023 grid (ASIN only in the element id)', () => {
  const file = 'bestsellers-IN-books.html';

  it('50 cards ranked 1-50 with ASINs from element ids, no lazy items', () => {
    const page = parse(file);
    expect(page.category).toBe('Bestsellers in Books');
    expect(page.hasNextPage).toBe(true);
    expect(page.items).toHaveLength(50);
    expect(page.items.map((i) => i.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(page.items.slice(0, 4).map((i) => i.asin)).toEqual(['8119352947', '935543135X', '9390166268', '1847941834']);
    expect(page.items.every((i) => i.missingFields.length === 0 && i.price?.currency === 'INR')).toBe(true);
    expect(page.lazyItems).toEqual([]);
  });

  it('first and last cards in full ("1 offer from ₹421.00", count next to the stars)', () => {
    const items = parse(file).items;
    expect(items[0]).toEqual({
      rank: 1,
      asin: '8119352947',
      title:
        'PW Physics Med Easy Notes | Notes, Formulas, Mnemonics, Tips & Tricks for NEET/JEE & Board Exams | MR Sir Physics Handwritten Notes',
      url: 'https://www.amazon.in/dp/8119352947',
      image: 'https://images-eu.ssl-images-amazon.com/images/I/61bA3RkJuuL._AC_UL300_SR300,200_.jpg',
      price: { amount: 421, currency: 'INR' },
      rating: 5,
      reviewsCount: 620,
      missingFields: [],
      parserVersion: PARSER_VERSION,
    });
    expect(items[49]).toEqual({
      rank: 50,
      asin: '9391050840',
      title: 'Oxford Student Atlas for India, Fourth Edition - Useful for Competitive Exams',
      url: 'https://www.amazon.in/dp/9391050840',
      image: 'https://images-eu.ssl-images-amazon.com/images/I/71owQ+uazdL._AC_UL300_SR300,200_.jpg',
      price: { amount: 250, currency: 'INR' },
      rating: 4.5,
      reviewsCount: 3812,
      missingFields: [],
      parserVersion: PARSER_VERSION,
    });
  });

  it('card titles are the product title, not the author line below it', () => {
    const items = parse(file).items;
    expect(items[3]).toMatchObject({
      asin: '1847941834',
      title: 'Atomic Habits',
      price: { amount: 474, currency: 'INR' },
      rating: 4.6,
      reviewsCount: 84651,
    });
  });
});

/**
 * A list's page 2 (`?pg=2`, ranks 51-100) as Amazon renders it from the same markup: the `#N`
 * badges and the rank data (`render.zg.rank`) count on from 51, and the "Next page" item is
 * disabled (the list's last page).
 */
function asPageTwo(html: string): string {
  return html
    .replace(
      /(<span class="zg-bdg-text">#)(\d+)(<\/span>)/g,
      (_, open: string, n: string, close: string) => `${open}${Number(n) + 50}${close}`,
    )
    .replace(
      /(&quot;render\.zg\.rank&quot;:&quot;)(\d+)(&quot;)/g,
      (_, open: string, n: string, close: string) => `${open}${Number(n) + 50}${close}`,
    )
    .replace(/<li class="a-last"><a\b[^>]*>([\s\S]*?)<\/a><\/li>/, '<li class="a-disabled a-last">$1</li>');
}

d('parseBestsellersPage: page 2 of a list (ranks 51-100)', () => {
  const read = (file: string) => readRealPage(file);

  it('amazon.com: the 30 rendered cards are ranks 51-80, the lazy items 81-100, no next page', () => {
    const first = parse('bestsellers-US-electronics.html');
    const html = asPageTwo(read('bestsellers-US-electronics.html'));
    expect(html).not.toBe(read('bestsellers-US-electronics.html'));
    const page = parseBestsellersPage(html, US)!;
    expect(page.hasNextPage).toBe(false);
    expect(page.items.map((i) => i.rank)).toEqual(Array.from({ length: 30 }, (_, i) => 51 + i));
    expect(page.lazyItems.map((i) => i.rank)).toEqual(Array.from({ length: 20 }, (_, i) => 81 + i));
    // the same products in the same order: only the ranks moved
    expect(page.items.map((i) => i.asin)).toEqual(first.items.map((i) => i.asin));
    expect(page.lazyItems[0]).toEqual({ rank: 81, asin: 'B00SFSU53G' });
    expect(page.items[0]).toEqual({ ...first.items[0], rank: 51 });
  });

  it('amazon.in: 50 rendered cards ranked 51-100', () => {
    const page = parseBestsellersPage(asPageTwo(read('bestsellers-IN-books.html')), IN)!;
    expect(page.hasNextPage).toBe(false);
    expect(page.items.map((i) => i.rank)).toEqual(Array.from({ length: 50 }, (_, i) => 51 + i));
    expect(page.lazyItems).toEqual([]);
  });

  it('a card without a badge takes its rank from the data, not from its place on the page', () => {
    const html = asPageTwo(read('bestsellers-US-electronics.html')).replace(/<span class="zg-bdg-text">#\d+<\/span>/g, '');
    const page = parseBestsellersPage(html, US)!;
    expect(page.items.map((i) => i.rank)).toEqual(Array.from({ length: 30 }, (_, i) => 51 + i));
  });
});

describe('parseBestsellersPage: 2019-2021 list layout (li.zg-item-immersion)', () => {
  // Built from the known structure of that layout: badge, truncated title with the full one in
  // its title attribute, star link + count link, .p13n-sc-price.
  const item = (rank: number, asin: string, title: string, price: string) => `
<li class="zg-item-immersion" role="gridcell"><span class="a-list-item"><div class="a-section a-spacing-none aok-relative">
 <span class="aok-inline-block zg-badge-wrapper"><span class="zg-badge-body"><span class="zg-badge-text">#${rank}</span></span></span>
 <span class="aok-inline-block zg-item"><a class="a-link-normal" href="/Thing/dp/${asin}/ref=zg_bs_electronics_${rank}?_encoding=UTF8&amp;psc=1">
  <span class="zg-text-center-align"><div class="a-section a-spacing-small"><img alt="${title}" src="https://images-na.ssl-images-amazon.com/images/I/${asin}._AC_UL200_SR200,200_.jpg"></div></span>
  <div class="p13n-sc-truncate p13n-sc-line-clamp-2 p13n-sc-truncated" aria-hidden="true" data-rows="2" title="${title}">${title.slice(0, 20)}…</div></a>
  <div class="a-icon-row a-spacing-none"><a class="a-link-normal" title="4.7 out of 5 stars" href="/product-reviews/${asin}/"><i class="a-icon a-icon-star a-star-4-5 aok-align-top"><span class="a-icon-alt">4.7 out of 5 stars</span></i></a>
  <a class="a-size-small a-link-normal" href="/product-reviews/${asin}/">581,335</a></div>
  <div class="a-row"><a class="a-link-normal a-text-normal" href="/Thing/dp/${asin}/"><span class="a-size-base a-color-price"><span class="p13n-sc-price">${price}</span></span></a></div>
 </span></div></span></li>`;
  const html = `<html><body><h1 class="a-size-large a-spacing-medium a-text-bold">Best Sellers in Electronics</h1><ol id="zg-ordered-list" class="a-ordered-list a-vertical">
${item(1, 'B07FZ8S74R', 'Echo Dot (3rd Gen) - Smart speaker with Alexa - Charcoal', '$24.99')}
${item(2, 'B0792KTHKJ', 'Fire TV Stick 4K streaming device with Alexa Voice Remote', '$49.99')}
</ol><ul class="a-pagination"><li class="a-disabled">← Previous page</li><li class="a-selected"><a href="#">1</a></li><li class="a-last"><a href="/Best-Sellers/zgbs/electronics/ref=zg_bs_pg_2?pg=2">Next page→</a></li></ul></body></html>`;

  it('reads rank, ASIN, full title, price, rating and count', () => {
    const page = parseBestsellersPage(html, US)!;
    expect(page.hasNextPage).toBe(true);
    expect(page.items.map((i) => [i.rank, i.asin, i.title, i.price?.amount, i.rating, i.reviewsCount])).toEqual([
      [1, 'B07FZ8S74R', 'Echo Dot (3rd Gen) - Smart speaker with Alexa - Charcoal', 24.99, 4.7, 581335],
      [2, 'B0792KTHKJ', 'Fire TV Stick 4K streaming device with Alexa Voice Remote', 49.99, 4.7, 581335],
    ]);
  });

  it('pages that are not best-seller lists yield null', () => {
    expect(parseBestsellersPage('', US)).toBeNull();
    expect(parseBestsellersPage('<html><body><p>Page not found</p></body></html>', US)).toBeNull();
  });
});
