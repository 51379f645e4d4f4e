/**
 * parseSearchResults on our own pages (parsers/test-pages/, in every clone), each page asserted
 * whole. What each page exercises:
 * - search-US-2024: 2023+ cards: an AdHolder card linking through /sspa/click with a "Sponsored Ad - "
 *   aria-label, "(84.7K)" beside the exact aria-label count, "10K+ bought in past month"; a brand row
 *   above the title, "$1,249.00", an Amazon's Choice badge by its id, the coupon component with its
 *   hidden twin; a book (author link, format link, "$0.00 with Kindle Unlimited" skipped); a card
 *   without a product link (sponsorship unknown); a deal badge with its countdown, a struck price
 *   below the price (no list price); an empty-ASIN widget; the result info bar with a keyword holding
 *   a digit; the 2019+ pagination; a delivery recipe with its secondary message, a "(…/Count)" unit
 *   price, a "(2/Pack)" size that is none, a 2019-2022 "Get it as soon as" line.
 * - search-DE-2018: pre-2019 li.s-result-item rows: "[Gesponsert]" prefix and picassoRedirect,
 *   "EUR 12,99" with a struck "EUR 15,99", "4,5 von 5 Sternen" and a plain count link, "von X"
 *   bylines, a pre-2019 coupon line, AMAZONS_CHOICE badge, a book row with a release date and
 *   "EUR 0,00 Kindle Unlimited"; #s-result-count "1-16 von 2.345 Ergebnissen"; #pagnNextLink;
 *   "Kostenlose Lieferung möglich.", "Lieferung bis Mittwoch, 10. Dezember", "(EUR 2,83/Stück)".
 * - search-JP-2023-last: "￥1,980", "5つ星のうち4.2", "過去1か月で100点以上購入されました", a page
 *   without Prime icons (isPrime null), "49〜50/50件", a disabled next control (last page), a Japanese
 *   delivery recipe "お届け日: 12月9日 火曜日", a "(￥396/100 ml)" unit price.
 * - search-results (the page engine's page).
 */
import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
import { parseSearchResults, type SearchResultsPage } from './search';
import { PARSER_VERSION, type PageContext } from './types';
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

