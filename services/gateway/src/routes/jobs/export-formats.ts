import {
  bestsellerResultItemSchema,
  detailsResultItemSchema,
  LLM_SCHEMA_VERSION,
  type LlmExport,
  type LlmExportItem,
  objectSchemaOf,
  offerResultItemSchema,
  type ResultItem,
  reviewResultItemSchema,
  searchResultItemSchema,
} from '@crawl/core';
import type { z } from 'zod';
import type { JobRow } from '@crawl/db';

/**
 * Export formats of stored result items. Pure functions: one item in, one chunk of text out,
 * so the export can stream any number of rows.
 *
 * CSV: one header row, columns in the documented field order of the item schemas (@crawl/core
 * result-items.ts), RFC 4180 quoting, UTF-8.
 * Money is split into `<field>_amount` and `<field>_currency`; arrays and objects (images,
 * features, variants, specifications...) are JSON text in one cell; booleans are true/false;
 * a missing value is an empty cell.
 * Text cells that a spreadsheet would run as a formula are prefixed with `'` (see `csvCell`).
 */
type Item = Record<string, unknown>;
type Column = [header: string, get: (item: Item) => unknown];

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const field = (name: string) => (item: Item) => item[name];
const part = (name: string, sub: string) => (item: Item) => (item[name] as Record<string, unknown> | null | undefined)?.[sub];

/**
 * The columns of an item schema, in its shape's order (the documented field order, one source
 * for JSON and CSV): an object field (money, availability, seller) becomes one column per key,
 * `<field>_<key>` (`price_amount`, `price_currency`); everything else is one column.
 */
function columnsOf(schema: z.AnyZodObject): Column[] {
  return Object.entries(schema.shape as Record<string, z.ZodTypeAny>).flatMap(([name, fieldSchema]): Column[] => {
    const object = objectSchemaOf(fieldSchema);
    if (!object) return [[snake(name), field(name)]];
    return Object.keys(object.shape).map((sub): Column => [`${snake(name)}_${snake(sub)}`, part(name, sub)]);
  });
}

export const CSV_COLUMNS: Record<JobRow['type'], Column[]> = {
  search: columnsOf(searchResultItemSchema),
  details: columnsOf(detailsResultItemSchema),
  offers: columnsOf(offerResultItemSchema),
  bestsellers: columnsOf(bestsellerResultItemSchema),
  reviews: columnsOf(reviewResultItemSchema),
};

/** Leading characters that make Excel, LibreOffice or Google Sheets read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * CSV injection guard (OWASP "CSV Injection"): a text cell that begins with `=`, `+`, `-`,
 * `@`, tab or carriage return gets a leading `'`, so that a scraped title such as
 * `=HYPERLINK(...)` opens as text, never as a live formula. It applies to every column,
 * whatever the field. The exception is a cell we render from a finite JavaScript number: its
 * text is only digits, `.`, `e` and possibly a leading `-`, which a spreadsheet reads as a
 * number, never as a formula, so `-5` stays a number. (Prices, ratings, counts and positions are never
 * negative here anyway.) A numeric-looking *string* such as "-5" is still prefixed. Arrays and
 * objects are JSON text starting with `[` or `{`, so they are never touched. JSON and llm
 * exports carry values exactly as stored: only CSV is meant to be opened in a spreadsheet.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (!Number.isFinite(value) && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(type: JobRow['type']): string {
  return `${CSV_COLUMNS[type].map(([h]) => h).join(',')}\r\n`;
}

export function csvRow(type: JobRow['type'], item: Item): string {
  return `${CSV_COLUMNS[type].map(([, get]) => csvCell(get(item))).join(',')}\r\n`;
}

export function llmHeader(job: JobRow, generatedAt: Date): string {
  const meta = {
    id: job.id,
    type: job.type,
    marketplace: job.marketplace,
    lang: job.lang,
    targets: job.targets,
    createdAt: job.created_at.toISOString(),
    finishedAt: job.finished_at?.toISOString() ?? null,
    resultsCount: job.results_count,
  } satisfies LlmExport['job'];
  return `{"schemaVersion":${JSON.stringify(LLM_SCHEMA_VERSION)},"generatedAt":${JSON.stringify(generatedAt.toISOString())},"job":${JSON.stringify(meta)},"items":[`;
}

/**
 * The `llm` values an item's kind has; every other key is null (or empty) in the item. Only
 * these are allocated per row: the export builds 100,000s of items, and a full default object
 * spread per row doubled the gateway's garbage (and its peak memory) for an llm export.
 */
type LlmValues = Pick<LlmExportItem, 'source' | 'query' | 'asin'> & Partial<Omit<LlmExportItem, 'marketplace' | 'missingFields'>>;

/** The `llm` values of an item, by its kind (told apart by its keys, as in result-items.ts). */
function llmValues(item: ResultItem): LlmValues {
  if ('keyword' in item) {
    return {
      source: 'search',
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
    };
  }
  if ('shipping' in item) {
    return {
      source: 'offers',
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
    };
  }
  if ('rank' in item) {
    return {
      source: 'bestsellers',
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
    };
  }
  if ('body' in item) {
    return {
      source: 'reviews',
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
    };
  }
  return {
    source: 'details',
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
  };
}

/**
 * One item of the `llm` contract (`llmExportItemSchema` in @crawl/core): the same keys, in the
 * same order, for every kind of row (null where a kind has no such value), prices as decimal
 * numbers in major units with an ISO 4217 currency, ratings on a 0-5 scale.
 */
export function llmItem(job: JobRow, item: ResultItem): LlmExportItem {
  const v = llmValues(item);
  return {
    source: v.source,
    query: v.query,
    rank: v.rank ?? null,
    organicRank: v.organicRank ?? null,
    page: v.page ?? null,
    asin: v.asin,
    marketplace: job.marketplace,
    url: v.url ?? null,
    title: v.title ?? null,
    brand: v.brand ?? null,
    price: v.price ?? null,
    listPrice: v.listPrice ?? null,
    currency: v.currency ?? null,
    rating: v.rating ?? null,
    reviewCount: v.reviewCount ?? null,
    availability: v.availability ?? null,
    isPrime: v.isPrime ?? null,
    isSponsored: v.isSponsored ?? null,
    imageUrl: v.imageUrl ?? null,
    images: v.images ?? [],
    features: v.features ?? [],
    description: v.description ?? null,
    categories: v.categories ?? [],
    bestSellersRank: v.bestSellersRank ?? [],
    seller: v.seller ?? null,
    badges: v.badges ?? [],
    specifications: v.specifications ?? {},
    condition: v.condition ?? null,
    shipping: v.shipping ?? null,
    isBuyBox: v.isBuyBox ?? null,
    fulfilledByAmazon: v.fulfilledByAmazon ?? null,
    reviewId: v.reviewId ?? null,
    author: v.author ?? null,
    date: v.date ?? null,
    verifiedPurchase: v.verifiedPurchase ?? null,
    helpfulVotes: v.helpfulVotes ?? null,
    variant: v.variant ?? null,
    missingFields: item.missingFields,
  };
}
