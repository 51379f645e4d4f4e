import type { ExportKind } from './types';

/** An offer: `rank` is the offer's position, `seller` its seller, `price` its price. */
export const offers: ExportKind<'offers'> = {
  llm: (item) => ({
    query: item.target,
    rank: item.position,
    asin: item.asin,
    price: item.price?.amount ?? null,
    currency: item.price?.currency ?? item.shipping?.currency ?? null,
    seller: item.seller?.name ?? null,
    condition: item.condition,
    shipping: item.shipping?.amount ?? null,
    isBuyBox: item.isBuyBox,
    fulfilledByAmazon: item.fulfilledByAmazon,
    shipsFrom: item.shipsFrom,
    deliveryLocation: item.deliveryLocation?.text ?? null,
    postalCode: item.deliveryLocation?.postalCode ?? null,
    deliveryPromise: item.deliveryText,
  }),
};
