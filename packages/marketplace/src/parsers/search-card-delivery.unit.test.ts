/**
 * Search cards' delivery line and unit price (docs/results.md, "Search cards: delivery and unit
 * price"). Fixture values were read from the HTML: the 2026 page's delivery recipes (their
 * .udm-primary-delivery-message), the 2019 pages' "Kostenlose Lieferung möglich.", "Lieferung bis
 * Mo, 4. Feb" and "+ EUR 4,90 Versandkosten" lines and the one "(EUR 61,20/kg)" beside a price.
 */
import { type MarketplaceCode, MARKETPLACES } from '@crawl/core';
import { parseSearchResults } from './search';
import { cardDeliveryText, cardUnitPrice } from './search-card-commerce';
import { Doc } from '../page';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const FREE_DE = 'Kostenlose Lieferung möglich.';
const PRIME_17 = 'Join Prime to get FREE delivery Tomorrow, Aug 17';

/** Per fixture: every card's deliveryText in position order, and the unit prices by position (the others null). */
const EXPECTED: Record<
  string,
  { deliveryText: (string | null)[]; unitPrice: Record<number, { amount: number; currency: string; unit: string }> }
> = {
  'search-DE-plastikfrei-besteck.html': {
    deliveryText: [
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      null,
      '+ EUR 4,90 Versandkosten',
      '+ EUR 4,90 Versandkosten',
      null,
      '+ EUR 4,90 Versandkosten',
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      '+ EUR 4,90 Versandkosten',
      FREE_DE,
      FREE_DE,
      '+ EUR 4,90 Versandkosten',
      '+ EUR 4,90 Versandkosten',
      null,
    ],
    unitPrice: { 11: { amount: 61.2, currency: 'EUR', unit: 'kg' } },
  },
  'search-DE-plastikfrei-fuer-einsteiger.html': {
    deliveryText: [
      FREE_DE,
      FREE_DE,
      null,
      'Lieferung bis Mo, 4. Feb',
      'Lieferung bis Mo, 4. Feb',
      'Lieferung bis Mo, 4. Feb',
      'Lieferung bis Mo, 4. Feb',
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      null,
      null,
      'Lieferung bis Fr, 1. Feb',
      null,
    ],
    unitPrice: {},
  },
  'search-DE-plastikfrei-gemuesebeutel.html': {
    deliveryText: [
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
      FREE_DE,
    ],
    unitPrice: {},
  },
  'search-US-portable-charger.html': {
    deliveryText: [
      'Join Prime to get FREE delivery Tue, Aug 18',
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      'Join Prime to get FREE delivery Wed, Aug 19',
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      'FREE delivery Aug 19 - 21',
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      PRIME_17,
      'Join Prime to get FREE delivery Tue, Aug 18',
    ],
    unitPrice: {},
  },
};

describeOnRealPages('search cards: delivery line and unit price on the saved result pages', () => {
  it('every search fixture has an expectation and parses to it', () => {
    expect(realPageFiles((f) => f.startsWith('search-'))).toEqual(Object.keys(EXPECTED).sort());
    for (const [file, expected] of Object.entries(EXPECTED)) {
      const mk = file.split('-')[1] as MarketplaceCode;
      const cards = parseSearchResults(readRealPage(file), { marketplace: mk, origin: `https://${MARKETPLACES[mk].host}` }).cards;
      expect([file, cards.map((c) => c.deliveryText)]).toEqual([file, expected.deliveryText]);
      const units = Object.fromEntries(cards.filter((c) => c.unitPrice).map((c) => [c.position, c.unitPrice]));
      expect([file, units]).toEqual([file, expected.unitPrice]);
    }
  });
});

/** The first card of a result page holding `inner`. */
const card = (inner: string) => {
  const doc = new Doc(`<html><body><div data-asin="B0TESTCARD" data-component-type="s-search-result">${inner}</div></body></html>`);
  return doc.$('[data-component-type="s-search-result"]').first();
};

