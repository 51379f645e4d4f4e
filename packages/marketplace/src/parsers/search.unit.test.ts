/**
 * ASIN order, sponsored markers, prices, ratings and counts below were read
 * from the fixture HTML (data-asin order, AdHolder / "Gesponsert" markers,
 * .a-offscreen / .s-price texts, star .a-icon-alt texts, count aria-labels).
 */
import { parseSearchPage } from './search';
import type { SearchItem } from './types';
import { PARSER_VERSION } from './types';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const d = describeOnRealPages;

const US = { marketplace: 'US', origin: 'https://www.amazon.com' };
const DE = { marketplace: 'DE', origin: 'https://www.amazon.de' };

const cache = new Map<string, SearchItem[]>();
function parse(file: string): SearchItem[] {
  if (!cache.has(file)) {
    const ctx = file.startsWith('search-US') ? US : DE;
    cache.set(file, parseSearchPage(readRealPage(file), ctx));
  }
  return cache.get(file) as SearchItem[];
}
const card = (file: string, asin: string, nth = 0): SearchItem => {
  const found = parse(file).filter((c) => c.asin === asin)[nth];
  if (!found) throw new Error(`${asin} not in ${file}`);
  return found;
};

/** Expected organic positions given the sponsored flags. */
function organicPositions(sponsored: boolean[]): (number | null)[] {
  let n = 0;
  return sponsored.map((s) => (s ? null : ++n));
}

const PAGES: Record<string, { asins: string[]; sponsoredIdx: number[] }> = {
  'search-US-portable-charger.html': {
    asins: [
      'B0FQVG4RWW',
      'B0DR8G428S',
      'B0CB1FW5FC',
      'B0GTM5NV64',
      'B0GYR6GXWN',
      'B0FW34MF6F',
      'B0FQJH2XSY',
      'B0CXDXP8VR',
      'B0DRVSB42V',
      'B0FTZ46NF8',
      'B099284SRR',
      'B0CH7ZNF2W',
      'B0DCNKDS5B',
      'B0GQH1QHDH',
      'B0D7PPG25F',
      'B0CF26S341',
      'B0D6RGPJZL',
      'B0CH829X5R',
      'B0FRSRFFZR',
      'B0DQD35SQ4',
      'B0F66PLGWG',
      'B0FCKLSC8Y',
    ],
    // AdHolder cards.
    sponsoredIdx: [0, 1, 6, 11, 16, 21],
  },
  'search-DE-plastikfrei-besteck.html': {
    asins: [
      'B07HDW5DM5',
      'B076CF7YHK',
      'B07D3TBJ72',
      'B07JKZ676V',
      'B07HDW5DM5',
      'B07H51XP6M',
      'B071P5R93G',
      'B07HML5H91',
      'B07F86JP9S',
      'B07HMXF3Q5',
      'B0788F45XM',
      'B072Z85QN6',
      'B01E60QGIE',
      'B07D4DD6VY',
      'B071P5SBYP',
      'B07G796CDR',
      'B07433L2ZR',
      'B07HNCFJCM',
      'B0739S5X4X',
      'B07L91251Z',
    ],
    // Rows with the "Gesponsert" header (result_0, 1, 10, 11).
    sponsoredIdx: [0, 1, 10, 11],
  },
  'search-DE-plastikfrei-fuer-einsteiger.html': {
    // 7 exact matches, then the "Alle N Ergebnisse" blocks whose ids restart at result_0: kept, in page order.
    asins: [
      '3868829938',
      'B07LCT8J4V',
      'B07882SLQ2',
      '1731219210',
      '1731222831',
      '1731219296',
      '173121913X',
      'B07K3Y2XMG',
      '3517098019',
      'B075RDQWGY',
      'B07JKZ676V',
      'B07KXC2SHS',
      'B01B3I7YOC',
      'B00T6XDJRI',
      'B07MJLTTH3',
    ],
    sponsoredIdx: [],
  },
  'search-DE-plastikfrei-gemuesebeutel.html': {
    asins: [
      'B07JKXG7Y1',
      'B07JDFSHDB',
      'B07D187NPX',
      'B07CV59MYH',
      'B075RDQWGY',
      'B07L54S6WZ',
      'B07HMFTR6N',
      'B07FYKGZZY',
      'B07JKXG7Y1',
      'B078GMX7GG',
      'B07HJ9WMCY',
      'B07BR9LPY1',
      'B07JYS17WZ',
      'B07HM4QTCY',
      'B07J2XJCVJ',
      'B07JYQ35KS',
      'B07FKGLQ1M',
      'B07H5JVBH3',
      'B07HJ9WMCY',
      'B07FRGQ4X8',
      'B07HDV551J',
      'B07CVXD9M9',
    ],
    sponsoredIdx: [0, 1, 10, 11, 20, 21],
  },
};

