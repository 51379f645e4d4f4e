import { orNull, z } from './openapi-zod';
import { JOB_TYPES } from './domain';

/**
 * The one definition of a stored result item (what `GET /jobs/{id}/results` and the json
 * export return) and of the `llm` export. The parsers' output types are inferred from these
 * schemas (packages/marketplace parsers/types.ts), the OpenAPI document registers them, and the
 * SDK's types are generated from that document.
 *
 * Details and search items are told apart by their key field, `target` (details) or `keyword`
 * (search), not by a tag field: stored rows predate a tag and every export carries items as
 * stored. The schemas are strict, so exactly one branch of `resultItemSchema` matches an item.
 */

export const moneySchema = z
  .object({
    amount: z.number().describe('In major units (19.99)'),
    currency: z.string().describe('ISO 4217 code'),
  })
  .strict().openapi('Money');
export type Money = z.infer<typeof moneySchema>;

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
    isPrime: z.boolean(),
    variants: z.array(z.object({ asin: z.string(), dimensions: z.record(z.string()) }).strict()),
    specifications: z.record(z.string()),
    missingFields: z.array(z.string()).describe('Main fields the page did not have: title, price, rating, reviewsCount, availability, brand, mainImage'),
    parserVersion: z.string(),
  })
  .strict();

/** The fields of one search result card (the parser's output, before the worker adds `keyword`). */
export const parsedSearchCardSchema = z
  .object({
    position: z.number().int().describe('1-based among all cards on the page, sponsored included'),
    organicPosition: z.number().int().nullable().describe('1-based among non-sponsored cards; null for sponsored ones'),
    asin: z.string(),
    title: z.string().nullable(),
    url: z.string().nullable(),
    image: z.string().nullable(),
    price: orNull(moneySchema),
    listPrice: orNull(moneySchema),
    rating: z.number().nullable().describe('0-5'),
    reviewsCount: z.number().int().nullable(),
    isSponsored: z.boolean(),
    isPrime: z.boolean(),
    badges: z.array(z.string()),
    missingFields: z.array(z.string()).describe('Of: title, url, image, price, rating, reviewsCount'),
    parserVersion: z.string(),
  })
  .strict();

export type ParsedDetails = z.infer<typeof parsedDetailsSchema>;
export type ParsedSearchCard = z.infer<typeof parsedSearchCardSchema>;

/** A result item of a `details` job: one per product. */
export const detailsResultItemSchema = parsedDetailsSchema.extend({ target: z.string().describe('The target as submitted (ASIN or product URL)') }).strict().openapi('DetailsResultItem');
/** A result item of a `search` job: one per result card, in page order. */
export const searchResultItemSchema = parsedSearchCardSchema.extend({ keyword: z.string() }).strict().openapi('SearchResultItem');
export const resultItemSchema = z.union([detailsResultItemSchema, searchResultItemSchema]).openapi('ResultItem');

export type DetailsResultItem = z.infer<typeof detailsResultItemSchema>;
export type SearchResultItem = z.infer<typeof searchResultItemSchema>;
export type ResultItem = z.infer<typeof resultItemSchema>;

/** Version of the `llm` export contract. Bump the major on any breaking change. */
export const LLM_SCHEMA_VERSION = '1.0';

/**
 * One item of the `llm` export: the same keys in the same order for search and details rows
 * (null where a kind has no such value), prices as numbers in major units of `currency`.
 */
export const llmExportItemSchema = z
  .object({
    source: z.enum(JOB_TYPES),
    query: z.string().nullable().describe('The keyword (search) or the submitted target (details)'),
    rank: z.number().int().nullable(),
    organicRank: z.number().int().nullable(),
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
    missingFields: z.array(z.string()),
  })
  .strict().openapi('LlmExportItem');
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
  .strict().openapi('LlmExport');
export type LlmExport = z.infer<typeof llmExportSchema>;
export type LlmExportJob = LlmExport['job'];
