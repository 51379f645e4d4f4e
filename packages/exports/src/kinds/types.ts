import type { JobType, LlmExportItem, ResultItemOf } from '@crawl/core';

/**
 * The `llm` values an item of one job type has; every other key is null (or empty) in the
 * item. Only these are allocated per row: the export builds 100,000s of items, and a full
 * default object spread per row doubled the gateway's garbage (and its peak memory) for an llm
 * export. `source` is the job's type, `marketplace` the job's and `missingFields` the item's:
 * llmItem (export/formats/llm.ts) adds them.
 */
export type LlmValues = Pick<LlmExportItem, 'query' | 'asin'> & Partial<Omit<LlmExportItem, 'source' | 'marketplace' | 'missingFields'>>;

/**
 * How the exports render an item of job type T. One module per type (kinds/<type>.ts), gathered
 * in EXPORT_KINDS (kinds/index.ts). CSV columns need no module: they follow the type's item
 * schema (JOB_KINDS in @crawl/core).
 */
export interface ExportKind<T extends JobType> {
  llm(item: ResultItemOf<T>): LlmValues;
}
