import type { ResultItem } from '@crawl/core';
import type { JobRow } from '@crawl/db';

export { EXPORT_FORMAT_NAMES, type ExportFormat } from '@crawl/core';

/**
 * How one export format writes a job's stored items: pure functions, one item in, one chunk of
 * text out, so the export streams any number of rows (export/stream.ts). The file is
 * `header`, then `row` per item in stored order, then `footer`.
 */
export interface Format {
  contentType: string;
  /** The download is named `<jobId>-<type>.<extension>`. */
  extension: string;
  /** `generatedAt` is when the export started. */
  header(job: JobRow, generatedAt: Date): string;
  /** `index` counts from 0: a JSON array separates its items with commas. */
  row(job: JobRow, item: ResultItem, index: number): string;
  footer(job: JobRow): string;
}
