/**
 * The product facts of detail pages (details-facts.ts and its helpers). Expected fixture values
 * were read from the fixture HTML by hand (the row, attribute or JSON named in each comment), not
 * copied from parser output.
 *
 * Which fixtures carry which field (x = carries it; every other cell must be null):
 *
 * | fixture               | parent | manuf. | model | weight | dims | firstAv. | isbn13 | histogram   |
 * |-----------------------|--------|--------|-------|--------|------|----------|--------|-------------|
 * | BR-8565042472         | x self |        |       |        | x    |          | x      | x           |
 * | BR-B085VK7LYQ         | x self | x      | x     | x      | x    |          |        | x           |
 * | BR-B09YRKYRSM         | x self | x      | x     |        |      | x        |        | x all zeros |
 * | DE-B01GAWQSFW         |        |        | x     | x      |      | x        |        | x all zeros |
 * | ES-B01MUGXRT9         | x self |        | x     | x      | x    | x        |        | x           |
 * | ES-B07JH148DF         | x self | x      | x     | x      | x    | x        |        | x           |
 * | ES-B08PBWPQ16         |        |        |       |        |      |          |        | x           |
 * | FR-B07H57DNVV         |        |        |       |        |      |          |        | x           |
 * | UK-1439878676         |        |        |       |        | x    |          | x      | x           |
 * | UK-1849757097         | x self |        |       |        | x    |          | x      | x           |
 * | US-0062796984         | x self |        |       | x      | x    |          | x      | x           |
 * | US-B0011UCPM4         | x self |        |       |        |      |          |        | x           |
 * | US-B01GAWQSFW         | x self |        | x     | x      | x    | x        |        | x           |
 * | US-B073WRF565         | x      |        | x     | x      | x    | x        |        | x           |
 * | US-B07G2L3JMM         |        |        | x     | x      | x    | x        |        | x           |
 * | US-B0DR8G428S         | x      | x      | x     |        | x    |          |        | x           |
 */
import { type MarketplaceCode, MARKETPLACES, type RatingPercentages } from '@crawl/core';
import { parseDetailsPage } from './details';
import { extractFacts, type DetailsFacts } from './details-facts';
import { Doc } from '../page';
import type { DetailsItem } from './types';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const d = describeOnRealPages;

const originOf = (code: string) => `https://${MARKETPLACES[code as MarketplaceCode].host}`;

/** Histogram from the page's rows, 5 stars first. */
const hist = (s5: number, s4: number, s3: number, s2: number, s1: number): RatingPercentages => ({
  '5': s5,
  '4': s4,
  '3': s3,
  '2': s2,
  '1': s1,
});
const ZEROS = hist(0, 0, 0, 0, 0);
const NONE: DetailsFacts = {
  parentAsin: null,
  manufacturer: null,
  modelNumber: null,
  weight: null,
  dimensions: null,
  firstAvailable: null,
  isbn13: null,
  ratingHistogram: null,
};