d('parseSearchPage: card lists', () => {
  it('every search fixture has an expectation: its ASINs in page order, positions, sponsored flags and organic positions', () => {
    expect(realPageFiles((f) => f.startsWith('search-'))).toEqual(Object.keys(PAGES).sort());
    const lists = (of: (file: string, exp: (typeof PAGES)[string]) => unknown) =>
      Object.fromEntries(Object.entries(PAGES).map(([file, exp]) => [file, of(file, exp)]));
    const sponsoredOf = (exp: (typeof PAGES)[string]) => exp.asins.map((_, i) => exp.sponsoredIdx.includes(i));
    expect(lists((file) => parse(file).map((c) => [c.position, c.asin, c.isSponsored, c.organicPosition]))).toEqual(
      lists((_, exp) => {
        const sponsored = sponsoredOf(exp);
        const organic = organicPositions(sponsored);
        return exp.asins.map((asin, i) => [i + 1, asin, sponsored[i], organic[i]]);
      }),
    );
  });

  it('every card of every fixture has a title, canonical URL, image and price', () => {
    for (const file of Object.keys(PAGES)) {
      const origin = file.startsWith('search-US') ? US.origin : DE.origin;
      for (const c of parse(file)) {
        expect(c.title).toBeTruthy();
        expect(c.title).not.toMatch(/^\[|^Sponsored Ad/);
        expect(c.url).toMatch(new RegExp(`^${origin.replace(/\./g, '\\.')}/dp/[A-Z0-9]{10}$`));
        expect(c.image).toMatch(/^https:\/\/.*\/images\/I\//);
        expect(c.price).not.toBeNull();
        expect(c.parserVersion).toBe(PARSER_VERSION);
        const missing = ['rating', 'reviewsCount'].filter((k) => c[k as 'rating' | 'reviewsCount'] === null);
        expect(c.missingFields).toEqual(missing);
      }
    }
  });
});

d('parseSearchPage: 2026 US layout cards', () => {
  const F = 'search-US-portable-charger.html';
  it('sponsored card: redirect unwrapped, "Sponsored Ad" prefix not in title', () => {
    expect(card(F, 'B0FQVG4RWW')).toMatchObject({
      position: 1,
      organicPosition: null,
      isSponsored: true,
      title:
        'Portable Charger with Wall Plug, Slim USB C Power Bank with Built-in Cables, 10000mah LED Display External Battery Pack Compatible with iPhone/Android & More (Black)',
      url: 'https://www.amazon.com/dp/B0FQVG4RWW',
      image: 'https://m.media-amazon.com/images/I/71IsOVic7kL._AC_UY218_.jpg',
      price: { amount: 25.18, currency: 'USD' },
      listPrice: { amount: 34.99, currency: 'USD' },
      rating: 4.5,
      reviewsCount: 381,
    });
  });
  it('exact count from aria-label instead of the compact "(84.7K)"', () => {
    const c = card(F, 'B0CB1FW5FC');
    expect(c).toMatchObject({
      position: 3,
      organicPosition: 1,
      price: { amount: 21.59, currency: 'USD' },
      listPrice: { amount: 23.99, currency: 'USD' },
      rating: 4.4,
      reviewsCount: 84753,
      isPrime: null,
    });
    expect(c.badges).toEqual(expect.arrayContaining(['Overall Pick', 'Limited time deal']));
  });
  it('cards without a list price, and large amounts', () => {
    expect(card(F, 'B0CXDXP8VR')).toMatchObject({
      price: { amount: 69.99, currency: 'USD' },
      listPrice: null,
      rating: 4.6,
      reviewsCount: 9190,
    });
    expect(card(F, 'B0D7PPG25F')).toMatchObject({
      price: { amount: 499, currency: 'USD' },
      listPrice: { amount: 559, currency: 'USD' },
      rating: 4.7,
      reviewsCount: 3553,
    });
    expect(card(F, 'B0F66PLGWG')).toMatchObject({ position: 21, organicPosition: 16 });
  });
  it('ignores carousel (Trending now) cards that are not s-search-result', () => {
    expect(parse(F).map((c) => c.asin)).not.toContain('B0FJXRNVVG');
  });
});

d('parseSearchPage: pre-2019 DE layout cards', () => {
  it('sponsored rows: "[Gesponsert]" stripped, picassoRedirect unwrapped', () => {
    const c = card('search-DE-plastikfrei-besteck.html', 'B07HDW5DM5', 0);
    expect(c).toMatchObject({
      position: 1,
      isSponsored: true,
      title:
        'GreenFellows 3er Bambus Kinderbesteck (-Gabel, Löffel, Messer) - OHNE Chemie (Nicht GEFÄRBT), Plastikfrei & Hochwertig - 16cm Kindergeschirr - Sicheres Bambus Besteck-Set für Ihr Kind ab 1 Jahr',
      url: 'https://www.amazon.de/dp/B07HDW5DM5',
      price: { amount: 7.99, currency: 'EUR' },
      rating: null,
      reviewsCount: null,
      isPrime: true,
    });
    // The same ASIN again as an organic row: its own position, not merged.
    expect(card('search-DE-plastikfrei-besteck.html', 'B07HDW5DM5', 1)).toMatchObject({
      position: 5,
      organicPosition: 3,
      isSponsored: false,
    });
    expect(card('search-DE-plastikfrei-besteck.html', 'B076CF7YHK')).toMatchObject({ rating: 4.9, reviewsCount: 93 });
  });
  it('organic rows: price, stars, count, badges', () => {
    expect(card('search-DE-plastikfrei-besteck.html', 'B07D3TBJ72')).toMatchObject({
      organicPosition: 1,
      price: { amount: 25.7, currency: 'EUR' },
      listPrice: null,
      rating: 4.3,
      reviewsCount: 32,
      badges: ["Amazon's Choice"],
      isPrime: true,
    });
    expect(card('search-DE-plastikfrei-besteck.html', 'B071P5SBYP')).toMatchObject({
      price: { amount: 14.9, currency: 'EUR' },
      rating: 4.8,
      reviewsCount: 95,
      badges: ['Bestseller'],
    });
    // "Andere Angebote" (EUR 13,90) is not the card price.
    expect(card('search-DE-plastikfrei-besteck.html', 'B071P5R93G')).toMatchObject({
      price: { amount: 14.9, currency: 'EUR' },
      isPrime: false,
    });
    expect(card('search-DE-plastikfrei-gemuesebeutel.html', 'B07D187NPX')).toMatchObject({
      price: { amount: 19.99, currency: 'EUR' },
      listPrice: { amount: 25.99, currency: 'EUR' },
      rating: 5,
      reviewsCount: 36,
    });
    expect(card('search-DE-plastikfrei-gemuesebeutel.html', 'B07JKXG7Y1', 0)).toMatchObject({
      isSponsored: true,
      price: { amount: 21.9, currency: 'EUR' },
      rating: 4.5,
      reviewsCount: 15,
    });
  });
  it('media rows: Kindle Unlimited / Prime Video "EUR 0,00" offers are skipped', () => {
    const F = 'search-DE-plastikfrei-fuer-einsteiger.html';
    expect(card(F, 'B07LCT8J4V')).toMatchObject({ price: { amount: 2.99, currency: 'EUR' }, rating: 5, reviewsCount: 96 });
    expect(card(F, 'B07KXC2SHS')).toMatchObject({ price: { amount: 4.99, currency: 'EUR' }, rating: 4.3, reviewsCount: 50 });
    expect(card(F, '3868829938')).toMatchObject({
      title: 'Plastikfrei für Einsteiger',
      price: { amount: 14.99, currency: 'EUR' },
      rating: null,
    });
  });
});

describe('parseSearchPage on synthetic markup', () => {
  it('returns [] without result cards', () => {
    expect(parseSearchPage('<html><body><div class="s-result-list"></div></body></html>', US)).toEqual([]);
    expect(parseSearchPage('', US)).toEqual([]);
  });

  it('handles a 2021-2024 style card with localized labels', () => {
    const html = `<html><body><div class="s-main-slot s-result-list">
      <div data-component-type="s-search-result" data-asin="" class="s-result-item"></div>
      <div data-component-type="s-search-result" data-asin="B0SPONSOR1" class="s-result-item">
        <span class="a-color-secondary">Sponsorizzato</span>
        <h2><a href="/sspa/click?ie=UTF8&url=%2FProdotto%2Fdp%2FB0SPONSOR1%2Fref%3Dsr_1_1_sspa"><span>Prodotto uno</span></a></h2>
        <img class="s-image" src="https://m.media-amazon.com/images/I/11aa.jpg">
        <span class="a-price"><span class="a-offscreen">19,99 €</span></span>
      </div>
      <div data-component-type="s-search-result" data-asin="B0ORGANIC1" class="s-result-item">
        <h2><a href="/Prodotto-due/dp/B0ORGANIC1/ref=sr_1_2"><span>Prodotto due</span></a></h2>
        <img class="s-image" src="https://m.media-amazon.com/images/I/22bb.jpg">
        <div class="a-row a-size-small"><span aria-label="4,5 su 5 stelle"><i class="a-icon a-icon-star-small a-star-small-4-5"><span class="a-icon-alt">4,5 su 5 stelle</span></i></span>
        <span aria-label="1.234"><a href="/x#customerReviews"><span class="a-size-base s-underline-text">1.234</span></a></span></div>
        <span class="a-price"><span class="a-offscreen">1.299,00 €</span></span>
        <span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">1.499,00 €</span></span>
        <i class="a-icon a-icon-prime" aria-label="Amazon Prime"></i>
      </div></div></body></html>`;
    const items = parseSearchPage(html, { marketplace: 'IT', origin: 'https://www.amazon.it' });
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      position: 1,
      organicPosition: null,
      isSponsored: true,
      title: 'Prodotto uno',
      url: 'https://www.amazon.it/dp/B0SPONSOR1',
      price: { amount: 19.99, currency: 'EUR' },
      missingFields: ['rating', 'reviewsCount'],
    });
    expect(items[1]).toMatchObject({
      position: 2,
      organicPosition: 1,
      isSponsored: false,
      url: 'https://www.amazon.it/dp/B0ORGANIC1',
      price: { amount: 1299, currency: 'EUR' },
      listPrice: { amount: 1499, currency: 'EUR' },
      rating: 4.5,
      reviewsCount: 1234,
      isPrime: true,
      missingFields: [],
    });
  });

  it('keeps bracketed title text that is not a sponsored label, and reads nested title spans once', () => {
    const html = `<html><body>
      <div data-component-type="s-search-result" data-asin="B0BRACKET1" class="s-result-item">
        <h2 class="a-size-mini"><span>BrandCo</span></h2>
        <h2><a href="/x/dp/B0BRACKET1"><span class="a-size-medium"><span class="a-offscreen">[Sponsored]</span>[2-Pack] USB-C Cable</span></a></h2>
        <span class="a-price"><span class="a-offscreen">CDN$ 12.99</span></span>
      </div></body></html>`;
    const [item] = parseSearchPage(html, { marketplace: 'CA', origin: 'https://www.amazon.ca' });
    expect(item).toMatchObject({
      title: '[2-Pack] USB-C Cable',
      isSponsored: true,
      url: 'https://www.amazon.ca/dp/B0BRACKET1',
      price: { amount: 12.99, currency: 'CAD' },
      missingFields: ['image', 'rating', 'reviewsCount'],
    });
  });
});

