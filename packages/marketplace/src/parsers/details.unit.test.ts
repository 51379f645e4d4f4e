import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
/**
 * Expected values below were read from the fixture HTML by hand (element and
 * attribute named in each comment), not copied from parser output.
 */
import { parseDetailsPage } from './details';
import type { AvailabilityStatus, DetailsItem, Money } from './types';
import { PARSER_VERSION } from './types';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const d = describeOnRealPages;

/** The marketplace's public origin (`https://www.amazon.de` for DE). */
const originOf = (code: string) => `https://${MARKETPLACES[code as MarketplaceCode].host}`;

interface Expected {
  asin: string;
  title: string | null;
  price: Money | null;
  listPrice: Money | null;
  rating: number | null;
  reviewsCount: number | null;
  availability: AvailabilityStatus;
  availabilityText: string | null;
  brand: string | null;
  mainImage: string | null;
  missingFields: string[];
}

const usd = (amount: number): Money => ({ amount, currency: 'USD' });
const gbp = (amount: number): Money => ({ amount, currency: 'GBP' });
const eur = (amount: number): Money => ({ amount, currency: 'EUR' });
const brl = (amount: number): Money => ({ amount, currency: 'BRL' });

const EXPECTED: Record<string, Expected> = {
  // Book box set: buy box "Comprar novo: R$ 19,90", #listPrice "R$ 59,90", #acrPopover title
  // "4,6 de 5 estrelas", "241 avaliações de clientes", "Em estoque.", author byline (no brand),
  // #imgBlkFront data-a-dynamic-image largest key (_SX358_, 360x499).
  'details-BR-8565042472.html': {
    asin: '8565042472',
    title: 'O Essencial da Segunda Guerra Mundial - Caixa com 3 Volumes',
    price: brl(19.9),
    listPrice: brl(59.9),
    rating: 4.6,
    reviewsCount: 241,
    availability: 'in_stock',
    availabilityText: 'Em estoque.',
    brand: null,
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/411e-CovmYL._SX358_BO1,204,203,200_.jpg',
    missingFields: ['brand', 'features', 'categories', 'deliveryLocation'],
  },
  // Apparel parent: #corePrice_desktop "Por:" a-price-range R$169,00 - R$199,90 (a range, nothing
  // struck), "Marca: Aramis", no #availability block, landing data-old-hires.
  'details-BR-B085VK7LYQ.html': {
    asin: 'B085VK7LYQ',
    title: 'Camisa Polo Listra na Gola, Aramis, Masculino',
    price: brl(169),
    listPrice: null,
    rating: 4.7,
    reviewsCount: 272,
    availability: 'unknown',
    availabilityText: null,
    brand: 'Aramis',
    mainImage: 'https://m.media-amazon.com/images/I/81kqffaeEDL._AC_SL1500_.jpg',
    missingFields: ['availability', 'bestSellersRank', 'seller', 'deliveryLocation', 'deliveryPromise'],
  },
  // Smartwatch from a marketplace seller, no reviews yet: no #acrPopover, #corePrice "R$272,00" with a
  // clippable coupon beside it (not a price), #availability "Estimativa de envio de 2 a 3 dias." (a
  // shipping estimate, so orderable), "Marca: HIKA" byline, landing data-old-hires.
  'details-BR-B09YRKYRSM.html': {
    asin: 'B09YRKYRSM',
    title:
      "Relógio inteligente HIKA Mens, Chamadas Bluetooth, Pedômetro com Alto -Falante, Tela de Toque Completa de 1,28 ', Monitor de Freqüência Cardíaca, IP68 WaterProf, Composição com Android OS Verde",
    price: brl(272),
    listPrice: null,
    rating: null,
    reviewsCount: null,
    availability: 'in_stock',
    availabilityText: 'Estimativa de envio de 2 a 3 dias.',
    brand: 'HIKA',
    mainImage: 'https://m.media-amazon.com/images/I/719aH4BHRCL._AC_SL1500_.jpg',
    missingFields: ['rating', 'reviewsCount', 'categories', 'bestSellersRank', 'deliveryLocation'],
  },
  // Unavailable watch: no price block, no #acrPopover (no reviews), "Derzeit nicht verfügbar.",
  // byline link "Lintimes".
  'details-DE-B01GAWQSFW.html': {
    asin: 'B01GAWQSFW',
    title: 'Einfache Leder Vintage weiblich Quarzuhr Armbanduhr Schwarz',
    price: null,
    listPrice: null,
    rating: null,
    reviewsCount: null,
    availability: 'out_of_stock',
    availabilityText: 'Derzeit nicht verfügbar.',
    brand: 'Lintimes',
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/61hmDCa5stL._UL1001_.jpg',
    missingFields: ['price', 'rating', 'reviewsCount', 'bestSellersRank', 'seller', 'deliveryPromise'],
  },
  // No featured offer ("Ver todas las opciones de compra"): empty #corePrice_desktop and an
  // #availability holding only the hidden all-offers form. "4,1 de 5 estrellas", "5.182 valoraciones".
  'details-ES-B01MUGXRT9.html': {
    asin: 'B01MUGXRT9',
    title:
      'Cecotec Robot Limpiacristales Windroid 880 SprayWater Smart Connected. 90 W, Pulveriza, Limpia y Seca, Control por App y Mando a Distancia, 4 Programas, Cable 5,5m, Incluye 12 Paños',
    price: null,
    listPrice: null,
    rating: 4.1,
    reviewsCount: 5182,
    availability: 'unknown',
    availabilityText: null,
    brand: 'Cecotec',
    mainImage: 'https://m.media-amazon.com/images/I/81lde+541vL._AC_SL1500_.jpg',
    missingFields: ['price', 'availability', 'seller', 'deliveryPromise'],
  },
  // Kindle book, pt-PT UI on amazon.es: no input#ASIN (canonical /dp/B08PBWPQ16), #kindle-price
  // "EUR 2,99", struck #print-list-price "EUR 17,99", "4.3 de 5 estrelas", "1,959 avaliações".
  'details-ES-B08PBWPQ16.html': {
    asin: 'B08PBWPQ16',
    title: 'El Malo (Romántica contemporánea)',
    price: eur(2.99),
    listPrice: eur(17.99),
    rating: 4.3,
    reviewsCount: 1959,
    availability: 'unknown',
    availabilityText: null,
    brand: null,
    mainImage: 'https://m.media-amazon.com/images/I/41RGCW5hvzL.jpg',
    missingFields: ['brand', 'availability', 'features', 'categories', 'seller', 'deliveryPromise'],
  },
  // New and used buying options as accordion rows: the active "Nuevo" row's .priceToPay 63,42 € with
  // "Precio recomendado: 79,99 €" struck, "En stock"; "4,3 de 5 estrellas", "972 valoraciones",
  // "Visita la tienda de Hercules" byline, landing data-old-hires.
  'details-ES-B07JH148DF.html': {
    asin: 'B07JH148DF',
    title: 'Hercules DJMonitor 32 - 2 altavoces activos de monitorización de 15 vatios RMS',
    price: eur(63.42),
    listPrice: eur(79.99),
    rating: 4.3,
    reviewsCount: 972,
    availability: 'in_stock',
    availabilityText: 'En stock',
    brand: 'Hercules',
    mainImage: 'https://m.media-amazon.com/images/I/71nRjIHlpNL._AC_SL1500_.jpg',
    missingFields: [],
  },
  // Music CD: #priceblock_ourprice "EUR 9,99", "4.3 étoiles sur 5", "34 commentaires client",
  // "En stock.", artist byline (no brand).
  'details-FR-B07H57DNVV.html': {
    asin: 'B07H57DNVV',
    title: 'Anthem of the Peaceful Army',
    price: eur(9.99),
    listPrice: null,
    rating: 4.3,
    reviewsCount: 34,
    availability: 'in_stock',
    availabilityText: 'En stock.',
    brand: null,
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/715ByyULmYL._SL1200_.jpg',
    missingFields: ['brand', 'features'],
  },
  // Hardcover: #buyNewSection .offer-price "£46.55", "RRP: £53.99" (a-text-strike), "3.1 out of 5 stars".
  'details-UK-1439878676.html': {
    asin: '1439878676',
    title:
      'Hydroponic Food Production: A Definitive Guidebook for the Advanced Home Gardener and the Commercial Hydroponic Grower, Seventh Edition',
    price: gbp(46.55),
    listPrice: gbp(53.99),
    rating: 3.1,
    reviewsCount: 3,
    availability: 'in_stock',
    availabilityText: 'Only 6 left in stock (more on the way).',
    brand: null,
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/51gOm0nTLXL._SX351_BO1,204,203,200_.jpg',
    missingFields: ['brand', 'features'],
  },
  // Used-only buy box "£4.45" (also the selected #tmmSwatches price), "16 ratings", no #availability.
  'details-UK-1849757097.html': {
    asin: '1849757097',
    title: 'Vegetable Perfection: 100 delicious recipes for roots, bulbs, shoots and stems',
    price: gbp(4.45),
    listPrice: null,
    rating: 4.4,
    reviewsCount: 16,
    availability: 'unknown',
    availabilityText: null,
    brand: null,
    mainImage: 'https://m.media-amazon.com/images/I/91EpHNSPFnL._SL1500_.jpg',
    missingFields: ['brand', 'availability', 'features'],
  },
  // Book: "Buy New $10.62", "List Price: $14.99", title attr "5.0 out of 5 stars", "11 customer reviews".
  'details-US-0062796984.html': {
    asin: '0062796984',
    title: 'The Confidence Code for Girls: Taking Risks, Messing Up, and Becoming Your Amazingly Imperfect, Totally Powerful Self',
    price: usd(10.62),
    listPrice: usd(14.99),
    rating: 5,
    reviewsCount: 11,
    availability: 'in_stock',
    availabilityText: 'In Stock.',
    brand: null,
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/518yJPrEaxL._SX328_BO1,204,203,200_.jpg',
    missingFields: ['brand', 'features', 'deliveryLocation', 'deliveryPromise'],
  },
  // Kindle: #kindle-price "$10.99", "21,200 ratings", no #availability, author byline.
  'details-US-B0011UCPM4.html': {
    asin: 'B0011UCPM4',
    title: 'The Whole Truth (A. Shaw Book 1)',
    price: usd(10.99),
    listPrice: null,
    rating: 4.4,
    reviewsCount: 21200,
    availability: 'unknown',
    availabilityText: null,
    brand: null,
    mainImage: 'https://m.media-amazon.com/images/W/MEDIAX_792452-T2/images/I/91c7gvGFyvL._SL1500_.jpg',
    missingFields: ['brand', 'availability', 'features', 'seller', 'deliveryPromise'],
  },
  // "Currently unavailable." with no buy-box price; "3.9 out of 5 stars", "12 customer reviews".
  'details-US-B01GAWQSFW.html': {
    asin: 'B01GAWQSFW',
    title: 'Simple Leather Vintage Female Quartz Watch Wristwatch Black',
    price: null,
    listPrice: null,
    rating: 3.9,
    reviewsCount: 12,
    availability: 'out_of_stock',
    availabilityText: 'Currently unavailable.',
    brand: 'LinTimes',
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/61hmDCa5stL._UL1001_.jpg',
    missingFields: ['price', 'seller', 'deliveryPromise'],
  },
  // corePrice "$112.94", "Visit the Amazon Basics Store", "82,602 ratings"; empty data-old-hires so the
  // largest data-a-dynamic-image key (_AC_ 263x500) is the main image.
  'details-US-B073WRF565.html': {
    asin: 'B073WRF565',
    title: 'Amazon Basics Foldable, 14" Black Metal Platform Bed Frame with Tool-Free Assembly, No Box Spring Needed - Full',
    price: usd(112.94),
    listPrice: null,
    rating: 4.8,
    reviewsCount: 82602,
    availability: 'in_stock',
    availabilityText: 'In Stock.',
    brand: 'Amazon Basics',
    mainImage: 'https://m.media-amazon.com/images/I/41WIGwt-asL._AC_.jpg',
    missingFields: [],
  },
  // #priceblock_saleprice "$29.99", byline "ChangM", "82 ratings".
  'details-US-B07G2L3JMM.html': {
    asin: 'B07G2L3JMM',
    title:
      'Modern LED Wall Sconce Lighting Fixture Lamps 7W Warm White 2700K Up and Down Indoor Plaster Wall Lamps for Living Room Bedroom Hallway Conservatory Home Room Decor(with G9 Bulbs Not Dimmable)',
    price: usd(29.99),
    listPrice: null,
    rating: 4.4,
    reviewsCount: 82,
    availability: 'in_stock',
    availabilityText: 'In Stock.',
    brand: 'ChangM',
    mainImage: 'https://images-na.ssl-images-amazon.com/images/I/71mo6NjnxaL._AC_SL1500_.jpg',
    missingFields: ['categories'],
  },
  // 2026 DOM: blank .priceToPay .a-offscreen, whole "35" + fraction "99" in the active (Prime) row,
  // "List Price: $45.99", #acrCustomerReviewText "(226)" with aria-label "226 Reviews".
  'details-US-B0DR8G428S.html': {
    asin: 'B0DR8G428S',
    title:
      'charmast 20000mAh Portable Charger with Built-in Cables and AC Wall Plug | 20W Fast Charging Power Bank, Power 3 Devices at Once, Family Travel Essential Battery Pack for iPhone, Samsung, Android',
    price: usd(35.99),
    listPrice: usd(45.99),
    rating: 4.2,
    reviewsCount: 226,
    availability: 'in_stock',
    availabilityText: 'In Stock',
    brand: 'charmast',
    mainImage: 'https://m.media-amazon.com/images/I/81lAsPSu2FL._AC_SL1500_.jpg',
    missingFields: [],
  },
};

