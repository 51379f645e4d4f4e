/**
 * The brand of each search card. Which fixtures carry a brand line (read by hand in the HTML):
 * - search-DE-plastikfrei-besteck / -gemuesebeutel (pre-2019): every card has a "von X" row under
 *   the title (`span.a-color-secondary` "von " + the name), all of them products;
 * - search-DE-plastikfrei-fuer-einsteiger (pre-2019): "von X" rows on products and on books (the
 *   books show a release date beside the title, a format heading such as "Taschenbuch", an ISBN
 *   as ASIN or an author link `/e/`), Prime Video rows have no byline;
 * - search-US-portable-charger (2026): no card shows a brand line (the title recipe holds the
 *   title only), so every brand is null.
 */
import { parseSearchPage } from './search';
import { describeOnRealPages, readRealPage } from '../test-support/real-pages';

const d = describeOnRealPages;

const US = { marketplace: 'US', origin: 'https://www.amazon.com' };
const DE = { marketplace: 'DE', origin: 'https://www.amazon.de' };

const brandsOf = (file: string) =>
  parseSearchPage(readRealPage(file), file.startsWith('search-US') ? US : DE).map((c) => [c.asin, c.brand]);

/** [asin, brand] of every card, in page order. */
const BRANDS: Record<string, [string, string | null][]> = {
  'search-DE-plastikfrei-besteck.html': [
    ['B07HDW5DM5', 'GreenFellows'],
    ['B076CF7YHK', 'freigeist ESPRIT LIBRE'],
    ['B07D3TBJ72', 'avoid waste'],
    ['B07JKZ676V', 'Guenx'],
    ['B07HDW5DM5', 'GreenFellows'],
    ['B07H51XP6M', 'GreenFellows'],
    ['B071P5R93G', 'HÅLM'],
    ['B07HML5H91', 'HÅLM'],
    ['B07F86JP9S', 'studio TR'],
    ['B07HMXF3Q5', 'HÅLM'],
    ['B0788F45XM', 'Umami'],
    ['B072Z85QN6', 'BESTEK'],
    ['B01E60QGIE', 'Bamboo'],
    ['B07D4DD6VY', 'freigeist ESPRIT LIBRE'],
    ['B071P5SBYP', 'HÅLM'],
    ['B07G796CDR', 'Naturally Eco'],
    ['B07433L2ZR', 'EcoPower Sports'],
    ['B07HNCFJCM', 'HÅLM'],
    ['B0739S5X4X', 'HÅLM'],
    ['B07L91251Z', 'LoveOlvidoD'],
  ],
  'search-DE-plastikfrei-gemuesebeutel.html': [
    ['B07JKXG7Y1', 'CottonLoveBag'],
    ['B07JDFSHDB', 'Breathe Waldgrün'],
    ['B07D187NPX', 'Imline'],
    ['B07CV59MYH', 'EcoYou'],
    ['B075RDQWGY', 'ecocasa'],
    ['B07L54S6WZ', 'E-Know'],
    ['B07HMFTR6N', 'guud'],
    ['B07FYKGZZY', 'COMLIFE'],
    ['B07JKXG7Y1', 'CottonLoveBag'],
    ['B078GMX7GG', 'EcoYou'],
    ['B07HJ9WMCY', 'Own Step'],
    ['B07BR9LPY1', 'achilles'],
    ['B07JYS17WZ', 'Natur Leben'],
    ['B07HM4QTCY', 'Naturely'],
    ['B07J2XJCVJ', 'bun-di ECO'],
    ['B07JYQ35KS', 'Beute Beutel'],
    ['B07FKGLQ1M', 'Laxus'],
    ['B07H5JVBH3', 'esonmus'],
    ['B07HJ9WMCY', 'Own Step'],
    ['B07FRGQ4X8', 'TreeBox'],
    ['B07HDV551J', 'OzeanKonzept'],
    ['B07CVXD9M9', 'LESON'],
  ],
  'search-DE-plastikfrei-fuer-einsteiger.html': [
    // Books: "von <author>" is a byline, not a brand.
    ['3868829938', null], // Taschenbuch, release date beside the title
    ['B07LCT8J4V', null], // Kindle Edition
    ['B07882SLQ2', null], // author linked to /e/
    ['1731219210', null], // notebook sold as a book ("von Selbst Gemacht", Taschenbuch)
    ['1731222831', null],
    ['1731219296', null],
    ['173121913X', null],
    ['B07K3Y2XMG', 'YEDDY'],
    ['3517098019', null], // release date beside the title, ISBN
    ['B075RDQWGY', 'ecocasa'],
    ['B07JKZ676V', 'Guenx'],
    ['B07KXC2SHS', null], // Prime Video rows have no byline
    ['B01B3I7YOC', null],
    ['B00T6XDJRI', null],
    ['B07MJLTTH3', null], // Kindle book: release date beside the title
  ],
};