/** Unknown is not false: a card without a Prime badge has `isPrime: null`. */
d('parseSearchPage: isPrime and isSponsored say null when the page does not tell', () => {
  it('a page without any Prime icon gives null, not false, to every card but the one with a Prime deal', () => {
    const prime = parse('search-US-portable-charger.html').map((c) => [c.asin, c.isPrime]);
    expect(prime.filter(([, p]) => p !== null)).toEqual([['B0GTM5NV64', true]]);
  });
  it('a page that shows Prime badges gives false to the cards without one', () => {
    const prime = parse('search-DE-plastikfrei-besteck.html').map((c) => c.isPrime);
    expect(prime).toContain(true);
    expect(prime).toContain(false);
    expect(prime).not.toContain(null);
  });
});

describe('parseSearchPage: sponsorship of a card without a product link', () => {
  const cardHtml = (asin: string, inner: string) => `<div data-component-type="s-search-result" data-asin="${asin}">${inner}</div>`;
  const page = (...cards: string[]) => parseSearchPage(`<html><body>${cards.join('')}</body></html>`, US);

  it('is null, and the card gets no organic position; linked cards keep theirs', () => {
    const items = page(
      cardHtml('B0TEST0001', '<h2><a href="/Lamp/dp/B0TEST0001/ref=sr_1_1"><span>Lamp</span></a></h2>'),
      cardHtml('B0TEST0002', '<h2><span>Lamp without a link</span></h2>'),
      cardHtml('B0TEST0003', '<h2><a href="/sspa/click?url=%2Fdp%2FB0TEST0003"><span>Ad lamp</span></a></h2>'),
      cardHtml('B0TEST0004', '<h2><a href="/dp/B0TEST0004"><span>Other lamp</span></a></h2>'),
    );
    expect(items.map((c) => [c.isSponsored, c.organicPosition])).toEqual([
      [false, 1],
      [null, null],
      [true, null],
      [false, 2],
    ]);
  });
});

