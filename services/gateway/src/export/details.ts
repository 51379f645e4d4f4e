import type { ExportKind } from './types';

/** A product: `query` is the submitted target. */
export const details: ExportKind<'details'> = {
  llm: (item) => ({
    query: item.target,
    asin: item.asin,
    url: item.url,
    title: item.title,
    brand: item.brand,
    price: item.price?.amount ?? null,
    listPrice: item.listPrice?.amount ?? null,
    currency: item.price?.currency ?? item.listPrice?.currency ?? null,
    rating: item.rating,
    reviewCount: item.reviewsCount,
    availability: item.availability.status,
    isPrime: item.isPrime,
    imageUrl: item.mainImage,
    images: item.images,
    features: item.features,
    description: item.description,
    categories: item.categories,
    bestSellersRank: item.bestSellersRank,
    seller: item.seller?.name ?? null,
    specifications: item.specifications,
  }),
};
