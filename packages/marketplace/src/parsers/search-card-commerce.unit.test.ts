/**
 * Sales signals of search cards. Fixture values were read from the HTML by hand (the card's
 * data-asin, its span.a-size-base.a-color-secondary "… bought in past month" line, its
 * s-coupon-component, and the pre-2019 "N% sparen mit Coupon" link), not copied from parser output.
 *
 * Which fixtures carry which field:
 * | fixture                                 | boughtPastMonth                  | coupon                                                     |
 * |-----------------------------------------|----------------------------------|------------------------------------------------------------|
 * | search-US-portable-charger (2026)       | 20 of 22 cards ("1K+" ... "10K+") | card 10: s-coupon-unclipped "You pay $55.79 with coupon" (the "10% off coupon applied" twin is aok-hidden) |
 * | search-DE-plastikfrei-besteck (2019)    | -                                | - ("✅JETZT 10% RABATT SICHERN ✅" is seller text, not a coupon) |
 * | search-DE-plastikfrei-fuer-einsteiger   | -                                | card 10: "10% sparen mit Coupon"                           |
 * | search-DE-plastikfrei-gemuesebeutel     | -                                | 10 cards: "7% sparen mit Coupon", "EUR 1,00 sparen mit Coupon", ... |
 */
import { parseSearchResults } from './search';
import { cardSalesSignals, type CardSalesSignals } from './search-card-commerce';
import { Doc } from '../page';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const d = describeOnRealPages;

/** position -> [asin, boughtPastMonth, coupon]; cards not listed carry neither. */
type Signals = Record<number, [string, number | null, string | null]>;

const EXPECTED: Record<string, Signals> = {
  'search-US-portable-charger.html': {
    1: ['B0FQVG4RWW', 1_000, null],
    2: ['B0DR8G428S', 200, null],
    3: ['B0CB1FW5FC', 10_000, null],
    4: ['B0GTM5NV64', 9_000, null],
    6: ['B0FW34MF6F', 8_000, null],
    7: ['B0FQJH2XSY', 2_000, null],
    8: ['B0CXDXP8VR', 10_000, null],
    9: ['B0DRVSB42V', 7_000, null],
    10: ['B0FTZ46NF8', null, 'You pay $55.79 with coupon'],
    11: ['B099284SRR', 4_000, null],
    12: ['B0CH7ZNF2W', 1_000, null],
    13: ['B0DCNKDS5B', 5_000, null],
    14: ['B0GQH1QHDH', 8_000, null],
    15: ['B0D7PPG25F', 2_000, null],
    16: ['B0CF26S341', 5_000, null],
    17: ['B0D6RGPJZL', 7_000, null],
    18: ['B0CH829X5R', 8_000, null],
    19: ['B0FRSRFFZR', 7_000, null],
    20: ['B0DQD35SQ4', 5_000, null],
    21: ['B0F66PLGWG', 1_000, null],
    22: ['B0FCKLSC8Y', 1_000, null],
  },
  'search-DE-plastikfrei-besteck.html': {},
  'search-DE-plastikfrei-fuer-einsteiger.html': {
    10: ['B075RDQWGY', null, '10% sparen mit Coupon'],
  },
  'search-DE-plastikfrei-gemuesebeutel.html': {
    2: ['B07JDFSHDB', null, '7% sparen mit Coupon'],
    3: ['B07D187NPX', null, '5% sparen mit Coupon'],
    5: ['B075RDQWGY', null, '10% sparen mit Coupon'],
    10: ['B078GMX7GG', null, 'EUR 1,00 sparen mit Coupon'],
    11: ['B07HJ9WMCY', null, 'EUR 1,00 sparen mit Coupon'],
    14: ['B07HM4QTCY', null, '5% sparen mit Coupon'],
    16: ['B07JYQ35KS', null, 'EUR 2,00 sparen mit Coupon'],
    19: ['B07HJ9WMCY', null, 'EUR 1,00 sparen mit Coupon'],
    20: ['B07FRGQ4X8', null, 'EUR 1,00 sparen mit Coupon'],
    22: ['B07CVXD9M9', null, 'EUR 1,00 sparen mit Coupon'],
  },
};

