import { inDocumentedOrder } from '@crawl/core';
import type { Format } from './format';

/** The items as stored, each with its keys in the documented order of its job type's item schema. */
export const json: Format = {
  contentType: 'application/json; charset=utf-8',
  extension: 'json',
  header: () => '[',
  row: (job, item, index) => `${index === 0 ? '' : ','}${JSON.stringify(inDocumentedOrder(job.type, item))}`,
  footer: () => ']',
};