const EXPECTED: Record<string, DetailsFacts> = {
  // Book: image-block JSON "mediaAsin":"8565042472","parentAsin":"8565042472"; bullets "Dimensões : 21.4 x
  // 13.4 x 2.8 cm", "ISBN-13 : 978-8565042475" ("Editora" is the publisher, not a manufacturer);
  // #histogramTable rows aria-label "76% de avaliações possuem 5 estrelas" ...
  'details-BR-8565042472.html': {
    ...NONE,
    parentAsin: '8565042472',
    dimensions: '21.4 x 13.4 x 2.8 cm',
    isbn13: '9788565042475',
    ratingHistogram: hist(76, 13, 7, 3, 2),
  },
  // Apparel: twister "parentAsin":"B085VK7LYQ" (the page's own ASIN); bullets "Dimensões da embalagem :
  // 33.2 x 29 x 1.8 cm; 260 g" (package row with the weight joined), "Fabricante : Aramis", "Número do
  // modelo : PO.01.1001"; histogram aria-labels 81/10/5/2/2.
  'details-BR-B085VK7LYQ.html': {
    ...NONE,
    parentAsin: 'B085VK7LYQ',
    manufacturer: 'Aramis',
    modelNumber: 'PO.01.1001',
    weight: '260 g',
    dimensions: '33.2 x 29 x 1.8 cm',
    ratingHistogram: hist(81, 10, 5, 2, 2),
  },
  // No ratings yet: histogram rows "5 estrelas (0%) 0%"; "Disponível para compra desde : 7 maio 2022",
  // "Fabricante : HIKA", "Referência do fabricante : A10G-HK-BR" (= tech table "Número da peça").
  'details-BR-B09YRKYRSM.html': {
    ...NONE,
    parentAsin: 'B09YRKYRSM',
    manufacturer: 'HIKA',
    modelNumber: 'A10G-HK-BR',
    firstAvailable: '2022-05-07',
    ratingHistogram: ZEROS,
  },
  // 2019 bullets "<b>Produktgewicht inkl. Verpackung:</b> 22,7 g", "<b>Modellnummer:</b> 4331797957",
  // "<b>Im Angebot von Amazon.de seit:</b> 25. August 2016"; no reviews (rows "5 Sterne (0%) 0%"); no parent data.
  'details-DE-B01GAWQSFW.html': {
    ...NONE,
    modelNumber: '4331797957',
    weight: '22,7 g',
    firstAvailable: '2016-08-25',
    ratingHistogram: ZEROS,
  },
  // techSpec "Número de modelo ‎05042", "Dimensiones del producto ‎13,8 x 23 x 30 cm; 1,6 kilogramos" and
  // its own row "Peso del producto ‎1,6 kg" (the separate row wins); "Producto en Amazon.es desde 15
  // noviembre 2018"; no manufacturer row; #histogramTable 56/19/10/5/10.
  'details-ES-B01MUGXRT9.html': {
    ...NONE,
    parentAsin: 'B01MUGXRT9',
    modelNumber: '05042',
    weight: '1,6 kg',
    dimensions: '13,8 x 23 x 30 cm',
    firstAvailable: '2018-11-15',
    ratingHistogram: hist(56, 19, 10, 5, 10),
  },
  // Bullets "Dimensiones del producto : 13,5 x 15,5 x 19,5 cm; 2,7 kg", "Producto en Amazon.es desde :
  // 17 octubre 2018", "Fabricante : Hercules" ("Descatalogado por el fabricante : No" is not it),
  // "Número de modelo del producto : 4780885"; 2024 list histogram 64/22/7/2/5.
  'details-ES-B07JH148DF.html': {
    ...NONE,
    parentAsin: 'B07JH148DF',
    manufacturer: 'Hercules',
    modelNumber: '4780885',
    weight: '2,7 kg',
    dimensions: '13,5 x 15,5 x 19,5 cm',
    firstAvailable: '2018-10-17',
    ratingHistogram: hist(64, 22, 7, 2, 5),
  },
  // Kindle e-book: file size and print length only, no parent data; "55% das avaliações têm 5 estrelas" ...
  'details-ES-B08PBWPQ16.html': { ...NONE, ratingHistogram: hist(55, 29, 11, 4, 1) },
  // Music CD: "tasParentAsin" (the formats family) is not a parent ASIN; title "5 étoiles (59%)" ...
  'details-FR-B07H57DNVV.html': { ...NONE, ratingHistogram: hist(59, 32, 3, 3, 3) },
  // 2019 book bullets "Product Dimensions: 18 x 3.3 x 25.4 cm", "ISBN-13: 978-1439878675"; rows
  // "5 star (34%)", "4 star (0%)", "3 star (33%)", "2 star (0%)", "1 star (33%)".
  'details-UK-1439878676.html': {
    ...NONE,
    dimensions: '18 x 3.3 x 25.4 cm',
    isbn13: '9781439878675',
    ratingHistogram: hist(34, 0, 33, 0, 33),
  },
  // "mediaAsin":"1849757097","parentAsin":"1849757097"; bullets "Dimensions : 21.59 x 2.03 x 25.4 cm",
  // "ISBN-13 : 978-1849757096"; aria-label "58 percent of reviews have 5 stars" ...
  'details-UK-1849757097.html': {
    ...NONE,
    parentAsin: '1849757097',
    dimensions: '21.59 x 2.03 x 25.4 cm',
    isbn13: '9781849757096',
    ratingHistogram: hist(58, 29, 13, 0, 0),
  },
  // Share links "/gp/pdp/taf/...&parentASIN=0062796984"; "Product Dimensions: 5.5 x 1 x 8.2 inches",
  // only "Shipping Weight: 1 pounds (View shipping rates and policies)", "ISBN-13: 978-0062796981";
  // "5 star (100%)" and four "(0%)" rows.
  'details-US-0062796984.html': {
    ...NONE,
    parentAsin: '0062796984',
    weight: '1 pounds',
    dimensions: '5.5 x 1 x 8.2 inches',
    isbn13: '9780062796981',
    ratingHistogram: hist(100, 0, 0, 0, 0),
  },
  // Kindle: "mediaAsin":"B0011UCPM4","parentAsin":"B0011UCPM4" (the series bundle's input
  // "metadata.batchInfo.parentAsin" value B074BYTW8L is not it); "59 percent of reviews have 5 stars" ...
  'details-US-B0011UCPM4.html': { ...NONE, parentAsin: 'B0011UCPM4', ratingHistogram: hist(59, 28, 9, 2, 2) },
  // 2017: "parentAsin":"B01GAWQSFW" and share links parentASIN=B01GAWQSFW; bullets "Package Dimensions: 4.2
  // x 3.9 x 1.9 inches", "Shipping Weight: 0.8 ounces", "Item model number: 4331797957", "Date first listed
  // on Amazon: May 28, 2016"; rows "5 star (67%)", "4 star (17%)", "3 star (0%)", "2 star (8%)", "1 star (8%)".
  'details-US-B01GAWQSFW.html': {
    ...NONE,
    parentAsin: 'B01GAWQSFW',
    modelNumber: '4331797957',
    weight: '0.8 ounces',
    dimensions: '4.2 x 3.9 x 1.9 inches',
    firstAvailable: '2016-05-28',
    ratingHistogram: hist(67, 17, 0, 8, 8),
  },
  // Size variant: "mediaAsin":"B073WRF565","parentAsin":"B084QV5F98"; techSpec "Item Weight ‎41.4 pounds",
  // "Product Dimensions ‎75 x 54 x 14 inches", "Item model number ‎AMZ-14BIBF-F"; "Date First Available
  // October 25, 2017"; "5 stars represent 84% of rating" ...
  'details-US-B073WRF565.html': {
    ...NONE,
    parentAsin: 'B084QV5F98',
    modelNumber: 'AMZ-14BIBF-F',
    weight: '41.4 pounds',
    dimensions: '75 x 54 x 14 inches',
    firstAvailable: '2017-10-25',
    ratingHistogram: hist(84, 11, 3, 1, 2),
  },
  // No parent data; techSpec "Part Number CM-WB-01", "Item Weight 2.15 pounds" (wins over "Shipping Weight
  // 2.15 pounds (View shipping rates...)"), "Package Dimensions 10.3 x 6.7 x 5.5 inches", "Item model number
  // CM-WB-01"; "Date First Available July 31, 2018"; "5 stars represent 73% of rating" ...
  'details-US-B07G2L3JMM.html': {
    ...NONE,
    modelNumber: 'CM-WB-01',
    weight: '2.15 pounds',
    dimensions: '10.3 x 6.7 x 5.5 inches',
    firstAvailable: '2018-07-31',
    ratingHistogram: hist(73, 10, 7, 4, 6),
  },
  // 2026 scripts-stripped DOM: data-video-items '{"productAsin":"B0DR8G428S","parentAsin":"B0FH9S2VQV"}';
  // hidden expander rows "Item Dimensions L x W x Thickness 5.91"L x 2.83"W x 1.09"Th" and "Item Dimensions
  // 5.91 x 2.83 x 1.09 inches", "Battery Weight 148 g" (not the item's weight), "Model Number C2046S",
  // "Manufacturer Dong guan Utopia-Originality Technology Co., Ltd"; no first-available row;
  // ul#histogramTable aria-label "71 percent of reviews have 5 stars" ...
  'details-US-B0DR8G428S.html': {
    ...NONE,
    parentAsin: 'B0FH9S2VQV',
    manufacturer: 'Dong guan Utopia-Originality Technology Co., Ltd',
    modelNumber: 'C2046S',
    dimensions: '5.91 x 2.83 x 1.09 inches',
    ratingHistogram: hist(71, 9, 5, 4, 11),
  },
};