d('cardBrand on the search fixtures', () => {
  it('the brand of every card of the DE pages', () => {
    expect(Object.fromEntries(Object.keys(BRANDS).map((file) => [file, brandsOf(file)]))).toEqual(BRANDS);
  });

  it('search-US-portable-charger.html: no card shows a brand line (a sustainability heading is no brand)', () => {
    const brands = brandsOf('search-US-portable-charger.html');
    expect(brands).toHaveLength(22);
    expect(brands.filter(([, brand]) => brand !== null)).toEqual([]);
  });
});

const asin = 'B0TEST0001';
const link = `/Some-Product/dp/${asin}/ref=sr_1_1`;
const page = (cardBody: string, dataAsin = asin) =>
  `<html><body><div data-component-type="s-search-result" data-asin="${dataAsin}">${cardBody}</div></body></html>`;
const oldPage = (rows: string, dataAsin = asin) =>
  `<html><body><ul><li class="s-result-item" data-asin="${dataAsin}"><div class="s-item-container">${rows}</div></li></ul></body></html>`;
const brandOf = (html: string, ctx = US) => parseSearchPage(html, ctx)[0]?.brand;

/** 2023+ title recipe: an optional row above the title and the title link. */
const recipe = (above: string, below = '') =>
  page(`<div data-cy="title-recipe">${above}<a class="a-link-normal s-line-clamp-2 s-link-style a-text-normal" href="${link}">
    <h2 aria-label="Men's Crew T-Shirt" class="a-size-base-plus a-spacing-none a-color-base a-text-normal"><span>Men's Crew T-Shirt</span></h2></a>${below}</div>`);
/** 2019-2022 layout: the title h2 holds the link; rows above and below it in the same section. */
const section = (above: string, below: string, extra = '') =>
  page(`<div class="a-section a-spacing-none">${above}<h2 class="a-size-mini a-spacing-none a-color-base s-line-clamp-2">
    <a class="a-link-normal a-text-normal" href="${link}"><span class="a-size-medium a-color-base a-text-normal">Hands-On Python</span></a></h2>${below}</div>${extra}`);
/** Pre-2019 row: title row (title link plus whatever follows it), then the byline row. */
const oldRows = (afterTitle: string, byline: string, extra = '') =>
  oldPage(`<div class="a-row a-spacing-small"><div class="a-row a-spacing-none"><a class="a-link-normal s-access-detail-page a-text-normal" title="Lunchbox" href="https://www.amazon.de${link}">
    <h2 class="a-size-medium s-inline s-access-title a-text-normal">Lunchbox</h2></a>${afterTitle}</div>
    <div class="a-row a-spacing-none">${byline}</div></div>${extra}`);
const oldByline = (word: string, name: string) =>
  `<span class="a-size-small a-color-secondary">${word} </span><span class="a-size-small a-color-secondary">${name}</span>`;

