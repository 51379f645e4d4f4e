/**
 * parseDetailsPage on our own pages (parsers/test-pages/, in every clone): one page per layout the
 * parser reads, each item asserted whole. What each page exercises:
 * - details-US-2019: #priceblock_ourprice with a struck list price, colorImages JSON (a null hiRes
 *   falls back to the largest 'main'), classic #twister, "Sold by X and Fulfilled by Amazon.", a
 *   "back to results" breadcrumb, techSpec/detailBullets tables (rank and review rows are no
 *   specifications; the shipping weight loses its link), a 2017-2019 histogram with one row unlinked,
 *   #vpcButton coupon, "New (3) from", a UPC row of two codes, the 2016-2020 #snsBuyBox price, the
 *   twister script's parent ASIN, Prime in #priceBadging.
 * - details-JP-2024: "￥2,392", "5つ星のうち4.3", "1,234個の評価", a store byline in Japanese, bidi
 *   marks around the bullets' ":", the Japanese rank formats, a package-size row joined to its weight,
 *   "2023/6/3", the tabular buy box in Japanese, the inline twister, a 2025+ histogram list whose rows
 *   repeat every label, "過去1か月で1000点以上購入されました", Amazon's Choice and deal badges, a
 *   "JANコード" row, the all-offers ingress "新品 (3点) ￥2,180より", a 定期おトク便 #sns-base-price.
 * - details-ES-book: a book (author byline, no brand), #imgBlkFront with imageGalleryData, the
 *   selected format swatch's "19,85 €", "4,6 de 5 estrellas", "5.182 valoraciones", "nº2.417 en",
 *   ISBN-13 with a hyphen, the book blurb rather than the editorial review, "Vendido y enviado por Amazon."
 * - details-US-2026: a rendered page without scripts: blank .a-offscreen (whole/fraction spans), the
 *   strip's thumbnails, the count in aria-label beside "(12.2K)", offer-display blocks, the 2023+
 *   product facts, a histogram in aria-labels beside counts, best-seller / climate / deal badges; an
 *   Amazon's Choice badge in a carousel is not the product's; the all-offers ingress link outside
 *   the offer blocks, its price in whole/fraction spans.
 * - details-DE-2017-unavailable: "Derzeit nicht verfügbar." in #outOfStock, no price and no reviews,
 *   pre-2020 <b>Key:</b> bullets with #SalesRank and an EAN, escaped "<br/>" in the description, empty
 *   badge slots, the "Andere Verkäufer auf Amazon" box (its lowest new offer; its mixed count ignored).
 * - details-BR-2022: #corePrice_desktop apex table "R$ 1.169,00" / "R$ 1.399,90", "Marca: Aramis",
 *   buying-option accordion rows (the inactive used row's seller is not the buy box's), the twister
 *   script's labels, a Portuguese coupon, "12 maio 2022", a "Código de barras" row, the olp link widget
 *   "Novo (2) a partir de", a "Programe e Poupe" accordion row.
 * - details-product (the page engine's page): 2023+ corePriceDisplay in German, "4,5 von 5 Sternen".
 */
import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
import { parseDetailsPage } from './details';
import { PARSER_VERSION, type DetailsItem, type PageContext } from './types';
import { ownPage, ownPageFiles } from '../test-support/own-pages';

/** The page's marketplace: the code in its name (details-DE-...), for the engine's pages the one they show. */
const ENGINE_PAGES: Record<string, MarketplaceCode> = {
  'details-product.html': 'DE',
  'search-results.html': 'US',
  'offers-listing.html': 'UK',
  'reviews-listing.html': 'IT',
};
/** When the pages were "fetched": what their delivery dates resolve against. */
const FETCHED_AT = new Date('2026-08-18T12:00:00Z');

function contextOf(file: string): PageContext {
  const marketplace = ENGINE_PAGES[file] ?? (file.split('-')[1] as MarketplaceCode);
  return { marketplace, origin: `https://${MARKETPLACES[marketplace].host}`, fetchedAt: FETCHED_AT };
}