const cache = new Map<string, DetailsItem | null>();
function parse(file: string): DetailsItem {
  if (!cache.has(file)) {
    const mk = file.split('-')[1]!;
    cache.set(file, parseDetailsPage(readRealPage(file), { marketplace: mk, origin: originOf(mk) }));
  }
  const item = cache.get(file);
  if (!item) throw new Error(`no item for ${file}`);
  return item;
}

/** The fields of an item that EXPECTED states. */
function mainFields(item: DetailsItem): Expected {
  return {
    asin: item.asin,
    title: item.title,
    price: item.price,
    listPrice: item.listPrice,
    rating: item.rating,
    reviewsCount: item.reviewsCount,
    availability: item.availability.status,
    availabilityText: item.availability.text,
    brand: item.brand,
    mainImage: item.mainImage,
    missingFields: item.missingFields,
  };
}

// One test per table: toEqual's difference names the page and the field that changed.
d('parseDetailsPage: main fields of every fixture', () => {
  it('every detail fixture has an expectation and parses to it', () => {
    expect(realPageFiles((f) => f.startsWith('details-'))).toEqual(Object.keys(EXPECTED).sort());
    expect(Object.fromEntries(Object.keys(EXPECTED).map((file) => [file, mainFields(parse(file))]))).toEqual(EXPECTED);
  });

  it('canonical URLs, the parser version and de-duplicated https images on every fixture', () => {
    for (const [file, exp] of Object.entries(EXPECTED)) {
      const item = parse(file);
      const mk = file.split('-')[1]!;
      expect([file, item.url, item.parserVersion, item.images[0]]).toEqual([
        file,
        `${originOf(mk)}/dp/${exp.asin}`,
        PARSER_VERSION,
        exp.mainImage,
      ]);
      expect(new Set(item.images).size).toBe(item.images.length);
      for (const u of item.images) expect(u).toMatch(/^https:\/\//);
    }
  });
});

d('parseDetailsPage: secondary fields', () => {
  it('breadcrumbs, skipping "back to results" links', () => {
    expect(parse('details-US-B073WRF565.html').categories).toEqual([
      'Home & Kitchen',
      'Furniture',
      'Bedroom Furniture',
      'Beds, Frames & Bases',
      'Bed Frames',
    ]);
    expect(parse('details-DE-B01GAWQSFW.html').categories).toEqual(['Uhren', 'Damen', 'Armbanduhren']);
    expect(parse('details-US-B07G2L3JMM.html').categories).toEqual([]);
    expect(parse('details-BR-8565042472.html').categories).toEqual([]);
  });

  it('best sellers rank in several layouts and languages', () => {
    expect(parse('details-US-B073WRF565.html').bestSellersRank).toEqual([
      { category: 'Home & Kitchen', rank: 93 },
      { category: 'Bed Frames', rank: 1 },
    ]);
    expect(parse('details-US-B01GAWQSFW.html').bestSellersRank).toEqual([
      { category: 'Clothing, Shoes & Jewelry', rank: 103676 },
      { category: 'Clothing, Shoes & Jewelry > Women > Watches > Wrist Watches', rank: 289 },
      { category: 'Clothing, Shoes & Jewelry > Women > Shops', rank: 51235 },
    ]);
    expect(parse('details-BR-8565042472.html').bestSellersRank).toEqual([
      { category: 'Livros', rank: 1448 },
      { category: 'Política e Atualidade', rank: 10 },
    ]);
    expect(parse('details-ES-B01MUGXRT9.html').bestSellersRank).toEqual([
      { category: 'Hogar y cocina', rank: 1643215 },
      { category: 'Robots aspiradores', rank: 2417 },
    ]);
    expect(parse('details-FR-B07H57DNVV.html').bestSellersRank).toEqual([
      { category: 'CD & Vinyles', rank: 167 },
      { category: 'Pop Rock', rank: 9 },
    ]);
    // Qualifiers in parentheses are part of the category; "(See Top 100 in ...)" links are not.
    expect(parse('details-US-B0011UCPM4.html').bestSellersRank).toEqual([
      { category: 'Kindle Store', rank: 41328 },
      { category: 'Political Fiction (Kindle Store)', rank: 41 },
      { category: 'Political Fiction (Books)', rank: 118 },
      { category: 'International Mystery & Crime (Kindle Store)', rank: 264 },
    ]);
    expect(parse('details-UK-1439878676.html').bestSellersRank).toEqual([
      { category: 'Books', rank: 640548 },
      { category: 'Hydroponics (Books)', rank: 50 },
      { category: 'Home Farming', rank: 61 },
      { category: 'Gardening Soil Science', rank: 221 },
    ]);
    // Source newlines between the rank span and the ladder span do not split entries.
    expect(parse('details-US-0062796984.html').bestSellersRank).toHaveLength(4);
    expect(parse('details-US-0062796984.html').bestSellersRank[1]).toEqual({
      category: "Books > Children's Books > Growing Up & Facts of Life > Friendship, Social Skills & School Life > Girls & Women",
      rank: 1,
    });
    expect(parse('details-UK-1849757097.html').bestSellersRank).toHaveLength(4);
    expect(parse('details-US-B0DR8G428S.html').bestSellersRank).toEqual([
      { category: 'Cell Phones & Accessories', rank: 5211 },
      { category: 'Cell Phone Portable Power Banks', rank: 309 },
    ]);
  });

  it('seller', () => {
    expect(parse('details-US-B07G2L3JMM.html').seller).toEqual({ name: 'Direct ChangM', id: 'A3EL5JZNMT8SZ7' });
    expect(parse('details-UK-1849757097.html').seller).toEqual({ name: 'Goldstone-Books', id: 'A2NQK4TIWYJD6B' });
    expect(parse('details-US-B0DR8G428S.html').seller).toEqual({ name: 'Chen Ying Ke Ji', id: 'A2JZ0S3QVWQECL' });
    expect(parse('details-US-B073WRF565.html').seller).toEqual({ name: 'Amazon.com', id: null });
    expect(parse('details-FR-B07H57DNVV.html').seller).toEqual({ name: 'Amazon', id: null });
    expect(parse('details-BR-8565042472.html').seller).toEqual({ name: 'Amazon.com.br', id: null });
    expect(parse('details-DE-B01GAWQSFW.html').seller).toBeNull();
    // The used row's "Vendido por Amazon Segunda mano" (#merchant-info in an inactive accordion row)
    // is not the buy box; the active row's offer-display block says "Vendido por Amazon".
    expect(parse('details-ES-B07JH148DF.html').seller).toEqual({ name: 'Amazon', id: null });
    expect(parse('details-BR-B09YRKYRSM.html').seller).toEqual({ name: 'HiKA', id: 'A1WPWEG18ZHPU4' });
  });

  it('variants from twister scripts and from the scripts-stripped inline twister', () => {
    const bed = parse('details-US-B073WRF565.html').variants;
    expect(bed).toHaveLength(8);
    expect(bed).toContainEqual({ asin: 'B073WRF565', dimensions: { Size: 'Full', Style: '14-Inch' } });
    expect(bed).toContainEqual({ asin: 'B07R7XFD22', dimensions: { Size: 'King', Style: '18-Inch' } });
    const polo = parse('details-BR-B085VK7LYQ.html').variants;
    expect(polo).toHaveLength(206);
    expect(polo).toContainEqual({ asin: 'B08Y4X72KZ', dimensions: { Tamanho: 'XGG', Cor: 'Vermelho C/ Bic' } });
    const charger = parse('details-US-B0DR8G428S.html').variants;
    expect(charger.map((v) => v.asin)).toEqual(['B0DR8G428S', 'B0FB9894ZK', 'B0DWMMT1XL', 'B0DWMNBJ8M', 'B0DWMMT1XF', 'B0DR8QVLX7']);
    expect(charger[0]!.dimensions).toEqual({ Color: 'black' });
    expect(parse('details-US-B0011UCPM4.html').variants).toEqual([]);
  });

  it('feature bullets and description', () => {
    const watch = parse('details-US-B01GAWQSFW.html');
    expect(watch.features).toHaveLength(5);
    expect(watch.features[0]).toBe('Vintage bracelet wrist watch for women or ladies.100% brand new with fabulous appearance.');
    expect(watch.description).toMatch(/^Description:\nStylish and high quality Fashion Watch/);
    expect(parse('details-US-B0DR8G428S.html').features).toHaveLength(6);
    expect(parse('details-US-0062796984.html').features).toEqual([]);
    // Book blurb, not the editorial reviews of #productDescription.
    expect(parse('details-US-0062796984.html').description).toMatch(/^Girls can rule the world/);
    // Escaped "<br/>" markup in the seller's text becomes line breaks.
    expect(parse('details-DE-B01GAWQSFW.html').description).toMatch(/^Beschreibung:\nStilvolle und hochwertige Fashion Armbanduhr/);
  });

  it('specifications from tables and detail bullets', () => {
    const specs = parse('details-US-B07G2L3JMM.html').specifications;
    expect(specs.Brand).toBe('ChangM');
    expect(specs['Part Number']).toBe('CM-WB-01');
    const book = parse('details-BR-8565042472.html').specifications;
    expect(book['ISBN-13']).toBe('978-8565042475');
    expect(book.Idioma).toBe('Português');
    const es = parse('details-ES-B01MUGXRT9.html').specifications;
    expect(es.Marca).toBe('Cecotec');
    expect(es['Componentes incluidos']).toBe(
      '1 x Windroid; 1 x Mando de control teledirigido; 12 x Paños de microfibra reutilizables; 1 x Cable 5,5 metros de conexión a la red eléctrica; 1 x Cuerda de seguridad; 1 x Manual instrucciones; 1 x Manual app',
    );
    // Rank and review rows are not specifications.
    for (const f of Object.keys(EXPECTED)) {
      const keys = Object.keys(parse(f).specifications).join('|');
      expect(keys).not.toMatch(/rank|ranking|classement|clasificación|customer review|kundenbewertung/i);
    }
  });

  it('images are de-duplicated high-resolution URLs', () => {
    const sconce = parse('details-US-B07G2L3JMM.html').images;
    expect(sconce).toHaveLength(9);
    expect(sconce[1]).toBe('https://images-na.ssl-images-amazon.com/images/I/61XG7ED8-gL._AC_SL1500_.jpg');
    // Book gallery JSON (imageGalleryData) after the front cover.
    expect(parse('details-BR-8565042472.html').images[1]).toBe('https://images-na.ssl-images-amazon.com/images/I/71v9lgMZOTL.jpg');
  });

  it('isPrime only from the buy box area; no badge is not a "no"', () => {
    expect(parse('details-US-B07G2L3JMM.html').isPrime).toBe(true);
    // These pages show none in the buy box and no eligibility flag: null (not observed).
    const unobserved = [
      'details-US-B01GAWQSFW.html',
      'details-US-B073WRF565.html',
      'details-UK-1849757097.html',
      'details-US-B0DR8G428S.html',
    ];
    expect(unobserved.map((file) => [file, parse(file).isPrime])).toEqual(unobserved.map((file) => [file, null]));
  });
});

describe('isPrime from what the page says', () => {
  const page = (buyBox: string) =>
    parseDetailsPage(
      `<html><body><input type="hidden" id="ASIN" value="B0TEST0001"><span id="productTitle">Lamp</span><div id="buybox">${buyBox}</div></body></html>`,
      {
        marketplace: 'US',
        origin: 'https://www.amazon.com',
      },
    )!.isPrime;

  it('true from a buy-box badge or the eligibility flag, false only when the page says so, else null', () => {
    expect(page('<i class="a-icon a-icon-prime"></i>')).toBe(true);
    expect(page('<input type="hidden" id="isPrimeEligible" value="1">')).toBe(true);
    expect(page('<input type="hidden" id="isPrimeEligible" value="0">')).toBe(false);
    expect(page('<i class="a-icon a-icon-prime" data-isprime="false"></i>')).toBe(false);
    expect(page('<i class="a-icon a-icon-prime primeUpsellIcon"></i>')).toBeNull();
    expect(page('<span>FREE delivery Monday</span>')).toBeNull();
  });
});

describe('parseDetailsPage without a product', () => {
  it('returns null when there is neither ASIN nor title', () => {
    expect(
      parseDetailsPage('<html><head><title>Amazon.com</title></head><body><p>Hi</p></body></html>', {
        marketplace: 'US',
        origin: 'https://www.amazon.com',
      }),
    ).toBeNull();
    expect(parseDetailsPage('', { marketplace: 'US', origin: 'https://www.amazon.com' })).toBeNull();
  });

  it('parses a minimal synthetic page with marketplace defaults', () => {
    const html = `<html><head><link rel="canonical" href="https://www.amazon.co.jp/dp/B0TESTJP01"></head><body>
      <span id="productTitle"> テスト商品 </span>
      <a id="bylineInfo" href="/stores/x">Ankerのストアを表示</a>
      <div id="corePriceDisplay_desktop_feature_div"><span class="a-price priceToPay"><span class="a-offscreen">￥3,990</span></span></div>
      <span id="acrPopover" title="5つ星のうち4.3"></span><span id="acrCustomerReviewText">1,234個の評価</span>
      <div id="availability"><span class="a-color-success">在庫あり。</span></div>
      <img id="landingImage" src="data:image/gif;base64,R0lG" data-old-hires="https://m.media-amazon.com/images/I/71abc._AC_SL1500_.jpg">
    </body></html>`;
    const item = parseDetailsPage(html, { marketplace: 'JP', origin: 'https://www.amazon.co.jp/' });
    expect(item).toMatchObject({
      asin: 'B0TESTJP01',
      url: 'https://www.amazon.co.jp/dp/B0TESTJP01',
      title: 'テスト商品',
      brand: 'Anker',
      price: { amount: 3990, currency: 'JPY' },
      rating: 4.3,
      reviewsCount: 1234,
      availability: { status: 'in_stock', text: '在庫あり。' },
      mainImage: 'https://m.media-amazon.com/images/I/71abc._AC_SL1500_.jpg',
      // shown: title, brand, price, rating, count, availability, image (its gallery); the page has nothing else
      missingFields: ['features', 'categories', 'bestSellersRank', 'seller', 'specifications', 'deliveryLocation', 'deliveryPromise'],
    });
  });
});

describe('parseDetailsPage on synthetic layouts of other marketplaces', () => {
  it('amazon.in 2019 price block whose rupee sign is an empty span.currencyINR', () => {
    const html = `<html><body><input type="hidden" id="ASIN" value="B0TESTIN01"><span id="productTitle">Kurta</span>
      <span id="priceblock_ourprice" class="a-size-medium a-color-price"><span class="currencyINR">&nbsp;&nbsp;</span> 1,499.00</span>
      <span class="priceBlockStrikePriceString a-text-strike"><span class="currencyINR">&nbsp;&nbsp;</span> 2,999.00</span>
      <div id="availability"><span class="a-size-medium a-color-success">In stock.</span></div></body></html>`;
    const item = parseDetailsPage(html, { marketplace: 'IN', origin: 'https://www.amazon.in' });
    expect(item?.price).toEqual({ amount: 1499, currency: 'INR' });
    expect(item?.listPrice).toEqual({ amount: 2999, currency: 'INR' });
    expect(item?.availability.status).toBe('in_stock');
  });

  it('Japanese and Italian best-sellers rank formats', () => {
    const jp = `<html><body><span id="productTitle">x</span><input id="ASIN" value="B0TESTJP02">
      <li id="SalesRank"><b>Amazon 売れ筋ランキング:</b> - 1,234位家電＆カメラ (<a href="#">の売れ筋ランキングを見る家電＆カメラ</a>)
      <ul class="zg_hrsr"><li class="zg_hrsr_item"><span class="zg_hrsr_rank">- 12位</span><span class="zg_hrsr_ladder"><a href="#">モバイルバッテリー</a></span></li></ul></li></body></html>`;
    expect(parseDetailsPage(jp, { marketplace: 'JP', origin: 'https://www.amazon.co.jp' })?.bestSellersRank).toEqual([
      { category: '家電＆カメラ', rank: 1234 },
      { category: 'モバイルバッテリー', rank: 12 },
    ]);
    const it = `<html><body><span id="productTitle">x</span><input id="ASIN" value="B0TESTIT01">
      <table id="productDetails_detailBullets_sections1"><tr><th>Posizione nella classifica Bestseller di Amazon</th>
      <td><span><span>n. 1.234 in Casa e cucina (<a href="#">Visualizza i Top 100 nella categoria Casa e cucina</a>)</span><br><span>n. 5 in <a href="#">Bollitori elettrici</a></span></span></td></tr>
      <tr><th>Produttore</th><td>Acme</td></tr></table></body></html>`;
    const item = parseDetailsPage(it, { marketplace: 'IT', origin: 'https://www.amazon.it' });
    expect(item?.bestSellersRank).toEqual([
      { category: 'Casa e cucina', rank: 1234 },
      { category: 'Bollitori elettrici', rank: 5 },
    ]);
    expect(item?.specifications).toEqual({ Produttore: 'Acme' });
  });

  it('localized availability and store bylines', () => {
    const page = (byline: string, availability: string): string =>
      `<html><body><input id="ASIN" value="B0TESTXX01"><span id="productTitle">x</span><a id="bylineInfo" href="/stores/x">${byline}</a>
       <div id="availability"><span class="a-color-price">${availability}</span></div></body></html>`;
    const cases: [string, string, string, string][] = [
      ['Besuche den Cecotec-Store', 'Derzeit nicht verfügbar.', 'Cecotec', 'out_of_stock'],
      ['Visiter la boutique Cecotec', 'Précommande', 'Cecotec', 'preorder'],
      ['Visita lo Store di Cecotec', 'Disponibilità immediata.', 'Cecotec', 'in_stock'],
      ['Marca: Cecotec', 'No disponible.', 'Cecotec', 'out_of_stock'],
      ['Visit the Cecotec Store', 'Temporarily out of stock.', 'Cecotec', 'out_of_stock'],
      ['Brand: Cecotec', 'Pre-order now.', 'Cecotec', 'preorder'],
      ['Cecotecのストアを表示', '在庫あり。', 'Cecotec', 'in_stock'],
      ['Visite a loja Cecotec', 'Em estoque.', 'Cecotec', 'in_stock'],
      ['Bezoek de Cecotec-winkel', 'Op voorraad.', 'Cecotec', 'in_stock'],
      ['Besök Cecotec-butiken', 'I lager.', 'Cecotec', 'in_stock'],
      ['Odwiedź sklep Cecotec', 'Chwilowo niedostępny.', 'Cecotec', 'out_of_stock'],
      ['Cecotec Mağazasını ziyaret edin', 'Stokta var.', 'Cecotec', 'in_stock'],
    ];
    for (const [byline, availability, brand, status] of cases) {
      const item = parseDetailsPage(page(byline, availability), { marketplace: 'US', origin: 'https://www.amazon.com' });
      expect([byline, item?.brand, item?.availability.status]).toEqual([byline, brand, status]);
    }
  });
});