describe('cardBrand: brand line above the title (2019+)', () => {
  it('2023+ title recipe: the h2.s-line-clamp-1 brand row', () => {
    const brandRow =
      '<div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><span class="a-size-base-plus a-color-base">Amazon Essentials</span></h2></div>';
    expect(brandOf(recipe(brandRow))).toBe('Amazon Essentials');
  });

  it('a sponsored label row above the brand row is not the brand', () => {
    const rows =
      '<div class="a-row a-spacing-micro"><span class="puis-label-popover-default"><span class="a-color-secondary">Sponsored</span></span></div>' +
      '<div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><span class="a-size-base-plus a-color-base">Phyto</span></h2></div>';
    expect(brandOf(recipe(rows))).toBe('Phyto');
    expect(brandOf(recipe(rows.slice(0, rows.indexOf('<div class="a-row a-color-secondary">'))))).toBeNull();
  });

  it('2019-2022 grid: the h5.s-line-clamp-1 brand above the title h2', () => {
    const brandRow =
      '<div class="a-row a-size-base a-color-secondary"><h5 class="s-line-clamp-1"><span class="a-size-base-plus a-color-base">Hanes</span></h5></div>';
    expect(brandOf(section(brandRow, ''))).toBe('Hanes');
  });

  it('a title without a brand line has none; headings outside the title block are no brand', () => {
    expect(brandOf(recipe(''))).toBeNull();
    const certification =
      '<div class="s-pc-certification"><h2 class="a-spacing-none a-size-medium a-text-bold">ClimatePartner certified</h2></div>';
    expect(
      brandOf(page(`${certification}<div data-cy="title-recipe"><a href="${link}"><h2><span>Power Bank</span></h2></a></div>`)),
    ).toBeNull();
  });

  it('a book card has no brand even with a heading above the title', () => {
    const brandRow =
      '<div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><span class="a-size-base-plus a-color-base">James Clear</span></h2></div>';
    const format = `<div class="a-row"><a class="a-size-base a-link-normal s-underline-text a-text-bold" href="${link}">Hardcover</a></div>`;
    expect(
      brandOf(page(`<div data-cy="title-recipe">${brandRow}<a href="${link}"><h2><span>Atomic Habits</span></h2></a></div>${format}`)),
    ).toBeNull();
  });
});