const EXPECTED: Record<string, DetailsItem> = {
  'details-BR-2022.html': {
    asin: 'B0TSTBRPOL',
    url: 'https://www.amazon.com.br/dp/B0TSTBRPOL',
    title: 'Camisa Polo Masculina Piquet, Manga Curta',
    brand: 'Aramis',
    price: {
      amount: 1169,
      currency: 'BRL',
    },
    listPrice: {
      amount: 1399.9,
      currency: 'BRL',
    },
    rating: 4.7,
    reviewsCount: 1272,
    availability: {
      status: 'in_stock',
      text: 'Em estoque.',
    },
    mainImage: 'https://m.media-amazon.com/images/I/81brpol._AC_SL1500_.jpg',
    images: ['https://m.media-amazon.com/images/I/81brpol._AC_SL1500_.jpg'],
    features: ['100% algodão piquet'],
    description: null,
    categories: [],
    bestSellersRank: [],
    seller: {
      name: 'Aramis Oficial',
      id: null,
    },
    isPrime: null,
    variants: [
      {
        asin: 'B0TSTBRPOL',
        dimensions: {
          Tamanho: 'M',
          Cor: 'Azul Marinho',
        },
      },
      {
        asin: 'B0TSTBRPO2',
        dimensions: {
          Tamanho: 'G',
          Cor: 'Azul Marinho',
        },
      },
      {
        asin: 'B0TSTBRPO3',
        dimensions: {
          Tamanho: 'M',
          Cor: 'Branco',
        },
      },
    ],
    specifications: {
      'Dimensões do pacote': '30 x 25 x 3 cm; 250 g',
      'Disponível para compra desde': '12 maio 2022',
      Fabricante: 'Aramis Menswear',
      'Código de barras': '7899123456787',
      ASIN: 'B0TSTBRPOL',
    },
    parentAsin: 'B0TSTBRPAR',
    manufacturer: 'Aramis Menswear',
    modelNumber: null,
    weight: '250 g',
    dimensions: '30 x 25 x 3 cm',
    firstAvailable: '2022-05-12',
    isbn13: null,
    gtin: '7899123456787',
    deliveryLocation: null,
    shipping: null,
    deliveryPromise: null,
    unitPrice: null,
    subscribeAndSave: { amount: 1110.55, currency: 'BRL' },
    couponValue: { type: 'percent', value: 10 },
    stockQuantity: null,
    ratingHistogram: {
      '1': 2,
      '2': 1,
      '3': 5,
      '4': 11,
      '5': 81,
    },
    badges: [],
    coupon: 'Economize 10% com o cupom',
    boughtPastMonth: null,
    shipsFrom: 'Amazon.com.br',
    soldBy: 'Aramis Oficial',
    fulfilledByAmazon: true,
    newOffersCount: 2,
    lowestNewPrice: { amount: 1099, currency: 'BRL' },
    missingFields: ['categories', 'bestSellersRank', 'deliveryLocation', 'deliveryPromise'],
    parserVersion: PARSER_VERSION,
  },
  'details-DE-2017-unavailable.html': {
    asin: 'B0TSTDEUHR',
    url: 'https://www.amazon.de/dp/B0TSTDEUHR',
    title: 'Damen Armbanduhr Leder Vintage, Quarz, Schwarz',
    brand: 'Lintimes',
    price: null,
    listPrice: null,
    rating: null,
    reviewsCount: null,
    availability: {
      status: 'out_of_stock',
      text: 'Derzeit nicht verfügbar.',
    },
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/61deuhr._UL1001_.jpg',
    images: ['https://images-na.ssl-images-amazon.com/images/I/61deuhr._UL1001_.jpg'],
    features: ['Gehäuse aus Legierung, Durchmesser 3,5 cm.'],
    description: 'Beschreibung:\nStilvolle Armbanduhr im Vintage-Look.\nFür jeden Tag.',
    categories: ['Uhren', 'Damen'],
    bestSellersRank: [
      {
        category: 'Uhren',
        rank: 103676,
      },
      {
        category: 'Uhren > Damen',
        rank: 289,
      },
    ],
    seller: null,
    isPrime: null,
    variants: [],
    specifications: {
      Artikelgewicht: '32 g',
      Verpackungsabmessungen: '10,2 x 8,1 x 6,4 cm ; 59 g',
      Modellnummer: 'LT-0316',
      EAN: '4260123456788',
      ASIN: 'B0TSTDEUHR',
      'Im Angebot von Amazon.de seit': '16. Mai 2016',
    },
    parentAsin: null,
    manufacturer: null,
    modelNumber: 'LT-0316',
    weight: '32 g',
    dimensions: '10,2 x 8,1 x 6,4 cm',
    firstAvailable: '2016-05-16',
    isbn13: null,
    gtin: '4260123456788',
    deliveryLocation: null,
    shipping: null,
    deliveryPromise: null,
    unitPrice: null,
    subscribeAndSave: null,
    couponValue: null,
    stockQuantity: null,
    ratingHistogram: null,
    badges: [],
    coupon: null,
    boughtPastMonth: null,
    shipsFrom: null,
    soldBy: null,
    fulfilledByAmazon: null,
    newOffersCount: null,
    lowestNewPrice: { amount: 29.95, currency: 'EUR' },
    missingFields: ['price', 'rating', 'reviewsCount', 'seller', 'deliveryLocation', 'deliveryPromise'],
    parserVersion: PARSER_VERSION,
  },
  'details-ES-book.html': {
    asin: '8408123459',
    url: 'https://www.amazon.es/dp/8408123459',
    title: 'El jardín de invierno',
    brand: null,
    price: {
      amount: 19.85,
      currency: 'EUR',
    },
    listPrice: {
      amount: 23.95,
      currency: 'EUR',
    },
    rating: 4.6,
    reviewsCount: 5182,
    availability: {
      status: 'in_stock',
      text: 'Disponible.',
    },
    mainImage: 'https://m.media-amazon.com/images/I/41esbook._SX218_BO1,204,203,200_QL40_.jpg',
    images: [
      'https://m.media-amazon.com/images/I/41esbook._SX218_BO1,204,203,200_QL40_.jpg',
      'https://m.media-amazon.com/images/I/71esback.jpg',
    ],
    features: [],
    description: 'Una novela sobre una familia de Granada.\nPremio de la Crítica 2023.',
    categories: ['Libros', 'Literatura y ficción'],
    bestSellersRank: [
      {
        category: 'Libros',
        rank: 2417,
      },
      {
        category: 'Literatura y ficción',
        rank: 35,
      },
    ],
    seller: {
      name: 'Amazon',
      id: null,
    },
    isPrime: null,
    variants: [],
    specifications: {
      Editorial: 'Planeta (14 marzo 2023)',
      Idioma: 'Español',
      'Tapa blanda': '432 páginas',
      'ISBN-10': '8408123459',
      'ISBN-13': '978-8408123456',
      'Peso del producto': '340 g',
      Dimensiones: '14.5 x 2.8 x 22.5 cm',
    },
    parentAsin: null,
    manufacturer: null,
    modelNumber: null,
    weight: '340 g',
    dimensions: '14.5 x 2.8 x 22.5 cm',
    firstAvailable: null,
    isbn13: '9788408123456',
    gtin: null,
    deliveryLocation: null,
    shipping: null,
    deliveryPromise: null,
    unitPrice: null,
    subscribeAndSave: null,
    couponValue: null,
    stockQuantity: null,
    ratingHistogram: null,
    badges: [],
    coupon: null,
    boughtPastMonth: null,
    shipsFrom: 'Amazon',
    soldBy: 'Amazon',
    fulfilledByAmazon: true,
    newOffersCount: 12,
    lowestNewPrice: { amount: 17.5, currency: 'EUR' },
    missingFields: ['brand', 'features', 'deliveryLocation', 'deliveryPromise'],
    parserVersion: PARSER_VERSION,
  },
  'details-JP-2024.html': {
    asin: 'B0TSTJPBAT',
    url: 'https://www.amazon.co.jp/dp/B0TSTJPBAT',
    title: 'モバイルバッテリー 10000mAh 軽量 薄型 PSE認証済',
    brand: 'Voltra',
    price: {
      amount: 2392,
      currency: 'JPY',
    },
    listPrice: {
      amount: 2990,
      currency: 'JPY',
    },
    rating: 4.3,
    reviewsCount: 1234,
    availability: {
      status: 'in_stock',
      text: '在庫あり。',
    },
    mainImage: 'https://m.media-amazon.com/images/I/61jpbat._AC_SL1200_.jpg',
    images: ['https://m.media-amazon.com/images/I/61jpbat._AC_SL1200_.jpg'],
    features: ['【軽量】約180gの薄型ボディ。', '【急速充電】USB-C PD 20W対応。'],
    description: '旅行にも便利な薄型モバイルバッテリー。',
    categories: ['家電＆カメラ', 'モバイルバッテリー'],
    bestSellersRank: [
      {
        category: '家電＆カメラ',
        rank: 1234,
      },
      {
        category: 'モバイルバッテリー',
        rank: 12,
      },
    ],
    seller: {
      name: 'Voltra Japan',
      id: 'A1TSTJPSELL',
    },
    isPrime: true,
    variants: [
      {
        asin: 'B0TSTJPBAT',
        dimensions: {
          色: 'ブラック',
        },
      },
      {
        asin: 'B0TSTJPWHT',
        dimensions: {
          色: 'ホワイト',
        },
      },
    ],
    specifications: {
      ブランド: 'Voltra',
      商品の重量: '180 グラム',
      梱包サイズ: '16 x 9 x 3 cm; 220 g',
      'Amazon.co.jp での取り扱い開始日': '2023/6/3',
      メーカー: 'Voltra',
      製造元リファレンス: 'VT-PB10K',
      JANコード: '4901234567894',
      ASIN: 'B0TSTJPBAT',
    },
    parentAsin: null,
    manufacturer: 'Voltra',
    modelNumber: 'VT-PB10K',
    weight: '180 グラム',
    dimensions: '16 x 9 x 3 cm',
    firstAvailable: '2023-06-03',
    isbn13: null,
    gtin: '4901234567894',
    deliveryLocation: null,
    shipping: null,
    deliveryPromise: null,
    unitPrice: null,
    subscribeAndSave: { amount: 2272, currency: 'JPY' },
    couponValue: null,
    stockQuantity: null,
    ratingHistogram: {
      '1': 8,
      '2': 4,
      '3': 8,
      '4': 18,
      '5': 62,
    },
    badges: ['amazons_choice', 'limited_time_deal'],
    coupon: null,
    boughtPastMonth: 1000,
    shipsFrom: 'Amazon',
    soldBy: 'Voltra Japan',
    fulfilledByAmazon: true,
    newOffersCount: 3,
    lowestNewPrice: { amount: 2180, currency: 'JPY' },
    missingFields: ['deliveryLocation', 'deliveryPromise'],
    parserVersion: PARSER_VERSION,
  },
  'details-US-2019.html': {
    asin: 'B0TSTSCN01',
    url: 'https://www.amazon.com/dp/B0TSTSCN01',
    title: 'Brightwood Wall Sconce, Plug-in, Set of 2, Matte Black',
    brand: 'Brightwood',
    price: {
      amount: 24.99,
      currency: 'USD',
    },
    listPrice: {
      amount: 34.99,
      currency: 'USD',
    },
    rating: 4.4,
    reviewsCount: 2318,
    availability: {
      status: 'in_stock',
      text: 'In Stock.',
    },
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/71SCNmainA._AC_SL1500_.jpg',
    images: [
      'https://images-na.ssl-images-amazon.com/images/I/71SCNmainA._AC_SL1500_.jpg',
      'https://images-na.ssl-images-amazon.com/images/I/61SCNsideB._AC_SL1500_.jpg',
      'https://images-na.ssl-images-amazon.com/images/I/41SCNboxC._AC_SX522_.jpg',
    ],
    features: [
      'PLUG-IN SETUP: a 6 ft cord with an inline switch, no hardwiring needed.',
      'SET OF 2: two sconces with E26 sockets, bulbs not included.',
    ],
    description: 'Two plug-in sconces for a bedside or a hallway.\nThe matte black shade points the light down.',
    categories: ['Tools & Home Improvement', 'Lighting & Ceiling Fans', 'Wall Sconces'],
    bestSellersRank: [
      {
        category: 'Tools & Home Improvement',
        rank: 4512,
      },
      {
        category: 'Wall Sconces',
        rank: 12,
      },
    ],
    seller: {
      name: 'Brightwood Direct',
      id: 'A3TSTSELLER1',
    },
    isPrime: true,
    variants: [
      {
        asin: 'B0TSTSCN01',
        dimensions: {
          Color: 'Matte Black',
        },
      },
      {
        asin: 'B0TSTSCN02',
        dimensions: {
          Color: 'Brass',
        },
      },
    ],
    specifications: {
      Brand: 'Brightwood',
      Manufacturer: 'Brightwood Lighting Co.',
      'Part Number': 'BW-SC-02',
      'Item Weight': '2.15 pounds',
      'Product Dimensions': '10.2 x 5.5 x 7.1 inches',
      'Item model number': 'BW-SC-02-BLK',
      UPC: '084365789121 084365789138',
      ASIN: 'B0TSTSCN01',
      'Shipping Weight': '3 pounds (View shipping rates and policies)',
      'Date First Available': 'June 5, 2018',
    },
    parentAsin: 'B0TSTSCNP0',
    manufacturer: 'Brightwood Lighting Co.',
    modelNumber: 'BW-SC-02-BLK',
    weight: '2.15 pounds',
    dimensions: '10.2 x 5.5 x 7.1 inches',
    firstAvailable: '2018-06-05',
    isbn13: null,
    gtin: '084365789121',
    deliveryLocation: null,
    shipping: null,
    deliveryPromise: null,
    unitPrice: null,
    subscribeAndSave: { amount: 23.74, currency: 'USD' },
    couponValue: { type: 'percent', value: 5 },
    stockQuantity: null,
    ratingHistogram: {
      '1': 10,
      '2': 0,
      '3': 9,
      '4': 20,
      '5': 61,
    },
    badges: [],
    coupon: 'Save an extra 5% when you apply this coupon',
    boughtPastMonth: null,
    shipsFrom: 'Amazon',
    soldBy: 'Brightwood Direct',
    fulfilledByAmazon: true,
    newOffersCount: 3,
    lowestNewPrice: { amount: 22.5, currency: 'USD' },
    missingFields: ['deliveryLocation', 'deliveryPromise'],
    parserVersion: PARSER_VERSION,
  },
  'details-US-2026.html': {
    asin: 'B0TSTPWRBK',
    url: 'https://www.amazon.com/dp/B0TSTPWRBK',
    title: 'Kestrel Power Bank 20000mAh, 22.5W Fast Charging Portable Charger with Built-in USB-C Cable',
    brand: 'Kestrel',
    price: {
      amount: 19.99,
      currency: 'USD',
    },
    listPrice: {
      amount: 25.99,
      currency: 'USD',
    },
    rating: 4.6,
    reviewsCount: 12208,
    availability: {
      status: 'in_stock',
      text: 'Only 3 left in stock - order soon.',
    },
    mainImage: 'https://m.media-amazon.com/images/I/71pwrA._AC_SL1500_.jpg',
    images: [
      'https://m.media-amazon.com/images/I/71pwrA._AC_SL1500_.jpg',
      'https://m.media-amazon.com/images/I/51pwrB.jpg',
      'https://m.media-amazon.com/images/I/61pwrC.jpg',
    ],
    features: ['20000mAh capacity charges a phone about four times.', 'Built-in USB-C cable, no cable to carry.'],
    description: null,
    categories: [],
    bestSellersRank: [
      {
        category: 'Cell Phones & Accessories',
        rank: 5211,
      },
      {
        category: 'Cell Phone Portable Power Banks',
        rank: 1,
      },
    ],
    seller: {
      name: 'Kestrel Direct',
      id: 'A2TSTKESTRL',
    },
    isPrime: null,
    variants: [
      {
        asin: 'B0TSTPWRBK',
        dimensions: {
          Color: 'Black',
        },
      },
      {
        asin: 'B0TSTPWRBL',
        dimensions: {
          Color: 'Blue',
        },
      },
    ],
    specifications: {
      'Model Name': 'PB-20K',
      'Product Dimensions': '5.9 x 2.8 x 1.1 inches; 12.3 ounces',
      'Date First Available': 'December 20, 2024',
    },
    parentAsin: null,
    manufacturer: null,
    modelNumber: 'PB-20K',
    weight: '12.3 Ounces',
    dimensions: '5.9 x 2.8 x 1.1 inches',
    firstAvailable: '2024-12-20',
    isbn13: null,
    gtin: null,
    deliveryLocation: { text: 'Aldie 20105', postalCode: '20105' },
    shipping: { amount: 0, currency: 'USD' },
    deliveryPromise: { text: 'Friday, August 21', earliest: '2026-08-21', latest: '2026-08-21' },
    unitPrice: { amount: 0.45, currency: 'USD', unit: 'Ounce' },
    subscribeAndSave: null,
    couponValue: { type: 'amount', value: 3 },
    stockQuantity: 3,
    ratingHistogram: {
      '1': 4,
      '2': 2,
      '3': 4,
      '4': 12,
      '5': 78,
    },
    badges: ['best_seller', 'climate_pledge_friendly', 'limited_time_deal'],
    coupon: 'Apply $3 coupon',
    boughtPastMonth: 10000,
    shipsFrom: 'Amazon',
    soldBy: 'Kestrel Direct',
    fulfilledByAmazon: true,
    newOffersCount: 4,
    lowestNewPrice: { amount: 18.49, currency: 'USD' },
    missingFields: ['categories'],
    parserVersion: PARSER_VERSION,
  },
  'details-product.html': {
    asin: 'B0TESTLAMP',
    url: 'https://www.amazon.de/dp/B0TESTLAMP',
    title: 'Tischleuchte „Lumo“ aus Eiche & Leinen, 40 cm, dimmbar',
    brand: 'Lumo',
    price: {
      amount: 59.49,
      currency: 'EUR',
    },
    listPrice: {
      amount: 69.99,
      currency: 'EUR',
    },
    rating: 4.5,
    reviewsCount: 1234,
    availability: {
      status: 'in_stock',
      text: 'Nur noch 3 auf Lager',
    },
    mainImage: 'https://m.media-amazon.com/images/I/71test._AC_SL1500_.jpg',
    images: ['https://m.media-amazon.com/images/I/71test._AC_SL1500_.jpg'],
    features: ['Massive Eiche & Leinenschirm – handgefertigt in Portugal', 'Dimmbar in 3 Stufen (< 5 W LED, E27)'],
    description:
      'Eine Leuchte für den Esstisch – 寸法 40 cm, Gewicht 1,8 kg. Dazu passt die Stehleuchte „Lumo XL“.\nPflege: mit einem trockenen Tuch <abwischen>. © 2026 Lumo &ersand&x ∉ ¬it; 💡',
    categories: ['Küche, Haushalt & Wohnen', 'Tischleuchten'],
    bestSellersRank: [
      {
        category: 'Küche, Haushalt & Wohnen',
        rank: 1234,
      },
      {
        category: 'Tischleuchten',
        rank: 12,
      },
    ],
    seller: null,
    isPrime: null,
    variants: [],
    specifications: {
      Marke: 'Lumo',
      Farbe: 'Eiche natur',
      Produktabmessungen: '25 x 25 x 40 cm; 1,8 Kilogramm',
      Leistung: '5 Watt',
      ASIN: 'B0TESTLAMP',
      'Im Angebot von Amazon.de seit': '3. März 2026',
    },
    parentAsin: null,
    manufacturer: null,
    modelNumber: null,
    weight: '1,8 Kilogramm',
    dimensions: '25 x 25 x 40 cm',
    firstAvailable: '2026-03-03',
    isbn13: null,
    gtin: null,
    deliveryLocation: null,
    shipping: null,
    deliveryPromise: null,
    unitPrice: null,
    subscribeAndSave: null,
    couponValue: null,
    stockQuantity: 3,
    ratingHistogram: null,
    badges: [],
    coupon: null,
    boughtPastMonth: null,
    shipsFrom: null,
    soldBy: 'Lumo Design GmbH',
    fulfilledByAmazon: null,
    newOffersCount: null,
    lowestNewPrice: null,
    missingFields: ['seller', 'deliveryLocation', 'deliveryPromise'],
    parserVersion: PARSER_VERSION,
  },
};

describe('parseDetailsPage on our own pages', () => {
  it('has an expectation for every own details page', () => {
    expect(ownPageFiles((f) => f.startsWith('details-'))).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))('%s', (file) => {
    expect(parseDetailsPage(ownPage(file), contextOf(file))).toEqual(EXPECTED[file]);
  });
});
