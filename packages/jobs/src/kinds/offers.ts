import { isNewCondition, type ProductSnapshotData } from '@crawl/core';
import { type Item, money, NOT_OBSERVED, num, text } from './snapshot-values';
import type { TrackingKind } from './types';

/** An offer listing observes the buy box and the lowest new price; compare does not apply. */
export const offers: TrackingKind = { snapshots: offerSnapshots, compare: null };

/**
 * Per product of an offer listing: the buy-box offer's winner and price (what a product page's
 * buy box shows too) and the lowest price of a new offer, in the currency of either. A listing
 * that observed nothing (no buy box marked, no priced new offer) is left out.
 */
function offerSnapshots(items: Item[]): Map<string, ProductSnapshotData> {
  const offersByAsin = new Map<string, Item[]>();
  for (const offer of items) {
    if (typeof offer.asin !== 'string') continue;
    const offers = offersByAsin.get(offer.asin);
    if (offers) offers.push(offer);
    else offersByAsin.set(offer.asin, [offer]);
  }
  const byAsin = new Map<string, ProductSnapshotData>();
  for (const [asin, offers] of offersByAsin) {
    const buyBox = offers.find((o) => o.isBuyBox === true);
    const buyBoxPrice = money(buyBox?.price);
    const newPrices = offers
      .filter((o) => isNewCondition(typeof o.condition === 'string' ? o.condition : null))
      .map((o) => money(o.price))
      .filter((p) => num(p?.amount) !== null);
    const currency = buyBoxPrice?.currency ?? newPrices[0]?.currency ?? null;
    const amounts = newPrices.filter((p) => p!.currency === currency).map((p) => p!.amount!);
    const snapshot: ProductSnapshotData = {
      ...NOT_OBSERVED,
      price: num(buyBoxPrice?.amount),
      currency,
      seller: text((buyBox?.seller as { name?: string } | null | undefined)?.name),
      lowestNewPrice: amounts.length ? Math.min(...amounts) : null,
    };
    if (Object.values(snapshot).some((v) => v !== null)) byAsin.set(asin, snapshot);
  }
  return byAsin;
}
