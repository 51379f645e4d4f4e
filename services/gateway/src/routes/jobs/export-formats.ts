import {
  JOB_KINDS,
  JOB_TYPES,
  type JobType,
  LLM_SCHEMA_VERSION,
  type LlmExport,
  type LlmExportItem,
  objectSchemaOf,
  type ResultItem,
} from '@crawl/core';
import type { z } from 'zod';
import type { JobRow } from '@crawl/db';
import { EXPORT_KINDS, type ExportKind } from '../../export';

/**
 * Export formats of stored result items. Pure functions: one item in, one chunk of text out,
 * so the export can stream any number of rows.
 *
 * The job's type (from the job row) says how an item is rendered: its item schema's columns
 * (JOB_KINDS in @crawl/core) and its `llm` mapping (export/<type>.ts); items are never told
 * apart by their keys.
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

export const CSV_COLUMNS = Object.fromEntries(JOB_TYPES.map((type) => [type, columnsOf(JOB_KINDS[type].itemSchema)])) as Record<
  JobType,
  Column[]
>;

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
 * One item of the `llm` contract (`llmExportItemSchema` in @crawl/core): the same keys, in the
 * same order, for every kind of row (null where a kind has no such value), prices as decimal
 * numbers in major units with an ISO 4217 currency, ratings on a 0-5 scale.
 */
export function llmItem(job: JobRow, item: ResultItem): LlmExportItem {
  // The registry entry of the job's type reads the items of that type (what the job stored).
  const v = (EXPORT_KINDS[job.type] as ExportKind<JobType>).llm(item);
  return {
    source: job.type,
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
    parentAsin: v.parentAsin ?? null,
    manufacturer: v.manufacturer ?? null,
    modelNumber: v.modelNumber ?? null,
    weight: v.weight ?? null,
    dimensions: v.dimensions ?? null,
    firstAvailable: v.firstAvailable ?? null,
    ratingHistogram: v.ratingHistogram ?? null,
    coupon: v.coupon ?? null,
    boughtPastMonth: v.boughtPastMonth ?? null,
    shipsFrom: v.shipsFrom ?? null,
    newOffersCount: v.newOffersCount ?? null,
    isbn13: v.isbn13 ?? null,
    totalResults: v.totalResults ?? null,
    missingFields: item.missingFields,
  };
}
