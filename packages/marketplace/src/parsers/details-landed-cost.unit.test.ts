/**
 * The landed cost of a details page's buy-box offer (docs/results.md, "The landed cost"): the
 * primary delivery message's charge and date, the unit price, the coupon's value and the stock
 * left, on every saved page and on buying-option accordions in Amazon's markup.
 */
import { Doc } from '../page';
import { extractLandedCost } from './details-landed-cost';
import { parseDetailsPage } from './details';
import type { DetailsItem } from './types';
import { describeOnRealPages as d, readRealPage, realPageFiles } from '../test-support/real-pages';

/** When the saved pages were "fetched": what their delivery dates resolve against (a Sunday). */
const FETCHED_AT = new Date('2026-08-16T12:00:00Z');

type LandedCost = Pick<DetailsItem, 'shipping' | 'deliveryPromise' | 'unitPrice' | 'couponValue' | 'stockQuantity'>;
const NONE: LandedCost = { shipping: null, deliveryPromise: null, unitPrice: null, couponValue: null, stockQuantity: null };
const promise = (text: string, earliest: string, latest = earliest) => ({ text, earliest, latest });

/**
 * Pages without a value show no delivery message in their buy box (unavailable, signed-out
 * layouts whose message is loaded later) or name no charge; none of them shows a unit price.
 * US-B0DR8G428S opens a Prime savings upsell row above the new offer's row: the offer's message
 * is read from the new row. FR and UK-1439878676 follow the date with an order countdown.
 */
const EXPECTED: Record<string, LandedCost> = {
  'details-BR-8565042472.html': {
    ...NONE,
    shipping: { amount: 0, currency: 'BRL' },
    deliveryPromise: promise('Terça-feira, 24 de Maio', '2027-05-24'),
  },
  'details-BR-B085VK7LYQ.html': NONE,
  'details-BR-B09YRKYRSM.html': {
    ...NONE,
    shipping: { amount: 0, currency: 'BRL' },
    deliveryPromise: promise('10 - 28 de Junho', '2027-06-10', '2027-06-28'),
    couponValue: { type: 'percent', value: 10 },
  },
  'details-DE-B01GAWQSFW.html': NONE,
  'details-ES-B01MUGXRT9.html': NONE,
  'details-ES-B07JH148DF.html': {
    ...NONE,
    shipping: { amount: 0, currency: 'EUR' },
    deliveryPromise: promise('domingo, 20 de abril', '2027-04-20'),
  },
  'details-ES-B08PBWPQ16.html': NONE,
  'details-FR-B07H57DNVV.html': { ...NONE, deliveryPromise: promise('vendredi 26 avr', '2027-04-26') },
  'details-UK-1439878676.html': { ...NONE, deliveryPromise: promise('Friday, 26 Apr', '2027-04-26'), stockQuantity: 6 },
  'details-UK-1849757097.html': {
    ...NONE,
    shipping: { amount: 3.99, currency: 'GBP' },
    deliveryPromise: promise('17 January - 7 February', '2027-01-17', '2027-02-07'),
  },
  'details-US-0062796984.html': NONE,
  'details-US-B0011UCPM4.html': NONE,
  'details-US-B01GAWQSFW.html': NONE,
  'details-US-B073WRF565.html': {
    ...NONE,
    shipping: { amount: 0, currency: 'USD' },
    deliveryPromise: promise('Tuesday, July 12', '2026-07-12'),
  },
  // "FREE delivery: Thursday": the Thursday after the fetch
  'details-US-B07G2L3JMM.html': { ...NONE, shipping: { amount: 0, currency: 'USD' }, deliveryPromise: promise('Thursday', '2026-08-20') },
  'details-US-B0DR8G428S.html': {
    ...NONE,
    shipping: { amount: 0, currency: 'USD' },
    deliveryPromise: promise('Friday, August 21', '2026-08-21'),
  },
};

const landedCostOf = (item: DetailsItem): LandedCost => ({
  shipping: item.shipping,
  deliveryPromise: item.deliveryPromise,
  unitPrice: item.unitPrice,
  couponValue: item.couponValue,
  stockQuantity: item.stockQuantity,
});

d('parseDetailsPage: the landed cost of every fixture', () => {
  it('every detail fixture has an expectation and parses to it', () => {
    expect(realPageFiles((f) => f.startsWith('details-'))).toEqual(Object.keys(EXPECTED).sort());
    const parsed = Object.keys(EXPECTED).map((file) => {
      const marketplace = file.split('-')[1]!;
      const item = parseDetailsPage(readRealPage(file), { marketplace, origin: 'https://www.amazon.com', fetchedAt: FETCHED_AT });
      return [file, item ? landedCostOf(item) : null];
    });
    expect(Object.fromEntries(parsed)).toEqual(EXPECTED);
  });
});

/** A buying-option accordion row with a delivery message carrying its charge and date. */
const row = (name: string, active: boolean, delivery: { price: string; time: string } | null) =>
  `<div class="a-box${active ? ' a-accordion-active' : ''}" data-a-accordion-row-name="${name}"><div class="a-box-inner">${
    delivery
      ? `<div id="mir-layout-DELIVERY_BLOCK"><span data-csa-c-content-id="DEXUnifiedCXPDM" data-csa-c-delivery-price="${delivery.price}" data-csa-c-delivery-time="${delivery.time}">${delivery.price} delivery <span class="a-text-bold">${delivery.time}</span></span></div>`
      : '<span>Save with Prime</span>'
  }</div></div>`;
const landed = (body: string) =>
  extractLandedCost(new Doc(`<html><body><div id="buybox">${body}</div></body></html>`), 'US', FETCHED_AT, {
    coupon: null,
    availability: { status: 'in_stock', text: 'In Stock' },
  });

describe('extractLandedCost: the delivery message of the buy box', () => {
  it("the active buying option's message, not another row's", () => {
    const body =
      row('newAccordionRow', false, { price: '$5.99', time: 'Tuesday, August 25' }) +
      row('usedAccordionRow', true, { price: 'FREE', time: 'Friday, August 21' });
    expect(landed(body)).toMatchObject({
      shipping: { amount: 0, currency: 'USD' },
      deliveryPromise: promise('Friday, August 21', '2026-08-21'),
    });
  });

  it('an active row without a message of its own (a Prime savings upsell) leaves it to the new offer, not the used one', () => {
    const body =
      row('primeSavingsUpsellAccordionRow', true, null) +
      row('usedAccordionRow', false, { price: '$3.49', time: 'Monday, August 24' }) +
      row('newAccordionRow', false, { price: '$5.99', time: 'Tuesday, August 25' });
    expect(landed(body)).toMatchObject({
      shipping: { amount: 5.99, currency: 'USD' },
      deliveryPromise: promise('Tuesday, August 25', '2026-08-25'),
    });
  });

  it('only a used offer says when: the page names no delivery of the buy box', () => {
    const body =
      row('primeSavingsUpsellAccordionRow', true, null) + row('usedAccordionRow', false, { price: '$3.49', time: 'Monday, August 24' });
    expect(landed(body)).toMatchObject({ shipping: null, deliveryPromise: null });
  });
});