describe('cardBrand: 2024 brand lines the heading rule alone missed', () => {
  const JP = { marketplace: 'JP', origin: 'https://www.amazon.co.jp' };
  const UK = { marketplace: 'UK', origin: 'https://www.amazon.co.uk' };

  it('a plain row above the title inside the title recipe (no h2/h5 around the brand)', () => {
    const row = '<div class="a-row a-color-secondary"><span class="a-size-base-plus a-color-base">Amazon Basics</span></div>';
    expect(brandOf(recipe(row), UK)).toBe('Amazon Basics');
  });

  it('a brand heading linking to the brand store or the brand refinement', () => {
    const store =
      '<div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><a class="a-link-normal" href="/stores/Anker/page/1A2B?ref_=ast_bln"><span class="a-size-base-plus a-color-base">Anker</span></a></h2></div>';
    expect(brandOf(recipe(store), UK)).toBe('Anker');
    const refinement = '<div class="a-row"><a class="a-link-normal" href="/s?k=charger&amp;rh=p_89%3AUGREEN">UGREEN</a></div>';
    expect(brandOf(recipe(refinement), UK)).toBe('UGREEN');
  });

  it('a row above the title that links to the product, or holds an image or a badge, is no brand', () => {
    const productLink = `<div class="a-row"><a class="a-link-normal" href="${link}">Visit product</a></div>`;
    expect(brandOf(recipe(productLink), UK)).toBeNull();
    const badge =
      '<div class="a-row"><span class="a-badge" data-a-badge-type="status"><span class="a-badge-text">Best Seller</span></span></div>';
    expect(brandOf(recipe(badge), UK)).toBeNull();
  });

  it('a span without digits beside the title does not make the card a book', () => {
    const brandRow = '<h5 class="s-line-clamp-1"><span class="a-size-base-plus a-color-base">Hanes</span></h5>';
    expect(brandOf(section(brandRow, '<span class="a-size-mini">Men</span>'), UK)).toBe('Hanes');
  });

  it('a product named after a format keeps its brand ("Kindle" in the title)', () => {
    const brandRow =
      '<div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><span class="a-size-base-plus a-color-base">MoKo</span></h2></div>';
    const titled = page(`<div data-cy="title-recipe">${brandRow}<a href="${link}"><h2><span>Kindle</span></h2></a></div>`);
    expect(brandOf(titled, UK)).toBe('MoKo');
  });

  describe('a Japanese book card: its author above the title is no brand', () => {
    const author =
      '<div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><span class="a-size-base-plus a-color-base">村上 春樹</span></h2></div>';
    const jpCard = (below: string, extra = '') =>
      page(`<div data-cy="title-recipe">${author}<a href="${link}"><h2><span>街とその不確かな壁</span></h2></a>${below}</div>${extra}`);

    it('the same card without book marks would read the heading as a brand', () => {
      expect(brandOf(jpCard(''), JP)).toBe('村上 春樹');
    });

    it.each([
      [
        'a byline row with a release date',
        '<div class="a-row"><span class="a-size-base">村上 春樹</span><span class="a-size-base"> | </span><span class="a-size-base">2023/4/13</span></div>',
        '',
      ],
      [
        'a contributor role',
        '<div class="a-row"><span class="a-size-base">村上 春樹</span><span class="a-size-base">(著)</span></div>',
        '',
      ],
      [
        'a format link that is not bold',
        '',
        `<div class="a-row"><a class="a-size-base a-link-normal" href="${link}">Kindle版 (電子書籍)</a></div>`,
      ],
      ['a format link "単行本"', '', `<div class="a-row"><a class="a-link-normal" href="${link}">単行本</a></div>`],
      [
        'a 2023+ author refinement link',
        '',
        '<div class="a-row"><a href="/s?i=stripbooks&amp;rh=p_lbr_books_authors_browse-bin%3A%E6%9D%91%E4%B8%8A">村上 春樹</a></div>',
      ],
    ])('%s', (_what, below, extra) => {
      expect(brandOf(jpCard(below, extra), JP)).toBeNull();
    });
  });

  it.each([
    ['UK', 'Paperback'],
    ['DE', 'Taschenbuch'],
    ['FR', 'Broché'],
    ['ES', 'Tapa blanda'],
    ['IT', 'Copertina flessibile'],
    ['BR', 'Capa comum'],
    ['NL', 'Gebonden'],
    ['SE', 'Häftad'],
    ['PL', 'Miękka oprawa'],
    ['TR', 'Ciltsiz'],
    ['JP', '文庫'],
    ['AE', 'غلاف ورقي'],
  ])('%s: a "%s" format link (not bold) marks a book card', (mk, format) => {
    const heading =
      '<div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><span class="a-size-base-plus a-color-base">Jane Doe</span></h2></div>';
    const ctx = { marketplace: mk, origin: 'https://www.amazon.com' };
    const card = (f: string) =>
      page(
        `<div data-cy="title-recipe">${heading}<a href="${link}"><h2><span>A Novel</span></h2></a></div><div class="a-row"><a class="a-link-normal" href="${link}">${f}</a></div>`,
      );
    expect(brandOf(card(format), ctx)).toBeNull();
    expect(brandOf(card('See options'), ctx)).toBe('Jane Doe');
  });

  it.each([
    ['(Author)'],
    ['(Autor)'],
    ['(Auteur)'],
    ['(Autore)'],
    ['(Författare)'],
    ['(Yazar)'],
    ['(Author, Illustrator)'],
    ['（翻訳）'],
    ['(المؤلف)'],
  ])('a contributor role %s in a "by" byline marks a book', (role) => {
    const byline = `<div class="a-row a-size-base a-color-secondary"><span class="a-size-base">by </span><span class="a-size-base">Jane Doe</span><span class="a-size-base"> ${role}</span></div>`;
    expect(brandOf(section('', byline))).toBeNull();
  });
});

