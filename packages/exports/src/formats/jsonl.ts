import { inDocumentedOrder } from '@crawl/core';
import type { Format } from './format';

/**
 * JSON Lines: the items of `json`, the same shape and key order, one per line, each line ended
 * by `\n`. A loader reads it a line at a time, and a file cut short loses whole lines only.
 */
export const jsonl: Format = {
  contentType: 'application/x-ndjson; charset=utf-8',
  extension: 'jsonl',
  header: () => '',
  row: (job, item) => `${JSON.stringify(inDocumentedOrder(job.type, item))}\n`,
  footer: () => '',
};
