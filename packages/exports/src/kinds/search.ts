import type { ExportKind } from './types';

/** A result card: `rank` is its overall position, `query` the keyword. */
export const search: ExportKind<'search'> = {
  llm: (item) => ({
    query: item.keyword,
    rank: item.position,
    organicRank: item.organicPosition,
    page: item.page,
    asin: item.asin,
    url: item.url,
    title: item.title,
    price: item.price?.amount ?? null,
    listPrice: item.listPrice?.amount ?? null,
    currency: item.price?.currency ?? item.listPrice?.currency ?? null,
    rating: item.rating,
    reviewCount: item.reviewsCount,
    isPrime: item.isPrime,
    isSponsored: item.isSponsored,
    imageUrl: item.image,
    images: item.image ? [item.image] : [],
    badges: item.badges,
    brand: item.brand,
    coupon: item.coupon,
    boughtPastMonth: item.boughtPastMonth,
    totalResults: item.totalResults,
    deliveryLocation: item.deliveryLocation?.text ?? null,
    postalCode: item.deliveryLocation?.postalCode ?? null,
    deliveryPromise: item.deliveryText,
    unitPrice: item.unitPrice?.amount ?? null,
    unitPriceUnit: item.unitPrice?.unit ?? null,
  }),
};