const cache = new Map<string, DetailsItem>();
function parse(file: string): DetailsItem {
  let item = cache.get(file);
  if (!item) {
    const mk = file.split('-')[1]!;
    const parsed = parseDetailsPage(readRealPage(file), { marketplace: mk, origin: originOf(mk) });
    if (!parsed) throw new Error(`no item for ${file}`);
    cache.set(file, (item = parsed));
  }
  return item;
}

const FIELDS = Object.keys(NONE) as (keyof DetailsFacts)[];

const factsOf = (item: DetailsItem): DetailsFacts => Object.fromEntries(FIELDS.map((field) => [field, item[field]])) as DetailsFacts;

// One test for the table: toEqual's difference names the page and the field that changed.
d('product facts of every detail fixture', () => {
  it('every detail fixture has an expectation and parses to it', () => {
    expect(realPageFiles((f) => f.startsWith('details-'))).toEqual(Object.keys(EXPECTED).sort());
    const expected = Object.fromEntries(Object.entries(EXPECTED).map(([file, facts]) => [file, { ...NONE, ...facts }]));
    expect(Object.fromEntries(Object.keys(EXPECTED).map((file) => [file, factsOf(parse(file))]))).toEqual(expected);
  });
});

// ---------------------------------------------------------------- synthetic pages

