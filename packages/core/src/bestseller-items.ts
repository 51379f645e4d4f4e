import { orNull, z } from './openapi-zod';
import { moneySchema } from './money';
import { fetchProvenanceSchema } from './item-provenance';

/**
 * Items of a best-seller list page (zgbs): one per rendered card, in rank order. Layouts: the
 * 2021+ grid (#gridItemRoot cards, .zg-bdg-text rank badges) and the older
 * .zg-item-immersion / .zg_itemImmersion lists. Fields a card does not show are null.
 */
export const parsedBestsellerSchema = z
  .object({
    rank: z.number().int().describe('The list rank shown on the card (#1 ...), continuing across list pages'),
    asin: z.string().describe('The ranked product'),
    title: z.string().nullable().describe("The card's title"),
    url: z.string().describe('The product page, {origin}/dp/{asin}'),
    image: z.string().nullable().describe("The card's image URL"),
    price: orNull(moneySchema).describe('The price on the card; for "N offers from X" cards the lowest offer X'),
    rating: z.number().nullable().describe('Average rating, 0-5; null without ratings'),
    reviewsCount: z.number().int().nullable().describe('Number of ratings; null without ratings'),
    missingFields: z.array(z.string()).describe('The main fields the page did not show, of: title, image, price, rating, reviewsCount'),
    parserVersion: z
      .string()
      .describe('The parser release that read the page (items of an older parser may lack later fields: they read as null)'),
  })
  .strict();

/** A ranked ASIN the page lists in its data but renders only on scroll (no card on the page). */
export const bestsellerLazyItemSchema = z.object({ rank: z.number().int(), asin: z.string() }).strict();

export const parsedBestsellersPageSchema = z
  .object({
    category: z.string().nullable().describe('The list heading, e.g. "Best Sellers in Electronics"'),
    hasNextPage: z.boolean(),
    items: z.array(parsedBestsellerSchema),
    lazyItems: z.array(bestsellerLazyItemSchema),
  })
  .strict();

export type ParsedBestseller = z.infer<typeof parsedBestsellerSchema>;
export type ParsedBestsellersPage = z.infer<typeof parsedBestsellersPageSchema>;

/**
 * A result item of a `bestsellers` job: one per ranked product of the list page, in rank order;
 * the submitted list URL and the list's `category` first. Products the page lists only in its
 * data (rendered on scroll, `lazyItems`) are items too, with their rank and ASIN and every card
 * field null (named in `missingFields`): the ranking stays complete, nothing is invented.
 */
export const bestsellerResultItemSchema = z
  .object({
    target: z.string().describe('The best-seller list URL as submitted'),
    category: z.string().nullable().describe('The list heading, e.g. "Best Sellers in Electronics"'),
  })
  .merge(parsedBestsellerSchema)
  .merge(fetchProvenanceSchema)
  .strict()
  .openapi('BestsellerResultItem');
export type BestsellerResultItem = z.infer<typeof bestsellerResultItemSchema>;
