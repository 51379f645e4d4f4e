/**
 * The landed cost of a details page's buy-box offer (docs/results.md, "The landed cost"): the
 * shipping charge and delivery promise of its primary delivery message, the unit price next to
 * the price, a coupon's value and how many are left. The texts are read by landed-cost.ts; this
 * module finds them on the page.
 */
import type { MarketplaceCode } from '@crawl/core';
import type { Doc, Sel } from '../page';
import { firstInBuyBox } from './buy-box-parties';
import { PRICE_BLOCK_IDS } from './details-commerce';
import { couponValueOf, deliveryPromiseOf, shippingCharge, stockQuantityOf, unitPriceOf } from './landed-cost';
import { textOf } from './text';
import type { DetailsItem } from './types';

export type DetailsLandedCost = Pick<DetailsItem, 'shipping' | 'deliveryPromise' | 'unitPrice' | 'couponValue' | 'stockQuantity'>;

/**
 * The primary delivery message: since 2022 a span carrying the charge and the date as data
 * (`data-csa-c-delivery-price`, `data-csa-c-delivery-time`) inside the delivery block, before
 * that the block's or the older ids' text.
 */
const DELIVERY_BLOCK_IDS = [
  'mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE',
  'mir-layout-DELIVERY_BLOCK',
  'deliveryBlockMessage',
  'deliveryMessageMirId',
  'ddmDeliveryMessage',
  'delivery-message',
];

/**
 * The buy box's copy of a delivery block: the active buying-option row's; when the active row
 * has none (a Prime savings upsell opened above the offer), the first copy outside a used-offer
 * row, which is the new offer's.
 */
function offerCopy(sel: Sel): Sel | null {
  const active = firstInBuyBox(sel);
  if (active) return active;
  for (let i = 0; i < sel.length; i++) {
    const row = sel.eq(i).closest('[data-a-accordion-row-name]');
    if (!/used/i.test(row.attr('data-a-accordion-row-name') ?? '')) return sel.eq(i);
  }
  return null;
}

function deliveryMessage(doc: Doc): { charge: string; date: string } | null {
  const tagged = offerCopy(doc.$('[data-csa-c-delivery-price]'));
  if (tagged) {
    const charge = tagged.attr('data-csa-c-delivery-price') ?? '';
    const date = tagged.attr('data-csa-c-delivery-time') ?? '';
    if (charge || date) return { charge, date: date || textOf(tagged) };
  }
  for (const id of DELIVERY_BLOCK_IDS) {
    const block = offerCopy(doc.byId(id));
    const text = block ? textOf(block) : '';
    if (text) return { charge: text, date: text };
  }
  return null;
}

/** Where the price and its unit price are shown: the buy-box price blocks, and the 2019 price row. */
const UNIT_PRICE_BLOCK_IDS = [...PRICE_BLOCK_IDS, 'priceblock_ourprice_row'];
const UNIT_PRICE_RE = /\(([^()]*\d[^()]*\/[^()]+)\)/u;

function unitPriceText(doc: Doc): string | null {
  const marked = firstInBuyBox(doc.$('.pricePerUnit, [data-a-size="mini"] .a-text-price'));
  const candidates: Sel[] = marked ? [marked.parent()] : [];
  for (const id of UNIT_PRICE_BLOCK_IDS) {
    const block = firstInBuyBox(doc.byId(id));
    if (block) candidates.push(block);
  }
  for (const block of candidates) {
    const m = UNIT_PRICE_RE.exec(textOf(block));
    if (m) return `(${m[1]})`;
  }
  return null;
}

export function extractLandedCost(
  doc: Doc,
  marketplace: MarketplaceCode,
  fetchedAt: Date,
  shown: Pick<DetailsItem, 'coupon' | 'availability'>,
): DetailsLandedCost {
  const delivery = deliveryMessage(doc);
  const unit = unitPriceText(doc);
  return {
    shipping: delivery ? shippingCharge(delivery.charge, marketplace) : null,
    deliveryPromise: delivery ? deliveryPromiseOf(delivery.date, fetchedAt, marketplace) : null,
    unitPrice: unit ? unitPriceOf(unit, marketplace) : null,
    couponValue: shown.coupon ? couponValueOf(shown.coupon, marketplace) : null,
    stockQuantity: shown.availability.text ? stockQuantityOf(shown.availability.text) : null,
  };
}
