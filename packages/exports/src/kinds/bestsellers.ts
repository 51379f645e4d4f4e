import type { ExportKind } from './types';

/** A best-seller item: `rank` is the list rank, `categories` the list's category. */
export const bestsellers: ExportKind<'bestsellers'> = {
  llm: (item) => ({
    query: item.target,
    rank: item.rank,
    asin: item.asin,
    url: item.url,
    title: item.title,
    price: item.price?.amount ?? null,
    currency: item.price?.currency ?? null,
    rating: item.rating,
    reviewCount: item.reviewsCount,
    imageUrl: item.image,
    images: item.image ? [item.image] : [],
    categories: item.category ? [item.category] : [],
  }),
};
