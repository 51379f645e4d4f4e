import { orNull, z } from './openapi-zod';
import { JOB_TYPES } from './domain';
import { moneySchema } from './money';

/**
 * The stored result items of details and search jobs (what `GET /jobs/{id}/results` and the
 * json export return; the other types' are in offer-items.ts, bestseller-items.ts and
 * review-items.ts, and their union `resultItemSchema` in kinds/index.ts) and the `llm` export. The parsers' output types are inferred from these
 * schemas (packages/marketplace parsers/types.ts), the OpenAPI document registers them, and the
 * SDK's types are generated from that document.
 *
 * Stored items carry no tag of their kind: the job's type says which schema an item has
 * (JOB_KINDS in kinds/index.ts maps each type to its item schema), and every response and
 * export reads it from the job, never from the item's keys.
 */

export { moneySchema, type Money } from './money';

export const AVAILABILITY_STATUSES = ['in_stock', 'out_of_stock', 'preorder', 'unknown'] as const;
export type AvailabilityStatus = (typeof AVAILABILITY_STATUSES)[number];

const rankSchema = z.object({ category: z.string(), rank: z.number().int() }).strict();

/** The product fields a details page yields (the parser's output, before the worker adds `target`). */
export const parsedDetailsSchema = z
  .object({
    asin: z.string(),
    url: z.string().nullable(),
    title: z.string().nullable(),
    brand: z.string().nullable(),
    price: orNull(moneySchema),
    listPrice: orNull(moneySchema),
    rating: z.number().nullable().describe('0-5'),
    reviewsCount: z.number().int().nullable(),
    availability: z.object({ status: z.enum(AVAILABILITY_STATUSES), text: z.string().nullable() }).strict(),
    mainImage: z.string().nullable(),
    images: z.array(z.string()),
    features: z.array(z.string()),
    description: z.string().nullable(),
    categories: z.array(z.string()),
    bestSellersRank: z.array(rankSchema),
    seller: z.object({ name: z.string(), id: z.string().nullable() }).strict().nullable(),
    isPrime: z
      .boolean()
      .nullable()
      .describe(
        'true: the buy box shows a Prime badge for the offer; false: the page says the offer is not Prime; null: the page does not say (no badge is not a no)',
      ),
    variants: z.array(z.object({ asin: z.string(), dimensions: z.record(z.string()) }).strict()),
    specifications: z.record(z.string()),
    missingFields: z
      .array(z.string())
      .describe('Main fields the page did not have: title, price, rating, reviewsCount, availability, brand, mainImage'),
    parserVersion: z.string(),
  })
  .strict();

/** The fields of one search result card (the parser's output, before the worker adds `keyword`). */
export const parsedSearchCardSchema = z
  .object({
    position: z
      .number()
      .int()
      .describe(
        "1-based among all cards of the keyword's result pages, sponsored included; continues across pages (page 2's first card follows page 1's last)",
      ),
    organicPosition: z
      .number()
      .int()
      .nullable()
      .describe('1-based among cards known to be organic (isSponsored false), continuing across pages; null for the others'),
    asin: z.string(),
    title: z.string().nullable(),
    url: z.string().nullable(),
    image: z.string().nullable(),
    price: orNull(moneySchema),
    listPrice: orNull(moneySchema),
    rating: z.number().nullable().describe('0-5'),
    reviewsCount: z.number().int().nullable(),
    isSponsored: z
      .boolean()
      .nullable()
      .describe(
        'true: the card carries an ad label or ad link; false: no ad marker and a direct product link; null: the card has neither, so the page does not say',
      ),
    isPrime: z
      .boolean()
      .nullable()
      .describe(
        'true: the card shows a Prime badge; false: no badge while other cards of the page show one; null: no card of the page shows Prime badges, so the page does not say',
      ),
    badges: z.array(z.string()),
    missingFields: z.array(z.string()).describe('Of: title, url, image, price, rating, reviewsCount'),
    parserVersion: z.string(),
  })
  .strict();

export type ParsedDetails = z.infer<typeof parsedDetailsSchema>;
export type ParsedSearchCard = z.infer<typeof parsedSearchCardSchema>;

/**
 * A result item of a `details` job: one per product. The shape's key order is the documented
 * order of the fields (README "Results and exports"): `target` first, then the parsed product.
 */
export const detailsResultItemSchema = z
  .object({ target: z.string().describe('The target as submitted (ASIN or product URL)') })
  .merge(parsedDetailsSchema)
  .strict()
  .openapi('DetailsResultItem');
