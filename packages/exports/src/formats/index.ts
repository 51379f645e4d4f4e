import { csv } from './csv';
import type { ExportFormat, Format } from './format';
import { json } from './json';
import { jsonl } from './jsonl';
import { llm } from './llm';

export { EXPORT_FORMAT_NAMES, type ExportFormat, type Format } from './format';

/** Every export format: a new one is its module and one line here (and its name above). */
export const EXPORT_FORMATS: Record<ExportFormat, Format> = { json, jsonl, csv, llm };