describe('cardBrand: "by X" bylines', () => {
  it('a product byline under a 2019+ title gives the names after "by"', () => {
    const byline =
      '<div class="a-row a-size-base a-color-secondary"><span class="a-size-base">by </span><span class="a-size-base">Anker</span></div>';
    expect(brandOf(section('', byline))).toBe('Anker');
  });

  it.each([
    ['von', 'Guenx', DE],
    ['de', 'Cecotec', { marketplace: 'ES', origin: 'https://www.amazon.es' }],
    ['di', 'Bialetti', { marketplace: 'IT', origin: 'https://www.amazon.it' }],
    ['par', 'Tefal', { marketplace: 'FR', origin: 'https://www.amazon.fr' }],
    ['door', 'Philips', { marketplace: 'NL', origin: 'https://www.amazon.nl' }],
  ])('pre-2019 "%s %s" row under the title', (word, name, ctx) => {
    expect(brandOf(oldRows('', oldByline(word, name)), ctx)).toBe(name);
  });

  it('a row under the title that is not a byline is no brand', () => {
    expect(brandOf(oldRows('', '<span class="a-size-small a-color-secondary">Kostenlose Lieferung möglich.</span>'), DE)).toBeNull();
  });
});

describe('cardBrand: author bylines are not brands', () => {
  const bookByline = (author: string, after = '') =>
    `<div class="a-row a-size-base a-color-secondary"><span class="a-size-base">by </span>${author}${after}</div>`;

  it('"by Author | date": a release date follows the names', () => {
    const dated = bookByline(
      '<span class="a-size-base">C. Hillar</span>',
      '<span class="a-letter-space"></span><span class="a-size-base a-color-secondary"> | </span><span class="a-size-base a-color-secondary a-text-normal">Dec 26, 2018</span>',
    );
    expect(brandOf(section('', dated))).toBeNull();
  });

  it.each([
    ['an author page /e/', '/James-Clear/e/B07D23CFGR?ref=sr_ntt_srch_lnk_1'],
    ['an author store page', '/stores/James-Clear/author/B07D23CFGR?ref=ap_rdr'],
    ['a field-author search', '/s?i=stripbooks&field-author=James+Clear&search-alias=stripbooks'],
    ['the p_27 author refinement', '/s?i=stripbooks&rh=p_27%3AJames+Clear&s=relevancerank&text=James+Clear'],
  ])('the byline links to %s', (_what, href) => {
    expect(brandOf(section('', bookByline(`<a class="a-size-base a-link-normal" href="${href}">James Clear</a>`)))).toBeNull();
  });

  it('next to a format link such as "Paperback"', () => {
    const byline = bookByline('<span class="a-size-base">Richard Penman</span>');
    const format = `<div class="a-row a-size-base a-color-base"><a class="a-size-base a-link-normal a-text-bold" href="${link}">Paperback</a></div>`;
    expect(brandOf(section('', byline, format))).toBeNull();
  });

  it('a book whose ASIN is an ISBN-10', () => {
    const byline = bookByline('<span class="a-size-base">Richard Penman</span>');
    expect(brandOf(section('', byline).replace(`data-asin="${asin}"`, 'data-asin="178216436X"'))).toBeNull();
  });

  it('pre-2019: a release date beside the title, a format heading, or an author link', () => {
    const date = '<span class="a-letter-space"></span><span class="a-size-small a-color-secondary">20. Februar 2019</span>';
    expect(brandOf(oldRows(date, oldByline('von', 'Christoph Schulz')), DE)).toBeNull();
    const formatHeading = `<div class="a-row"><a class="a-link-normal a-text-normal" title="Taschenbuch" href="https://www.amazon.de${link}"><h3 class="a-size-small s-inline a-text-normal">Taschenbuch</h3></a></div>`;
    expect(brandOf(oldRows('', oldByline('von', 'Selbst Gemacht'), formatHeading), DE)).toBeNull();
    const authorLink = oldByline(
      'von',
      '<a class="a-link-normal a-text-normal" href="/Melanie-Lahmer/e/B008BROEWY/ref=sr_ntt_srch_lnk_3">Melanie Lahmer</a>',
    );
    expect(brandOf(oldRows('', authorLink), DE)).toBeNull();
    // The same rows without those marks are a product's brand.
    expect(brandOf(oldRows('', oldByline('von', 'Christoph Schulz')), DE)).toBe('Christoph Schulz');
  });
});