/**
 * A result item of a `search` job: one per result card, in page order; `keyword` and the result
 * `page` first, then the card. A product shown on two pages (or twice on one) is two items.
 */
export const searchResultItemSchema = z
  .object({ keyword: z.string(), page: z.number().int().min(1).describe('The result page (1-based) the card was on; see config.pages') })
  .merge(parsedSearchCardSchema)
  .strict()
  .openapi('SearchResultItem');

/** The object schema inside wrappers (nullable, optional, `orNull` unions); undefined for anything else. */
export function objectSchemaOf(schema: z.ZodTypeAny): z.AnyZodObject | undefined {
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) return objectSchemaOf(schema.unwrap());
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodTypeAny[]).map(objectSchemaOf).find(Boolean);
  return undefined;
}

export type DetailsResultItem = z.infer<typeof detailsResultItemSchema>;
export type SearchResultItem = z.infer<typeof searchResultItemSchema>;

/**
 * Version of the `llm` export contract. Bump the major on any breaking change. 1.1 added the
 * offer and review keys (`condition` ... `variant`) for the offers, bestsellers and reviews job types.
 */
export const LLM_SCHEMA_VERSION = '1.1';

/**
 * One item of the `llm` export: the same keys in the same order for every kind of row (null
 * where a kind has no such value), prices as numbers in major units of `currency`. Offers:
 * `rank` is the offer's position, `seller` its seller, `price` its price. Best-seller items:
 * `rank` is the list rank. Reviews: `rank` is the review's position in the export's order of the
 * product, `title`/`description` the review's title and body, `rating` the review's stars.
 */
export const llmExportItemSchema = z
  .object({
    source: z.enum(JOB_TYPES),
    query: z.string().nullable().describe('The keyword (search) or the submitted target (details)'),
    rank: z.number().int().nullable(),
    organicRank: z.number().int().nullable(),
    page: z.number().int().nullable().describe('Search: the result page (1-based) of the card; null for details'),
    asin: z.string().nullable(),
    marketplace: z.string(),
    url: z.string().nullable(),
    title: z.string().nullable(),
    brand: z.string().nullable(),
    price: z.number().nullable(),
    listPrice: z.number().nullable(),
    currency: z.string().nullable(),
    rating: z.number().nullable(),
    reviewCount: z.number().int().nullable(),
    availability: z.enum(AVAILABILITY_STATUSES).nullable(),
    isPrime: z.boolean().nullable(),
    isSponsored: z.boolean().nullable(),
    imageUrl: z.string().nullable(),
    images: z.array(z.string()),
    features: z.array(z.string()),
    description: z.string().nullable(),
    categories: z.array(z.string()),
    bestSellersRank: z.array(rankSchema),
    seller: z.string().nullable(),
    badges: z.array(z.string()),
    specifications: z.record(z.string()),
    condition: z.string().nullable().describe('Offers: the offer condition as shown'),
    shipping: z.number().nullable().describe('Offers: shipping charge in `currency` (0 when free)'),
    isBuyBox: z.boolean().nullable().describe('Offers: the offer holds the buy box'),
    fulfilledByAmazon: z.boolean().nullable().describe('Offers'),
    reviewId: z.string().nullable().describe('Reviews: Amazon review id'),
    author: z.string().nullable().describe('Reviews'),
    date: z.string().nullable().describe('Reviews: ISO yyyy-mm-dd'),
    verifiedPurchase: z.boolean().nullable().describe('Reviews'),
    helpfulVotes: z.number().int().nullable().describe('Reviews'),
    variant: z.string().nullable().describe('Reviews: the variant line'),
    missingFields: z.array(z.string()),
  })
  .strict()
  .openapi('LlmExportItem');
export type LlmExportItem = z.infer<typeof llmExportItemSchema>;

/** The whole `llm` export document: a versioned object, not an array. */
export const llmExportSchema = z
  .object({
    schemaVersion: z.literal(LLM_SCHEMA_VERSION),
    generatedAt: z.string().datetime(),
    job: z
      .object({
        id: z.string(),
        type: z.enum(JOB_TYPES),
        marketplace: z.string(),
        lang: z.string().nullable(),
        targets: z.array(z.string()),
        createdAt: z.string().datetime(),
        finishedAt: z.string().datetime().nullable(),
        resultsCount: z.number().int(),
      })
      .strict(),
    items: z.array(llmExportItemSchema),
  })
  .strict()
  .openapi('LlmExport');
export type LlmExport = z.infer<typeof llmExportSchema>;
export type LlmExportJob = LlmExport['job'];