const ASIN = 'B0TEST0001';
const facts = (body: string, asin: string | null = ASIN): DetailsFacts =>
  extractFacts(new Doc(`<html><body><input type="hidden" id="ASIN" value="${ASIN}">${body}</body></html>`), asin);

const techTable = (rows: [string, string][]) =>
  `<div id="prodDetails"><table id="productDetails_techSpec_section_1">${rows
    .map(([k, v]) => `<tr><th class="prodDetSectionEntry">${k}</th><td class="prodDetAttrValue">&lrm;${v}</td></tr>`)
    .join('')}</table></div>`;
const bullets = (rows: [string, string][]) =>
  `<div id="detailBulletsWrapper_feature_div"><div id="detailBullets_feature_div"><ul>${rows
    .map(([k, v]) => `<li><span class="a-list-item"><span class="a-text-bold">${k} &rlm; : &lrm; </span><span>${v}</span></span></li>`)
    .join('')}</ul></div></div>`;
const overview = (rows: [string, string][]) =>
  `<div id="productOverview_feature_div"><table>${rows
    .map(([k, v]) => `<tr><td><span class="a-text-bold">${k}</span></td><td><span class="po-break-word">${v}</span></td></tr>`)
    .join('')}</table></div>`;

describe('product-details rows', () => {
  it('takes the summary table at the top only for rows the details tables lack', () => {
    const f = facts(
      overview([
        ['Manufacturer', 'Summary Corp'],
        ['Model Name', 'X100'],
        ['Product Dimensions', '12 x 6 x 3 inches'],
      ]) +
        techTable([
          ['Manufacturer', 'Acme GmbH'],
          ['Package Dimensions', '14 x 8 x 4 inches'],
        ]),
    );
    expect(f.manufacturer).toBe('Acme GmbH');
    expect(f.modelNumber).toBe('X100');
    // The product's own dimensions (only in the summary) win over the package's.
    expect(f.dimensions).toBe('12 x 6 x 3 inches');
  });

  it('strips bidi and zero-width marks from labels and values', () => {
    const f = facts(
      `<ul id="detail-bullets"><li><b>\u2066Manufacturer\u2069\u200f:\u200e</b> \u200eAcme\u200f</li></ul>` +
        bullets([['Item model\u200b number', '\u200eAB-12\u200e']]),
    );
    expect(f.manufacturer).toBe('Acme');
    expect(f.modelNumber).toBe('AB-12');
  });

  it('matches whole labels only', () => {
    const f = facts(
      bullets([
        ['Descatalogado por el fabricante', 'No'],
        ['Battery Weight', '148 g'],
        ['Package Dimensions Note', 'see box'],
      ]),
    );
    expect([f.manufacturer, f.weight, f.dimensions]).toEqual([null, null, null]);
  });

  it.each<[string, [string, string][], Partial<DetailsFacts>]>([
    [
      'Italian',
      [
        ['Produttore', 'Bialetti'],
        ['Numero modello articolo', '0001162'],
        ['Peso articolo', '581 g'],
        ['Dimensioni prodotto', '15 x 10 x 20 cm'],
        ['Disponibile su Amazon.it a partire dal', '27 marzo 2019'],
      ],
      { manufacturer: 'Bialetti', modelNumber: '0001162', weight: '581 g', dimensions: '15 x 10 x 20 cm', firstAvailable: '2019-03-27' },
    ],
    [
      'Japanese',
      [
        ['メーカー', 'アイリスオーヤマ(IRIS OHYAMA)'],
        ['型番', 'IC-FAC2'],
        ['商品の重量', '1.2 kg'],
        ['梱包サイズ', '30 x 20 x 10 cm'],
        ['Amazon.co.jp での取り扱い開始日', '2019/3/27'],
      ],
      {
        manufacturer: 'アイリスオーヤマ(IRIS OHYAMA)',
        modelNumber: 'IC-FAC2',
        weight: '1.2 kg',
        dimensions: '30 x 20 x 10 cm',
        firstAvailable: '2019-03-27',
      },
    ],
    [
      'German (2020+ bullets)',
      [
        ['Hersteller', 'Cecotec'],
        ['Modellnummer', '05042'],
        ['Produktabmessungen', '13,8 x 23 x 30 cm; 1,6 Kilogramm'],
        ['Im Angebot von Amazon.de seit', '1. Januar 2019'],
      ],
      {
        manufacturer: 'Cecotec',
        modelNumber: '05042',
        weight: '1,6 Kilogramm',
        dimensions: '13,8 x 23 x 30 cm',
        firstAvailable: '2019-01-01',
      },
    ],
    [
      'French',
      [
        ['Fabricant', 'Moulinex'],
        ['Numéro du modèle de l’article', 'LM8'],
        ["Poids de l'article", '2,3 kg'],
        ['Dimensions du produit (L x l x h)', '20 x 18 x 40 cm'],
        ['Date de mise en ligne sur Amazon.fr', '1er juin 2020'],
      ],
      { manufacturer: 'Moulinex', modelNumber: 'LM8', weight: '2,3 kg', dimensions: '20 x 18 x 40 cm', firstAvailable: '2020-06-01' },
    ],
    [
      'Dutch',
      [
        ['Fabrikant', 'Philips'],
        ['Modelnummer artikel', 'HD9200'],
        ['Gewicht', '4,1 kg'],
        ['Productafmetingen', '30 x 40 x 30 cm'],
        ['Datum eerste beschikbaarheid', '27 maart 2019'],
      ],
      { manufacturer: 'Philips', modelNumber: 'HD9200', weight: '4,1 kg', dimensions: '30 x 40 x 30 cm', firstAvailable: '2019-03-27' },
    ],
    [
      'Swedish',
      [
        ['Tillverkare', 'Bosch'],
        ['Modellnummer', 'GSR12'],
        ['Artikelns vikt', '900 g'],
        ['Produktens mått', '20 x 8 x 22 cm'],
        ['Första tillgängliga datum', '27 mars 2019'],
      ],
      { manufacturer: 'Bosch', modelNumber: 'GSR12', weight: '900 g', dimensions: '20 x 8 x 22 cm', firstAvailable: '2019-03-27' },
    ],
    [
      'Polish',
      [
        ['Producent', 'Zelmer'],
        ['Numer modelu', 'ZMM1'],
        ['Waga produktu', '1,5 kg'],
        ['Wymiary produktu', '25 x 15 x 30 cm'],
        ['Data pierwszej dostępności', '27 marca 2019'],
      ],
      { manufacturer: 'Zelmer', modelNumber: 'ZMM1', weight: '1,5 kg', dimensions: '25 x 15 x 30 cm', firstAvailable: '2019-03-27' },
    ],
    [
      'Turkish',
      [
        ['Üretici', 'Arçelik'],
        ['Ürün Model Numarası', 'K3300'],
        ['Ürün Ağırlığı', '2 kg'],
        ['Ürün Boyutları', '20 x 20 x 30 cm'],
        ['Satışa Sunulduğu İlk Tarih', '27 Mart 2019'],
      ],
      { manufacturer: 'Arçelik', modelNumber: 'K3300', weight: '2 kg', dimensions: '20 x 20 x 30 cm', firstAvailable: '2019-03-27' },
    ],
    [
      'Arabic',
      [
        ['الشركة المصنعة', 'سامسونج'],
        ['رقم موديل السلعة', 'SM-A10'],
        ['وزن السلعة', '168 غرام'],
        ['أبعاد المنتج', '15 x 7 x 0.8 سم'],
        ['تاريخ توفر أول منتج', '27 مارس 2019'],
      ],
      { manufacturer: 'سامسونج', modelNumber: 'SM-A10', weight: '168 غرام', dimensions: '15 x 7 x 0.8 سم', firstAvailable: '2019-03-27' },
    ],
    [
      'Mexican Spanish',
      [
        ['Fabricante', 'Oster'],
        ['Número de modelo del producto', 'BLSTPB'],
        ['Producto en Amazon.com.mx desde', '27 marzo 2019'],
      ],
      { manufacturer: 'Oster', modelNumber: 'BLSTPB', firstAvailable: '2019-03-27' },
    ],
  ])('%s labels and dates', (_language, rows, expected) => {
    expect(facts(bullets(rows))).toMatchObject(expected);
  });

  it('splits a dimensions row that carries the weight, unless a weight row exists', () => {
    expect(facts(bullets([['Product Dimensions', '10 x 5 x 2 inches; 1.2 Pounds']]))).toMatchObject({
      dimensions: '10 x 5 x 2 inches',
      weight: '1.2 Pounds',
    });
    expect(
      facts(
        bullets([
          ['Product Dimensions', '10 x 5 x 2 inches; 1.2 Pounds'],
          ['Item Weight', '1.1 pounds'],
        ]),
      ),
    ).toMatchObject({ dimensions: '10 x 5 x 2 inches', weight: '1.1 pounds' });
  });

  it("prefers the item's weight and dimensions over the shipping weight and the package's", () => {
    const f = facts(
      techTable([
        ['Package Dimensions', '12 x 8 x 4 inches; 2 Pounds'],
        ['Shipping Weight', '2 pounds (<a href="/gp/help">View shipping rates and policies</a>)'],
        ['Product Dimensions', '10 x 5 x 2 inches'],
        ['Item Weight', '1.5 pounds'],
      ]),
    );
    expect([f.dimensions, f.weight]).toEqual(['10 x 5 x 2 inches', '1.5 pounds']);
    // Only the shipping weight: it is what the page states, without the link text.
    expect(facts(techTable([['Shipping Weight', '2 pounds (<a href="/gp/help">View shipping rates and policies</a>)']])).weight).toBe(
      '2 pounds',
    );
    // The product's weight joined to its dimensions beats the shipping weight.
    expect(
      facts(
        techTable([
          ['Shipping Weight', '2 pounds'],
          ['Product Dimensions', '10 x 5 x 2 inches; 1.2 Pounds'],
        ]),
      ).weight,
    ).toBe('1.2 Pounds');
  });

  it('prefers the plain dimensions row over one with an axis legend', () => {
    const f = facts(
      techTable([
        ['Item Dimensions L x W x H', '5.9"L x 2.8"W x 1.1"H'],
        ['Item Dimensions', '5.9 x 2.8 x 1.1 inches'],
      ]),
    );
    expect(f.dimensions).toBe('5.9 x 2.8 x 1.1 inches');
    expect(facts(techTable([['Item Dimensions LxWxH', '5.9 x 2.8 x 1.1 inches']])).dimensions).toBe('5.9 x 2.8 x 1.1 inches');
  });

  it('reads the 2023+ product facts and the pre-2020 bold-label bullets', () => {
    const facts2023 = `<div id="productFactsDesktopExpander"><div class="a-fixed-left-grid product-facts-detail"><div class="a-fixed-left-grid-inner">
      <div class="a-fixed-left-grid-col a-col-left"><span class="a-color-base">Manufacturer</span></div>
      <div class="a-fixed-left-grid-col a-col-right"><span class="a-color-base">Levi Strauss &amp; Co.</span></div></div></div></div>`;
    expect(facts(facts2023).manufacturer).toBe('Levi Strauss & Co.');
    const old = `<div id="detail-bullets"><div class="content"><ul><li><b>Item model number:</b> LT-100</li>
      <li><b>Date First Available:</b> March 27, 2019</li></ul></div></div>`;
    expect(facts(old)).toMatchObject({ modelNumber: 'LT-100', firstAvailable: '2019-03-27' });
  });

  it('ISBN-13 without hyphens; the ISBN-10 row is not it', () => {
    expect(
      facts(
        bullets([
          ['ISBN-10', '0062796984'],
          ['ISBN-13', '978-0062796981'],
        ]),
      ).isbn13,
    ).toBe('9780062796981');
    expect(facts(bullets([['ISBN-10', '9780062796981']])).isbn13).toBeNull();
    expect(facts(bullets([['ISBN-13', 'n/a']])).isbn13).toBeNull();
  });

  it.each<[string, string, [string, string][], Partial<DetailsFacts>]>([
    [
      'Mexican import page (techSpec table, weight in words)',
      'table',
      [
        ['Número de modelo del producto', 'A1234-US'],
        ['Peso del producto', '1,3 Libras'],
      ],
      { modelNumber: 'A1234-US', weight: '1,3 Libras' },
    ],
    [
      'Spanish bullets',
      'bullets',
      [
        ['Número de modelo', 'BLSTPB'],
        ['Peso del artículo', '2,5 Kilogramos'],
      ],
      { modelNumber: 'BLSTPB', weight: '2,5 Kilogramos' },
    ],
    [
      'Spanish word order',
      'bullets',
      [
        ['Número del modelo', 'X-1'],
        ['Peso de producto', '350 Gramos'],
      ],
      { modelNumber: 'X-1', weight: '350 Gramos' },
    ],
    [
      'Spanish abbreviation and unit legend',
      'table',
      [
        ['N.º de modelo', 'QX9'],
        ['Peso (Onzas)', '12 Onzas'],
      ],
      { modelNumber: 'QX9', weight: '12 Onzas' },
    ],
    [
      'Portuguese',
      'bullets',
      [
        ['Número do modelo do item', 'PT-7'],
        ['Peso do produto', '1,2 Quilogramas'],
      ],
      { modelNumber: 'PT-7', weight: '1,2 Quilogramas' },
    ],
  ])('model and weight rows: %s', (_case, layout, rows, expected) => {
    expect(facts(layout === 'table' ? techTable(rows) : bullets(rows))).toMatchObject(expected);
  });

  it.each([
    ['Abmessungen', '17,5 x 2,3 x 23,4 cm'],
    ['Maße', '17,5 x 2,3 x 23,4 cm'],
    ['Produktabmessungen', '17,5 x 2,3 x 23,4 cm'],
    ['Verpackungsabmessungen', '17,5 x 2,3 x 23,4 cm'],
    ['Abmessungen (L x B x H)', '17,5 x 2,3 x 23,4 cm'],
  ])('German book dimensions: %s', (label, value) => {
    expect(
      facts(
        bullets([
          ['Herausgeber', 'Suhrkamp Verlag (12. März 2019)'],
          [label, value],
        ]),
      ).dimensions,
    ).toBe(value);
  });

  it('German "Größe und/oder Gewicht" (pre-2020 bullets) carries the dimensions and the weight', () => {
    const old =
      '<div id="detail-bullets"><div class="content"><ul><li><b>Größe und/oder Gewicht:</b> 17,5 x 2,3 x 23,4 cm ; 499 g</li></ul></div></div>';
    expect(facts(old)).toMatchObject({ dimensions: '17,5 x 2,3 x 23,4 cm', weight: '499 g' });
  });

  it.each([
    ['Data de disponibilidade', '27 set. 2020', '2020-09-27'],
    ['Disponível desde', '3 out. 2019', '2019-10-03'],
    ['Data da primeira disponibilidade', '12 fevereiro 2021', '2021-02-12'],
    ['Disponível para compra desde', '7 maio 2022', '2022-05-07'],
    ['Data de disponibilidade', '27/11/2020', '2020-11-27'],
  ])('Portuguese first-available "%s" reads its date in Portuguese on any marketplace', (label, value, date) => {
    expect(facts(bullets([[label, value]])).firstAvailable).toBe(date);
  });

  it('the label decides the language: a Spanish label reads "ago." as August, an English one reads only its own short months', () => {
    expect(facts(bullets([['Producto en Amazon.es desde', '3 ago. 2020']])).firstAvailable).toBe('2020-08-03');
    expect(facts(bullets([['Disponibile su Amazon.it a partire dal', '1 set. 2020']])).firstAvailable).toBe('2020-09-01');
    expect(facts(bullets([['Date First Available', 'out 3, 2020']])).firstAvailable).toBeNull();
  });

  it('a first-available row without a readable date gives null', () => {
    expect(facts(bullets([['Date First Available', 'unknown']])).firstAvailable).toBeNull();
  });
});