d('parseSearchPage: deal badges of the 2026 US page', () => {
  it('a countdown ("Ends in 15:20:44") is no badge; a Prime deal ("With Prime") is a badge and marks the card Prime', () => {
    const withBadges = parse('search-US-portable-charger.html')
      .filter((c) => c.badges.length || c.isPrime !== null)
      .map((c) => [c.position, c.asin, c.isPrime, c.badges]);
    expect(withBadges).toEqual([
      [3, 'B0CB1FW5FC', null, ["Amazon's Choice", 'Overall Pick', 'Limited time deal']],
      [4, 'B0GTM5NV64', true, ['With Prime']],
      [6, 'B0FW34MF6F', null, ['Limited time deal']],
      [19, 'B0FRSRFFZR', null, ['Limited time deal']],
      [22, 'B0FCKLSC8Y', null, ['Limited time deal']],
    ]);
    // The four countdown cards: no badge at all.
    for (const asin of ['B0FQVG4RWW', 'B099284SRR', 'B0GQH1QHDH', 'B0CF26S341'])
      expect(card('search-US-portable-charger.html', asin).badges).toEqual([]);
  });
});

describe('parseSearchPage: deal badges, by their structure', () => {
  const DE_CTX = { marketplace: 'DE', origin: 'https://www.amazon.de' };
  const deal = (inner: string) =>
    `<span class="a-badge" data-a-badge-type="deal"><span class="a-badge-label"><span class="a-badge-label-inner">${inner}</span></span></span>`;
  const cardHtml = (asin: string, badge: string, prime = '') =>
    `<div data-component-type="s-search-result" data-asin="${asin}"><h2><a href="/x/dp/${asin}"><span>Lamp</span></a></h2>${prime}${badge}</div>`;
  const parsePage = (...cards: string[]) => parseSearchPage(`<html><body>${cards.join('')}</body></html>`, DE_CTX);

  it('drops a countdown and its lead-in in any language, keeps a static label beside it', () => {
    const [a, b] = parsePage(
      cardHtml(
        'B0TEST0001',
        deal(
          '<span class="a-badge-text">Endet in </span><span class="dealBadge-countdown-timer" data-target-time="2026-08-17T06:59:59Z">03:12:09</span>',
        ),
      ),
      cardHtml(
        'B0TEST0002',
        `<div><span class="a-badge" data-a-badge-type="deal"><span class="a-badge-label"><span class="a-badge-text">Blitzangebot</span></span><span class="a-badge-supplementary"><span class="a-badge-text">Endet in </span><span id="deal-countdown-1">01:02:03</span></span></span></div>`,
      ),
    );
    expect(a!.badges).toEqual([]);
    expect(b!.badges).toEqual(['Blitzangebot']);
  });

  it('a Prime deal marks the card Prime; without Prime icons on the page other cards stay null', () => {
    const items = parsePage(
      cardHtml('B0TEST0003', deal('<span class="a-badge-text">Mit Prime</span>')),
      cardHtml('B0TEST0004', deal('<span class="a-badge-text">Angebot</span>')),
    );
    expect(items.map((c) => [c.asin, c.isPrime, c.badges])).toEqual([
      ['B0TEST0003', true, ['Mit Prime']],
      ['B0TEST0004', null, ['Angebot']],
    ]);
  });

  it('on a page that shows Prime icons, a card with neither icon nor Prime deal is false', () => {
    const items = parsePage(
      cardHtml('B0TEST0005', '', '<i class="a-icon a-icon-prime" aria-label="Amazon Prime"></i>'),
      cardHtml('B0TEST0006', deal('<span class="a-badge-text">Mit Prime</span>')),
      cardHtml('B0TEST0007', ''),
    );
    expect(items.map((c) => [c.asin, c.isPrime])).toEqual([
      ['B0TEST0005', true],
      ['B0TEST0006', true],
      ['B0TEST0007', false],
    ]);
  });
});