describe('deliveryText: the card delivery line', () => {
  it("2023+: the delivery recipe's primary message, not the secondary one", () => {
    const c = card(
      '<div data-cy="delivery-recipe"><div class="udm-delivery-block"><div class="a-row udm-primary-delivery-message"><div class="a-column">FREE delivery <span class="a-text-bold">Tue, Dec 9</span></div></div>' +
        '<div class="a-row udm-secondary-delivery-message"><div class="a-column">Or fastest delivery <span class="a-text-bold">Tomorrow, Dec 6</span></div></div></div></div>',
    );
    expect(cardDeliveryText(c)).toBe('FREE delivery Tue, Dec 9');
  });

  it('a recipe without the message classes: its line of delivery words', () => {
    expect(
      cardDeliveryText(
        card(
          '<div data-cy="delivery-recipe"><div class="a-row"><span>Lieferung </span><span class="a-text-bold">Mittwoch, 10. Dezember</span></div></div>',
        ),
      ),
    ).toBe('Lieferung Mittwoch, 10. Dezember');
  });

  it.each([
    [
      '<span aria-label="Get it as soon as Tue, Dec 9"><span>Get it as soon as </span><span class="a-text-bold">Tue, Dec 9</span></span>',
      'Get it as soon as Tue, Dec 9',
    ],
    [
      '<span class="a-color-secondary">Lieferung bis <span class="a-text-bold">Mittwoch, 10. Dezember</span></span>',
      'Lieferung bis Mittwoch, 10. Dezember',
    ],
    ['<span>+ EUR 4,90 Versandkosten</span>', '+ EUR 4,90 Versandkosten'],
    ['<span>Livraison GRATUITE <b>mer. 10 déc.</b></span>', 'Livraison GRATUITE mer. 10 déc.'],
    ['<span>Entrega GRATIS el <b>miércoles, 10 de diciembre</b></span>', 'Entrega GRATIS el miércoles, 10 de diciembre'],
    ['<span>Consegna GRATUITA <b>mer 10 dic</b></span>', 'Consegna GRATUITA mer 10 dic'],
    ['<span>Entrega GRÁTIS: <b>quarta-feira, 10 de dezembro</b></span>', 'Entrega GRÁTIS: quarta-feira, 10 de dezembro'],
    ['<span>GRATIS bezorging <b>woensdag 10 december</b></span>', 'GRATIS bezorging woensdag 10 december'],
    ['<span>Leverans <b>onsdag 10 december</b></span>', 'Leverans onsdag 10 december'],
    ['<span>Dostawa <b>śr., 10 gru</b></span>', 'Dostawa śr., 10 gru'],
    ['<span>ÜCRETSİZ teslimat <b>10 Aralık Çarşamba</b></span>', 'ÜCRETSİZ teslimat 10 Aralık Çarşamba'],
    ['<span>お届け日: <b>12月10日 水曜日</b></span>', 'お届け日: 12月10日 水曜日'],
    ['<span>توصيل مجاني <b>الأربعاء، 10 ديسمبر</b></span>', 'توصيل مجاني الأربعاء، 10 ديسمبر'],
  ])('older cards by the words of delivery: %s', (inner, expected) => {
    expect(cardDeliveryText(card(`<div class="a-row">${inner}</div>`))).toBe(expected);
  });

  it('no delivery line: a title that speaks of delivery, a nested card, nothing', () => {
    expect(cardDeliveryText(card('<h2><span>Delivery Bag for Food Delivery Drivers</span></h2>'))).toBeNull();
    expect(
      cardDeliveryText(
        card('<div data-asin="B0NESTED01" data-component-type="s-search-result"><span>FREE delivery Tue, Dec 9</span></div>'),
      ),
    ).toBeNull();
    expect(cardDeliveryText(card('<span class="a-price"><span class="a-offscreen">$9.99</span></span>'))).toBeNull();
  });
});

describe('unitPrice: the card unit price', () => {
  const small = (amount: string, unit: string) =>
    `<span class="a-size-base a-color-secondary">(<span class="a-price a-text-price" data-a-size="b" data-a-color="secondary"><span class="a-offscreen">${amount}</span><span aria-hidden="true">${amount}</span></span>/${unit})</span>`;

  it.each([
    ['US', small('$0.45', 'Ounce'), { amount: 0.45, currency: 'USD', unit: 'Ounce' }],
    ['DE', small('6,24 €', 'kg'), { amount: 6.24, currency: 'EUR', unit: 'kg' }],
    ['JP', small('￥396', '100 ml'), { amount: 396, currency: 'JPY', unit: '100 ml' }],
    ['IN', small('₹2.50', 'count'), { amount: 2.5, currency: 'INR', unit: 'count' }],
    ['DE', '<span class="a-size-base a-color-price">(EUR 61,20/kg)</span>', { amount: 61.2, currency: 'EUR', unit: 'kg' }],
    ['FR', '<span class="a-size-base a-color-secondary">(6,24 €/kg)</span>', { amount: 6.24, currency: 'EUR', unit: 'kg' }],
    ['BR', '<span class="a-size-base a-color-secondary">(R$ 1,25/unidade)</span>', { amount: 1.25, currency: 'BRL', unit: 'unidade' }],
    ['PL', '<span class="a-size-base a-color-secondary">(12,40 zł/l)</span>', { amount: 12.4, currency: 'PLN', unit: 'l' }],
  ])('%s: %s', (marketplace, inner, expected) => {
    expect(cardUnitPrice(card(`<div data-cy="price-recipe">${inner}</div>`), marketplace as MarketplaceCode)).toEqual(expected);
  });

  it('no unit price: a struck price, a pack size without a currency, a nested card', () => {
    const struck = '<span class="a-price a-text-price" data-a-strike="true"><span class="a-offscreen">$39.99</span></span>';
    expect(cardUnitPrice(card(struck), 'US')).toBeNull();
    expect(cardUnitPrice(card('<span class="a-size-base a-color-secondary">(2/Pack)</span>'), 'US')).toBeNull();
    expect(
      cardUnitPrice(card(`<div data-asin="B0NESTED01" data-component-type="s-search-result">${small('$0.45', 'Ounce')}</div>`), 'US'),
    ).toBeNull();
  });
});
