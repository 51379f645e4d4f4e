import { JOB_KINDS, JOB_TYPES, type JobType, objectSchemaOf } from '@crawl/core';
import type { z } from 'zod';
import type { JobRow } from '@crawl/db';
import type { Format } from './format';

/**
 * The job's type (from the job row) says how an item is rendered: its item schema's columns
 * (JOB_KINDS in @crawl/core); items are never told apart by their keys.
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

/** One header row, then one row per item (CRLF line ends); nothing after the last row. */
export const csv: Format = {
  contentType: 'text/csv; charset=utf-8',
  extension: 'csv',
  header: (job) => csvHeader(job.type),
  row: (job, item) => csvRow(job.type, item),
  footer: () => '',
};