const EXPECTED: Record<string, SearchResultsPage> = {
  'search-DE-2018.html': {
    cards: [
      {
        position: 1,
        organicPosition: null,
        asin: 'B0TSTBSTK1',
        title: 'Bambus Besteck-Set, 4-teilig, mit Etui',
        url: 'https://www.amazon.de/dp/B0TSTBSTK1',
        image: 'https://images-eu.ssl-images-amazon.com/images/I/51bstk1._AC_US218_.jpg',
        price: {
          amount: 12.99,
          currency: 'EUR',
        },
        listPrice: {
          amount: 15.99,
          currency: 'EUR',
        },
        unitPrice: null,
        rating: 4.5,
        reviewsCount: 1234,
        isSponsored: true,
        isPrime: true,
        badges: [],
        brand: 'Greenday',
        boughtPastMonth: null,
        coupon: null,
        deliveryText: 'Kostenlose Lieferung möglich.',
        deliveryLocation: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 2,
        organicPosition: 1,
        asin: 'B0TSTBSTK2',
        title: 'Edelstahl Reisebesteck, 3 Teile',
        url: 'https://www.amazon.de/dp/B0TSTBSTK2',
        image: 'https://images-eu.ssl-images-amazon.com/images/I/61bstk2._AC_US218_.jpg',
        price: {
          amount: 8.49,
          currency: 'EUR',
        },
        listPrice: null,
        unitPrice: { amount: 2.83, currency: 'EUR', unit: 'Stück' },
        rating: 4.1,
        reviewsCount: 87,
        isSponsored: false,
        isPrime: false,
        badges: ["Amazon's Choice"],
        brand: 'Kochwerk',
        boughtPastMonth: null,
        coupon: '7% sparen mit Coupon',
        deliveryText: 'Lieferung bis Mittwoch, 10. Dezember',
        deliveryLocation: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 3,
        organicPosition: 2,
        asin: 'B0TSTBUCH1',
        title: 'Plastikfrei leben',
        url: 'https://www.amazon.de/dp/B0TSTBUCH1',
        image: null,
        price: {
          amount: 9.99,
          currency: 'EUR',
        },
        listPrice: null,
        unitPrice: null,
        rating: null,
        reviewsCount: null,
        isSponsored: false,
        isPrime: false,
        badges: [],
        brand: null,
        boughtPastMonth: null,
        coupon: null,
        deliveryText: null,
        deliveryLocation: null,
        missingFields: ['image', 'rating', 'reviewsCount'],
        parserVersion: PARSER_VERSION,
      },
    ],
    hasNextPage: true,
    noResults: false,
    totalResults: 2345,
  },
  'search-JP-2023-last.html': {
    cards: [
      {
        position: 1,
        organicPosition: 1,
        asin: 'B0TSTJPSUI',
        title: '真空断熱 水筒 500ml ステンレス',
        url: 'https://www.amazon.co.jp/dp/B0TSTJPSUI',
        image: 'https://m.media-amazon.com/images/I/61jpsui._AC_UL320_.jpg',
        price: {
          amount: 1980,
          currency: 'JPY',
        },
        listPrice: {
          amount: 2480,
          currency: 'JPY',
        },
        unitPrice: { amount: 396, currency: 'JPY', unit: '100 ml' },
        rating: 4.2,
        reviewsCount: 3456,
        isSponsored: false,
        isPrime: null,
        badges: [],
        brand: null,
        boughtPastMonth: 100,
        coupon: null,
        deliveryText: 'お届け日: 12月9日 火曜日',
        deliveryLocation: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 2,
        organicPosition: 2,
        asin: 'B0TSTJPSU2',
        title: 'キッズ水筒 ストロー付き',
        url: 'https://www.amazon.co.jp/dp/B0TSTJPSU2',
        image: null,
        price: {
          amount: 1234,
          currency: 'JPY',
        },
        listPrice: null,
        unitPrice: null,
        rating: null,
        reviewsCount: null,
        isSponsored: false,
        isPrime: null,
        badges: [],
        brand: null,
        boughtPastMonth: null,
        coupon: null,
        deliveryText: null,
        deliveryLocation: null,
        missingFields: ['image', 'rating', 'reviewsCount'],
        parserVersion: PARSER_VERSION,
      },
    ],
    hasNextPage: false,
    noResults: false,
    totalResults: 50,
  },
  'search-US-2024.html': {
    cards: [
      {
        position: 1,
        organicPosition: null,
        asin: 'B0TSTLAMP1',
        title: 'Glowline LED Desk Lamp with USB Charging Port, 5 Brightness Levels',
        url: 'https://www.amazon.com/dp/B0TSTLAMP1',
        image: 'https://m.media-amazon.com/images/I/61lamp1._AC_UL320_.jpg',
        price: {
          amount: 29.99,
          currency: 'USD',
        },
        listPrice: {
          amount: 39.99,
          currency: 'USD',
        },
        unitPrice: { amount: 14.99, currency: 'USD', unit: 'Count' },
        rating: 4.5,
        reviewsCount: 84753,
        isSponsored: true,
        isPrime: true,
        badges: [],
        brand: null,
        boughtPastMonth: 10000,
        coupon: null,
        deliveryText: 'FREE delivery Tue, Dec 9',
        deliveryLocation: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 2,
        organicPosition: 1,
        asin: 'B0TSTLAMP2',
        title: 'Architect Desk Lamp, Metal Swing Arm, [2-Pack] Bulbs Included',
        url: 'https://www.amazon.com/dp/B0TSTLAMP2',
        image: 'https://m.media-amazon.com/images/I/71lamp2._AC_UL320_.jpg',
        price: {
          amount: 1249,
          currency: 'USD',
        },
        listPrice: null,
        unitPrice: null,
        rating: 4.2,
        reviewsCount: 1204,
        isSponsored: false,
        isPrime: false,
        badges: ["Amazon's Choice", 'Overall Pick'],
        brand: 'LUMEN',
        boughtPastMonth: null,
        coupon: 'Save 15% with coupon',
        deliveryText: null,
        deliveryLocation: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 3,
        organicPosition: 2,
        asin: '0062796984',
        title: 'Bright Ideas: Lighting the Home',
        url: 'https://www.amazon.com/dp/0062796984',
        image: 'https://m.media-amazon.com/images/I/81book._AC_UL320_.jpg',
        price: {
          amount: 14.95,
          currency: 'USD',
        },
        listPrice: null,
        unitPrice: null,
        rating: null,
        reviewsCount: null,
        isSponsored: false,
        isPrime: false,
        badges: [],
        brand: null,
        boughtPastMonth: null,
        coupon: null,
        deliveryText: null,
        deliveryLocation: null,
        missingFields: ['rating', 'reviewsCount'],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 4,
        organicPosition: null,
        asin: 'B0TSTLAMP4',
        title: 'Clamp Lamp, Flexible Gooseneck',
        url: null,
        image: null,
        price: null,
        listPrice: null,
        unitPrice: null,
        rating: null,
        reviewsCount: null,
        isSponsored: null,
        isPrime: false,
        badges: [],
        brand: null,
        boughtPastMonth: null,
        coupon: null,
        deliveryText: null,
        deliveryLocation: null,
        missingFields: ['url', 'image', 'price', 'rating', 'reviewsCount'],
        parserVersion: PARSER_VERSION,
      },
      {
        position: 5,
        organicPosition: 3,
        asin: 'B0TSTLAMP5',
        title: 'Nordlys Battery Desk Lamp',
        url: 'https://www.amazon.com/dp/B0TSTLAMP5',
        image: 'https://m.media-amazon.com/images/I/51lamp5._AC_UL320_.jpg',
        price: {
          amount: 19.49,
          currency: 'USD',
        },
        listPrice: null,
        unitPrice: null,
        rating: null,
        reviewsCount: null,
        isSponsored: false,
        isPrime: false,
        badges: ['Limited time deal'],
        brand: 'Nordlys Home',
        boughtPastMonth: null,
        coupon: null,
        deliveryText: 'Get it as soon as Tue, Dec 9',
        deliveryLocation: null,
        missingFields: ['rating', 'reviewsCount'],
        parserVersion: PARSER_VERSION,
      },
    ],
    hasNextPage: true,
    noResults: false,
    totalResults: 3000,
  },
  'search-results.html': {
    cards: [
      {
        position: 1,
        organicPosition: null,
        asin: 'B0TESTDSK1',
        title: 'Clip-On Reading Light – 寸法 12 cm © 2026 ∉ &unknown; &',
        url: 'https://www.amazon.com/dp/B0TESTDSK3',
        image: 'https://m.media-amazon.com/images/I/61testA._AC_UL320_.jpg',
        price: {
          amount: 29.99,
          currency: 'USD',
        },
        listPrice: {
          amount: 39.99,
          currency: 'USD',
        },
        unitPrice: null,
        rating: 4.4,
        reviewsCount: 2345,
        isSponsored: true,
        isPrime: null,
        badges: [],
        brand: null,
        boughtPastMonth: 1000,
        coupon: 'Save 10% with coupon',
        deliveryText: 'FREE delivery Wed, Dec 9',
        deliveryLocation: null,
        missingFields: [],
        parserVersion: PARSER_VERSION,
      },
    ],
    hasNextPage: true,
    noResults: false,
    totalResults: 3000,
  },
};

describe('parseSearchResults on our own pages', () => {
  it('has an expectation for every own search page', () => {
    expect(ownPageFiles((f) => f.startsWith('search-'))).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))('%s', (file) => {
    expect(parseSearchResults(ownPage(file), contextOf(file))).toEqual(EXPECTED[file]);
  });
});
