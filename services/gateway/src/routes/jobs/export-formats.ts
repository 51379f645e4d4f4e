import { detailsResultItemSchema, LLM_SCHEMA_VERSION, type LlmExport, type LlmExportItem, objectSchemaOf, type ResultItem, searchResultItemSchema } from '@crawl/core';
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

/** The fields only one kind of item has: null (or empty) for the other kind. */
function kindFields(item: ResultItem) {
  if ('keyword' in item) {
    return {
      source: 'search' as const,
      query: item.keyword,
      rank: item.position,
      organicRank: item.organicPosition,
      page: item.page,
      brand: null,
      availability: null,
      isSponsored: item.isSponsored,
      imageUrl: item.image,
      images: item.image ? [item.image] : [],
      features: [],
      description: null,
      categories: [],
      bestSellersRank: [],
      seller: null,
      badges: item.badges,
      specifications: {},
    };
  }
  return {
    source: 'details' as const,
    query: item.target,
    rank: null,
    organicRank: null,
    page: null,
    brand: item.brand,
    availability: item.availability.status,
    isSponsored: null,
    imageUrl: item.mainImage,
    images: item.images,
    features: item.features,
    description: item.description,
    categories: item.categories,
    bestSellersRank: item.bestSellersRank,
    seller: item.seller?.name ?? null,
    badges: [],
    specifications: item.specifications,
  };
}

/**
 * One item of the `llm` contract (`llmExportItemSchema` in @crawl/core): the same keys, in the
 * same order, for search and details rows (null where a kind has no such value), prices as
 * decimal numbers in major units with an ISO 4217 currency, ratings on a 0-5 scale.
 */
export function llmItem(job: JobRow, item: ResultItem): LlmExportItem {
  const k = kindFields(item);
  return {
    source: k.source,
    query: k.query,
    rank: k.rank,
    organicRank: k.organicRank,
    page: k.page,
    asin: item.asin,
    marketplace: job.marketplace,
    url: item.url,
    title: item.title,
    brand: k.brand,
    price: item.price?.amount ?? null,
    listPrice: item.listPrice?.amount ?? null,
    currency: item.price?.currency ?? item.listPrice?.currency ?? null,
    rating: item.rating,
    reviewCount: item.reviewsCount,
    availability: k.availability,
    isPrime: item.isPrime,
    isSponsored: k.isSponsored,
    imageUrl: k.imageUrl,
    images: k.images,
    features: k.features,
    description: k.description,
    categories: k.categories,
    bestSellersRank: k.bestSellersRank,
    seller: k.seller,
    badges: k.badges,
    specifications: k.specifications,
    missingFields: item.missingFields,
  };
}
