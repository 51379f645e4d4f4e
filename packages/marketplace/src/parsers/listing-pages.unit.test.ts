/**
 * The listing parsers on our own pages (parsers/test-pages/, in every clone), each page asserted
 * whole. What each page exercises:
 * - offers-US-legacy: "Buying Choices" rows: Amazon.com as a logo (its id from the policy links),
 *   "+ $3.99 shipping", "Ships from CA, United States.", "Used - Very Good" over two lines, a rental
 *   row at "$0,00" (no price) with the FBA badge and the older p.olpAvailability line; a Next link.
 * - offers-DE-aod: the All Offers Display panel: the pinned offer (its sticky copy ignored) with
 *   "KOSTENLOSE" delivery and the merchant id of its delivery block, "+ 4,99 € Versand" under a
 *   listed offer, "3,49 €" in a delivery block, label/value blocks with and without the grid,
 *   "Ende der Ergebnisse" shown (no next page).
 * - reviews-US-2024: the product summary (global ratings, not the filtered count), helpful votes
 *   "12 people" / "One person" / none yet, a format strip with separators, "Read more" left out,
 *   a rating from the star class only, a repeated review id, a next page.
 * - reviews-IT-2019: "4,6 su 5 stelle", "1.234", an empty #histogramTable before the real one,
 *   a date without country, "921 persone l'hanno trovato utile", a review from Germany in its
 *   original language, an image-only review and an impossible date; the last page.
 * - bestsellers-US-grid: the 2021+ grid with its lazy list, a count in the link's aria-label,
 *   "13 offers from XOF 9,107", a title from the image, a next page.
 * - bestsellers-IN-2023: ASINs only in element ids, "1,02,345", "₹421.00", "₹ 1,299.00".
 * - offers-listing, reviews-listing (the page engine's pages).
 */
import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
import { parseBestsellersPage } from './bestsellers';
import { parseOffersPage } from './offers';
import { parseReviewsPage } from './reviews';
import { PARSER_VERSION, type BestsellersPage, type OffersPage, type PageContext, type ReviewsPage } from './types';
import { ownPage, ownPageFiles } from '../test-support/own-pages';

/** The page's marketplace: the code in its name (details-DE-...), for the engine's pages the one they show. */
const ENGINE_PAGES: Record<string, MarketplaceCode> = {
  'details-product.html': 'DE',
  'search-results.html': 'US',
  'offers-listing.html': 'UK',
  'reviews-listing.html': 'IT',
};
function contextOf(file: string): PageContext {
  const marketplace = ENGINE_PAGES[file] ?? (file.split('-')[1] as MarketplaceCode);
  return { marketplace, origin: `https://${MARKETPLACES[marketplace].host}` };
}

