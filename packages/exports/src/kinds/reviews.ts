import type { ExportKind } from './types';

/** A review: `title`/`description` are the review's title and body, `rating` its stars. */
export const reviews: ExportKind<'reviews'> = {
  llm: (item) => ({
    query: item.target,
    page: item.page,
    asin: item.asin,
    title: item.title,
    description: item.body,
    rating: item.rating,
    reviewCount: item.product.ratingsCount,
    reviewId: item.id,
    author: item.author,
    date: item.date,
    verifiedPurchase: item.verifiedPurchase,
    helpfulVotes: item.helpfulVotes,
    variant: item.variant,
  }),
};