describe('rating histogram', () => {
  const tableRow = (star: number, cells: string, attrs = '') =>
    `<tr class="a-histogram-row" ${attrs}><td>${star} star</td><td>${cells}</td></tr>`;

  it('gives all zeros for a histogram shown without ratings', () => {
    const rows = [5, 4, 3, 2, 1].map((s) => tableRow(s, `${s} star (0%)</td><td>0%`)).join('');
    expect(facts(`<table id="histogramTable">${rows}</table>`).ratingHistogram).toEqual(ZEROS);
  });

  it('takes the percentages of the labels where the visible numbers are counts', () => {
    const counts = [1234, 210, 80, 33, 120];
    const pcts = [73, 12, 5, 2, 8];
    const rows = [5, 4, 3, 2, 1]
      .map((s, i) => tableRow(s, `<a aria-label="${pcts[i]} percent of reviews have ${s} stars">${counts[i]!.toLocaleString('en-US')}</a>`))
      .join('');
    expect(facts(`<div id="cm_cr_dp_d_rating_histogram"><table id="histogramTable">${rows}</table></div>`).ratingHistogram).toEqual(
      hist(73, 12, 5, 2, 8),
    );
    // Counts alone are not percentages.
    const countsOnly = [5, 4, 3, 2, 1].map((s, i) => tableRow(s, String(counts[i]))).join('');
    expect(facts(`<table id="histogramTable">${countsOnly}</table>`).ratingHistogram).toBeNull();
  });

  it('reads the 2025+ list whose rows repeat every column as spacers', () => {
    const spacers = '<span>71%</span><span>9%</span><span>5%</span><span>4%</span><span>11%</span>';
    const li = (s: number, p: number) =>
      `<li><span class="a-list-item"><a aria-label="${p} percent of reviews have ${s} stars" href="/portal/customer-reviews/X/ref=acr_dp_hist_${s}">
       <div>${spacers}${s} star</div><div class="a-meter" role="progressbar" aria-valuenow="${p}"></div><div>${spacers}${p}%</div></a></span></li>`;
    const list = `<ul id="histogramTable">${li(5, 71)}${li(4, 9)}${li(3, 5)}${li(2, 4)}${li(1, 11)}</ul>`;
    expect(facts(list).ratingHistogram).toEqual(hist(71, 9, 5, 4, 11));
    // Without labels and meters, the row's own percentage is the one after the spacers.
    const bare = (p: number) => `<li><span class="a-list-item"><div>${spacers}${p}%</div></span></li>`;
    expect(facts(`<ul id="histogramTable">${bare(71)}${bare(9)}${bare(5)}${bare(4)}${bare(11)}</ul>`).ratingHistogram).toEqual(
      hist(71, 9, 5, 4, 11),
    );
    // Meters alone, and Turkish labels that put the sign first.
    const meters = [50, 20, 10, 10, 10].map((p) => `<tr><td><div class="a-meter" aria-valuenow="${p}%"></div></td></tr>`).join('');
    expect(facts(`<table id="histogramTable">${meters}</table>`).ratingHistogram).toEqual(hist(50, 20, 10, 10, 10));
    const tr = [64, 22, 7, 2, 5].map((p, i) => `<tr><td><a title="Değerlendirmelerin %${p}'i ${5 - i} yıldız">x</a></td></tr>`).join('');
    expect(facts(`<table id="histogramTable">${tr}</table>`).ratingHistogram).toEqual(hist(64, 22, 7, 2, 5));
    // Arabic: Arabic-Indic digits and the percent written as a word, in rows that are not a table or list.
    const ar = ['٦٤', '٢٢', '٧', '٢', '٥']
      .map((p, i) => `<div class="a-histogram-row" aria-label="${p} بالمائة من المراجعات لديها ${5 - i} نجوم"></div>`)
      .join('');
    expect(facts(`<div id="cm_cr_dp_d_rating_histogram">${ar}</div>`).ratingHistogram).toEqual(hist(64, 22, 7, 2, 5));
  });

  it('places rows by the star they link to when the list is not the usual five rows', () => {
    const rows = [
      `<li><a href="/product-reviews/X?filterByStar=five_star" aria-label="90 percent of reviews have 5 stars">5</a></li>`,
      `<li><a href="/product-reviews/X?filterByStar=one_star" aria-label="10 percent of reviews have 1 stars">1</a></li>`,
    ].join('');
    expect(facts(`<ul id="histogramTable">${rows}</ul>`).ratingHistogram).toEqual(hist(90, 0, 0, 0, 10));
    // Without the rest adding up to the whole, missing stars are unknown, not zero.
    const partial = `<li><a href="/product-reviews/X?filterByStar=five_star" aria-label="60 percent of reviews have 5 stars">5</a></li>`;
    expect(facts(`<ul id="histogramTable">${partial}</ul>`).ratingHistogram).toBeNull();
  });

  it('is null without a histogram, and other sites\u2019 rating widgets are not it', () => {
    expect(facts('<div id="reviewsMedley"><p>No customer reviews</p></div>').ratingHistogram).toBeNull();
    const goodreads = [5, 4, 3, 2, 1].map((s) => `<li><a aria-label="20 percent of reviews have ${s} stars"></a></li>`).join('');
    expect(facts(`<ul id="bookratings_histogramTable">${goodreads}</ul>`).ratingHistogram).toBeNull();
  });
});

