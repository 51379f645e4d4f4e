import { orNull, z } from './openapi-zod';
import { fetchProvenanceSchema } from './item-provenance';

/**
 * Items of a customer reviews page (`/product-reviews/{ASIN}`): one per review, in page order,
 * plus the product's rating summary once per page. Review pages are marked up with data-hook
 * attributes since 2018; dates are shown as localized text ("Reviewed in Italy on 3 June 2023",
 * "Recensito in Italia il 12 novembre 2018") and converted to ISO dates.
 */
export const parsedReviewSchema = z
  .object({
    id: z.string().describe('Amazon review id (R...)'),
    rating: z.number().nullable().describe("The review's stars, 1-5"),
    title: z.string().nullable().describe('The review title, in the original language when the page also offers a translation'),
    body: z.string().nullable().describe('The review text, paragraphs separated by newlines'),
    author: z.string().nullable().describe("The reviewer's public name"),
    date: z.string().nullable().describe('ISO yyyy-mm-dd, parsed from dateText'),
    dateText: z.string().nullable().describe('The date line as shown'),
    country: z
      .string()
      .nullable()
      .describe('Country the review was written in, as named on the page ("the United States" -> "United States")'),
    verifiedPurchase: z.boolean().describe('The review carries the "Verified Purchase" mark'),
    helpfulVotes: z
      .number()
      .int()
      .nullable()
      .describe('0 when the page shows the vote widget without a count; null when it shows no widget'),
    variant: z.string().nullable().describe('The variant line, e.g. "Size: 27-Inch | Style: Curved"'),
    missingFields: z.array(z.string()).describe('The main fields the page did not show, of: rating, title, body, author, date'),
    parserVersion: z
      .string()
      .describe('The parser release that read the page (items of an older parser may lack later fields: they read as null)'),
  })
  .strict();

/** Percent of ratings per star count; null for a row the page does not show. */
export const ratingHistogramSchema = z
  .object({
    fiveStar: z.number().nullable(),
    fourStar: z.number().nullable(),
    threeStar: z.number().nullable(),
    twoStar: z.number().nullable(),
    oneStar: z.number().nullable(),
  })
  .strict()
  .openapi('RatingHistogram');

export const reviewsProductSchema = z
  .object({
    asin: z.string().nullable(),
    title: z.string().nullable(),
    rating: z.number().nullable().describe('Overall rating, 0-5'),
    ratingsCount: z.number().int().nullable().describe('All ratings of the product ("25,181 global ratings"), not only the filtered ones'),
    histogram: orNull(ratingHistogramSchema),
  })
  .strict()
  .openapi('ReviewsProductSummary');

/** What the reviews parser returns for one page; `hasNextPage` lets the crawler stop early. */
export const parsedReviewsPageSchema = z
  .object({
    product: reviewsProductSchema,
    hasNextPage: z.boolean(),
    reviews: z.array(parsedReviewSchema),
  })
  .strict();

export type ParsedReview = z.infer<typeof parsedReviewSchema>;
export type RatingHistogram = z.infer<typeof ratingHistogramSchema>;
export type ReviewsProductSummary = z.infer<typeof reviewsProductSchema>;
export type ParsedReviewsPage = z.infer<typeof parsedReviewsPageSchema>;

/**
 * A result item of a `reviews` job: one per review, in page order; the submitted `target`, the
 * product's `asin` and the review `page` first, then the review, then the product's rating
 * summary as the page showed it (the same on every item of a product: a row stands on its own
 * in a CSV, and no second kind of item is needed for it).
 */
export const reviewResultItemSchema = z
  .object({
    target: z.string().describe('The target as submitted (ASIN or product URL)'),
    asin: z.string().describe('The reviewed product'),
    page: z.number().int().min(1).describe('The review page (1-based) the review was on; see config.pages'),
  })
  .merge(parsedReviewSchema)
  .extend({
    product: reviewsProductSchema.describe("The product's overall rating, ratings count and histogram, as shown on the review page"),
  })
  .merge(fetchProvenanceSchema)
  .strict()
  .openapi('ReviewResultItem');
export type ReviewResultItem = z.infer<typeof reviewResultItemSchema>;