const OFFERS: Record<string, OffersPage> = {
  'offers-DE-aod.html': {
    layout: 'aod',
    asin: 'B0TESTLAMP',
    title: 'Tischleuchte Lumo, Eiche',
    totalOffers: 2,
    deliveryLocation: null,
    hasNextPage: false,
    offers: [
      {
        position: 1,
        price: {
          amount: 59.49,
          currency: 'EUR',
        },
        shipping: {
          amount: 0,
          currency: 'EUR',
        },
        condition: 'Neu',
        seller: {
          name: 'Amazon',
          id: 'A3JWKAKR8XB7XF',
        },
        fulfilledByAmazon: true,
        shipsFrom: 'Amazon',
        isBuyBox: true,
        deliveryText: 'KOSTENLOSE Lieferung Donnerstag, 6. März',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 2,
        price: {
          amount: 54.9,
          currency: 'EUR',
        },
        shipping: {
          amount: 4.99,
          currency: 'EUR',
        },
        condition: 'Gebraucht - Sehr gut',
        seller: {
          name: 'Licht&Raum',
          id: 'A1TSTLICHT',
        },
        fulfilledByAmazon: true,
        shipsFrom: 'Amazon',
        isBuyBox: false,
        deliveryText: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 3,
        price: {
          amount: 61,
          currency: 'EUR',
        },
        shipping: {
          amount: 3.49,
          currency: 'EUR',
        },
        condition: 'Neu',
        seller: {
          name: 'Lumo Design GmbH',
          id: null,
        },
        fulfilledByAmazon: false,
        shipsFrom: 'Lumo Design GmbH',
        isBuyBox: false,
        deliveryText: 'Lieferung für 3,49 € 10. - 14. März',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
    ],
  },
  'offers-US-legacy.html': {
    layout: 'offer-listing',
    asin: '1133958095',
    title: 'Field Guide to Lamps',
    totalOffers: null,
    deliveryLocation: null,
    hasNextPage: true,
    offers: [
      {
        position: 1,
        price: {
          amount: 42.1,
          currency: 'USD',
        },
        shipping: {
          amount: 0,
          currency: 'USD',
        },
        condition: 'New',
        seller: {
          name: 'Amazon.com',
          id: 'ATVPDKIKX0DER',
        },
        fulfilledByAmazon: true,
        shipsFrom: null,
        isBuyBox: null,
        deliveryText: 'Arrives between November 5-12.',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 2,
        price: {
          amount: 35.5,
          currency: 'USD',
        },
        shipping: {
          amount: 3.99,
          currency: 'USD',
        },
        condition: 'Used - Very Good',
        seller: {
          name: 'Westside Books',
          id: 'A1TSTBOOKS1',
        },
        fulfilledByAmazon: false,
        shipsFrom: 'CA, United States',
        isBuyBox: null,
        deliveryText: 'Arrives between November 8-20.',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 3,
        price: null,
        shipping: {
          amount: 0,
          currency: 'USD',
        },
        condition: 'Rental',
        seller: {
          name: 'Campus Rentals',
          id: 'A2TSTRENTAL',
        },
        fulfilledByAmazon: true,
        shipsFrom: null,
        isBuyBox: null,
        deliveryText: 'Usually ships within 2 to 3 days.',
        missingFields: ['price'],
        parserVersion: PARSER_VERSION,
      },
    ],
  },
  'offers-listing.html': {
    layout: 'aod',
    asin: null,
    title: 'Kettle "Brew" 1.7 L, 3000 W – Stainless Steel',
    totalOffers: null,
    deliveryLocation: null,
    hasNextPage: false,
    offers: [
      {
        position: 1,
        price: {
          amount: 24.99,
          currency: 'GBP',
        },
        shipping: null,
        condition: null,
        seller: {
          name: 'Brew&Co Ltd',
          id: 'A3TESTSELLER',
        },
        fulfilledByAmazon: true,
        shipsFrom: 'Amazon',
        isBuyBox: true,
        deliveryText: null,
        missingFields: ['condition'],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 2,
        price: {
          amount: 22.5,
          currency: 'GBP',
        },
        shipping: null,
        condition: 'Used - Like New',
        seller: {
          name: 'Amazon Warehouse',
          id: 'A2TESTWAREHOUSE',
        },
        fulfilledByAmazon: true,
        shipsFrom: 'Warehouse Deals',
        isBuyBox: false,
        deliveryText: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 3,
        price: {
          amount: 26,
          currency: 'GBP',
        },
        shipping: {
          amount: 0,
          currency: 'GBP',
        },
        condition: null,
        seller: {
          name: 'Kitchen <Stuff> UK',
          id: 'A1TESTKITCHEN',
        },
        fulfilledByAmazon: null,
        shipsFrom: null,
        isBuyBox: false,
        deliveryText: null,
        missingFields: ['condition'],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 4,
        price: {
          amount: 27.99,
          currency: 'GBP',
        },
        shipping: null,
        condition: null,
        seller: {
          name: 'Home & Garden Direct',
          id: null,
        },
        fulfilledByAmazon: null,
        shipsFrom: null,
        isBuyBox: false,
        deliveryText: null,
        missingFields: ['condition'],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 5,
        price: null,
        shipping: null,
        condition: null,
        seller: null,
        fulfilledByAmazon: null,
        shipsFrom: null,
        isBuyBox: false,
        deliveryText: null,
        missingFields: ['price', 'condition', 'seller'],
        parserVersion: PARSER_VERSION,
      },
    ],
  },
};

const REVIEWS: Record<string, ReviewsPage> = {
  'reviews-IT-2019.html': {
    product: {
      asin: 'B0TSTITEBK',
      title: 'Lettore eBook Lumen, schermo 6"',
      rating: 4.6,
      ratingsCount: 1234,
      histogram: {
        fiveStar: 79,
        fourStar: 12,
        threeStar: 4,
        twoStar: 2,
        oneStar: 3,
      },
    },
    hasNextPage: false,
    reviews: [
      {
        id: 'RTSTITREV01',
        rating: 5,
        title: 'Si legge benissimo',
        body: 'Schermo nitido anche al sole.\nLa batteria dura settimane.',
        author: 'Giulia',
        date: '2018-11-14',
        dateText: '14 novembre 2018',
        country: null,
        verifiedPurchase: true,
        helpfulVotes: 921,
        variant: 'Colore: Nero',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        id: 'RTSTITREV02',
        rating: 3,
        title: 'Gut, aber teuer',
        body: 'Das Display ist gut.',
        author: 'Klaus',
        date: '2019-03-03',
        dateText: 'Recensito in Germania il 3 marzo 2019',
        country: 'Germania',
        verifiedPurchase: false,
        helpfulVotes: null,
        variant: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        id: 'RTSTITREV03',
        rating: 1,
        title: 'Arrivato rotto',
        body: null,
        author: 'Marco',
        date: null,
        dateText: 'Recensito in Italia il 31 giugno 2019',
        country: null,
        verifiedPurchase: false,
        helpfulVotes: null,
        variant: null,
        missingFields: ['body', 'date'],
        parserVersion: PARSER_VERSION,
      },
    ],
  },
  'reviews-US-2024.html': {
    product: {
      asin: 'B0TSTLAMP1',
      title: 'Glowline LED Desk Lamp with USB Charging Port',
      rating: 4.5,
      ratingsCount: 25181,
      histogram: {
        fiveStar: 71,
        fourStar: 16,
        threeStar: 6,
        twoStar: 2,
        oneStar: 5,
      },
    },
    hasNextPage: true,
    reviews: [
      {
        id: 'R1TSTUSREV01',
        rating: 5,
        title: 'Bright and dimmable',
        body: 'Three brightness levels.\nThe USB port charges my phone.',
        author: 'Dana K.',
        date: '2024-01-06',
        dateText: 'Reviewed in the United States on January 6, 2024',
        country: 'United States',
        verifiedPurchase: true,
        helpfulVotes: 12,
        variant: 'Color: Black | Style: 2-Pack',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        id: 'R2TSTUSREV02',
        rating: 2,
        title: 'Flickers',
        body: 'It flickers at the lowest level.',
        author: 'M. Ortiz',
        date: '2023-12-30',
        dateText: 'Reviewed in Canada on December 30, 2023',
        country: 'Canada',
        verifiedPurchase: false,
        helpfulVotes: 1,
        variant: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        id: 'R3TSTUSREV03',
        rating: 4,
        title: 'Good value',
        body: 'Does the job.',
        author: 'Amazon Customer',
        date: '2023-11-02',
        dateText: 'Reviewed in the United States on November 2, 2023',
        country: 'United States',
        verifiedPurchase: false,
        helpfulVotes: 0,
        variant: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
    ],
  },
  'reviews-listing.html': {
    product: {
      asin: 'B0TESTMOKA',
      title: 'Macinacaffè «Moka» elettrico, 150 W',
      rating: 4.6,
      ratingsCount: 2345,
      histogram: null,
    },
    hasNextPage: true,
    reviews: [
      {
        id: 'R1TESTAAAA0001',
        rating: 5,
        title: 'Ottimo & silenzioso',
        body: 'Macina bene, molto silenzioso.\nIl contenitore è piccolo < 50 g – ma va bene.\nConsigliato!',
        author: 'Giulia R.',
        date: '2026-12-03',
        dateText: 'Recensito in Italia il 3 dicembre 2026',
        country: 'Italia',
        verifiedPurchase: true,
        helpfulVotes: 12,
        variant: 'Colore: Nero',
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        id: 'R2TESTBBBB0002',
        rating: 2,
        title: 'Si è rotto dopo 2 mesi',
        body: 'Problemi:\nlama allentata\ncavo corto\nrumoroso\nReso senza problemi.\nPeccato.',
        author: 'Marco',
        date: '2026-11-01',
        dateText: 'Recensito in Italia il 1 novembre 2026',
        country: 'Italia',
        verifiedPurchase: false,
        helpfulVotes: null,
        variant: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        id: 'R3TESTCCCC0003',
        rating: 4,
        title: 'Buono',
        body: 'Gut, aber laut.',
        author: 'Cliente Amazon',
        date: '2026-10-20',
        dateText: 'Recensito in Germania il 20 ottobre 2026',
        country: 'Germania',
        verifiedPurchase: false,
        helpfulVotes: null,
        variant: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
    ],
  },
};

const BESTSELLERS: Record<string, BestsellersPage> = {
  'bestsellers-IN-2023.html': {
    category: 'Bestsellers in Books',
    hasNextPage: false,
    items: [
      {
        rank: 1,
        asin: '9388754085',
        title: 'Atomic Habits: the life-changing million-copy #1 bestseller',
        url: 'https://www.amazon.in/dp/9388754085',
        image: 'https://images-eu.ssl-images-amazon.com/images/I/81in01._AC_UL600_SR600,400_.jpg',
        price: {
          amount: 421,
          currency: 'INR',
        },
        rating: 4.6,
        reviewsCount: 102345,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        rank: 2,
        asin: '0143442295',
        title: 'Ikigai: The Japanese secret to a long and happy life',
        url: 'https://www.amazon.in/dp/0143442295',
        image: 'https://images-eu.ssl-images-amazon.com/images/I/81in02._AC_UL600_.jpg',
        price: {
          amount: 1299,
          currency: 'INR',
        },
        rating: null,
        reviewsCount: null,
        missingFields: ['rating', 'reviewsCount'],
        parserVersion: PARSER_VERSION,
      },
    ],
    lazyItems: [],
  },
  'bestsellers-US-grid.html': {
    category: 'Best Sellers in Desk Lamps',
    hasNextPage: true,
    items: [
      {
        rank: 1,
        asin: 'B0TSTBSL01',
        title: 'Glowline LED Desk Lamp with USB Charging Port',
        url: 'https://www.amazon.com/dp/B0TSTBSL01',
        image: 'https://images-na.ssl-images-amazon.com/images/I/61bsl01._AC_UL300_SR300,200_.jpg',
        price: {
          amount: 29.99,
          currency: 'USD',
        },
        rating: 4.5,
        reviewsCount: 84753,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        rank: 2,
        asin: 'B0TSTBSL02',
        title: 'Architect Desk Lamp, Metal Swing Arm',
        url: 'https://www.amazon.com/dp/B0TSTBSL02',
        image: 'https://images-na.ssl-images-amazon.com/images/I/71bsl02._AC_UL300_.jpg',
        price: {
          amount: 9107,
          currency: 'XOF',
        },
        rating: null,
        reviewsCount: null,
        missingFields: ['rating', 'reviewsCount'],
        parserVersion: PARSER_VERSION,
      },
      {
        rank: 3,
        asin: 'B0TSTBSL03',
        title: 'Nordlys Battery Desk Lamp',
        url: 'https://www.amazon.com/dp/B0TSTBSL03',
        image: 'https://images-na.ssl-images-amazon.com/images/I/51bsl03._AC_UL300_.jpg',
        price: null,
        rating: 3.9,
        reviewsCount: 212,
        missingFields: ['price'],
        parserVersion: PARSER_VERSION,
      },
    ],
    lazyItems: [
      {
        rank: 4,
        asin: 'B0TSTBSL04',
      },
      {
        rank: 5,
        asin: 'B0TSTBSL05',
      },
    ],
  },
};

const TABLES: [string, Record<string, unknown>, (html: string, ctx: PageContext) => unknown][] = [
  ['offers', OFFERS, parseOffersPage],
  ['reviews', REVIEWS, parseReviewsPage],
  ['bestsellers', BESTSELLERS, parseBestsellersPage],
];

describe.each(TABLES)('the %s parser on our own pages', (kind, expected, parse) => {
  it('has an expectation for every own page of the kind', () => {
    expect(ownPageFiles((f) => f.startsWith(`${kind}-`))).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.keys(expected))('%s', (file) => {
    expect(parse(ownPage(file), contextOf(file))).toEqual(expected[file]);
  });
});