describe('parent ASIN', () => {
  const script = (json: string) => `<script type="text/javascript">var data = ${json};</script>`;

  it("is the page's own ASIN when its data names itself as parent", () => {
    expect(facts(script(`{"mediaAsin":"${ASIN}","parentAsin":"${ASIN}","useVSEVideos":true}`)).parentAsin).toBe(ASIN);
  });

  it('reads twister JSON, escaped data attributes, hidden inputs and share links', () => {
    expect(facts(script(`{"currentAsin" : "${ASIN}", "parentAsin" : "B0PARENT01"}`)).parentAsin).toBe('B0PARENT01');
    expect(facts(`<div data-a-state="{&quot;parent_asin&quot;:&quot;B0PARENT02&quot;}"></div>`).parentAsin).toBe('B0PARENT02');
    expect(facts(`<form><input type="hidden" name="parentASIN" value="B0PARENT03"></form>`).parentAsin).toBe('B0PARENT03');
    expect(facts(`<a id="swfText" href="/gp/pdp/taf/ref=x?ie=UTF8&amp;parentASIN=B0PARENT04&amp;tt=sh">Email</a>`).parentAsin).toBe(
      'B0PARENT04',
    );
  });

  it('ignores other keys and other products', () => {
    // The media-formats family and a series bundle are not the variation parent.
    expect(facts(`<a href="/x?landingAsin=${ASIN}&amp;tasParentAsin=B0FAMILY01&amp;asin=${ASIN}">CD</a>`).parentAsin).toBeNull();
    expect(facts(`<input type="hidden" name="metadata.batchInfo.parentAsin" value="B0SERIES01">`).parentAsin).toBeNull();
    // A carousel item of another product carries that product's parent.
    expect(facts(script(`[{"asin":"B0OTHER001","parentAsin":"B0OTHERP01"}]`)).parentAsin).toBeNull();
    expect(facts(script(`{"parentAsin":null}`)).parentAsin).toBeNull();
    expect(facts('<p>no variation data</p>').parentAsin).toBeNull();
  });
});