d('parseSearchResults: sales signals of every search fixture card', () => {
  it('every search fixture has an expectation, and every card its signals', () => {
    expect(realPageFiles((f) => f.startsWith('search-'))).toEqual(Object.keys(EXPECTED).sort());
    for (const [file, signals] of Object.entries(EXPECTED)) expectSignals(file, signals);
  });

  function expectSignals(file: string, signals: (typeof EXPECTED)[string]): void {
    const ctx = file.startsWith('search-US')
      ? { marketplace: 'US', origin: 'https://www.amazon.com' }
      : { marketplace: 'DE', origin: 'https://www.amazon.de' };
    const { cards } = parseSearchResults(readRealPage(file), ctx);
    expect(cards.length).toBeGreaterThan(0);
    for (const c of cards) {
      const [asin, boughtPastMonth, coupon] = signals[c.position] ?? [c.asin, null, null];
      expect({ position: c.position, asin: c.asin, boughtPastMonth: c.boughtPastMonth, coupon: c.coupon }).toEqual({
        position: c.position,
        asin,
        boughtPastMonth,
        coupon,
      });
    }
  }
});

const signalsOf = (cardHtml: string): CardSalesSignals => {
  const doc = new Doc(`<div class="s-result-list">${cardHtml}</div>`);
  return cardSalesSignals(doc.$('[data-component-type="s-search-result"]').first());
};
const card = (inner: string) =>
  `<div data-component-type="s-search-result" data-asin="B000000001"><h2><a href="/dp/B000000001"><span>Power bank</span></a></h2>${inner}</div>`;

describe('cardSalesSignals on synthetic cards', () => {
  it.each([
    ['2K+ bought in past month', 2_000],
    ['100+ comprados el mes pasado', 100],
    ['Mehr als 1.000 Mal im letzten Monat gekauft', 1_000],
    ['Plus de 1 k achetés au cours du mois dernier', 1_000],
    ['10.000+ acquistati nel mese scorso', 10_000],
    ['1 mil+ compras no mês passado', 1_000],
    ['過去1か月で1000点以上購入されました', 1_000],
  ])('the "bought in past month" line: %s', (line, expected) => {
    const s = signalsOf(card(`<div class="a-row a-size-base"><span class="a-size-base a-color-secondary">${line}</span></div>`));
    expect(s).toEqual({ boughtPastMonth: expected, coupon: null });
  });

  it('a "bought" line in other markup is found by its wording', () => {
    const s = signalsOf(card('<div class="a-row"><span class="a-size-small"><b>500+</b> bought in past month</span></div>'));
    expect(s.boughtPastMonth).toBe(500);
  });

  it('other secondary lines are not sales counts', () => {
    const s = signalsOf(
      card(
        '<span class="a-size-base a-color-secondary">FREE delivery Tue, Aug 18</span><span class="a-size-base a-color-secondary">Ships to Spain</span>',
      ),
    );
    expect(s).toEqual({ boughtPastMonth: null, coupon: null });
  });

  it('the coupon component: the unclipped text, not its hidden "applied" twin', () => {
    const s = signalsOf(
      card(
        '<div class="a-row a-size-base a-color-secondary"><span data-component-type="s-coupon-component">' +
          '<span class="s-coupon-clipped aok-hidden"><span>3% coupon applied at checkout</span></span>' +
          '<span class="s-coupon-unclipped"><span class="s-coupon-highlight-color">Save 3%</span> <span> with coupon</span></span></span></div>',
      ),
    );
    expect(s.coupon).toBe('Save 3% with coupon');
  });

  it('a pre-2019 coupon link ("7% sparen mit Coupon") is read whole', () => {
    const s = signalsOf(
      card(
        '<div class="a-row"><span class="a-size-small sx-bestseller"><a href="/dp/B000000001"><i class="a-icon a-icon-addon">7% sparen</i> mit Coupon</a></span></div>',
      ),
    );
    expect(s.coupon).toBe('7% sparen mit Coupon');
  });

  it('seller promotion lines and titles naming coupons are not coupons', () => {
    const s = signalsOf(
      `<div data-component-type="s-search-result" data-asin="B000000002"><h2><a href="/dp/B000000002"><span>Coupon organizer wallet, 12 pockets</span></a></h2>` +
        '<span class="a-color-secondary">✅JETZT 10% RABATT SICHERN ✅</span><span class="a-color-secondary">Buy 4, save 5%</span></div>',
    );
    expect(s).toEqual({ boughtPastMonth: null, coupon: null });
  });
});
