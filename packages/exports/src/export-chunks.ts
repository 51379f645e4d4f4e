import type { JobRow, ResultRepository } from '@crawl/db';
import { EXPORT_FORMATS, type ExportFormat } from './formats';

/** Text is handed on in pieces of about this size: few writes, and memory flat in the row count. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A completed job's export in `format`, as text chunks read from a Postgres cursor over its
 * stored results: the one way an export file is made, for a download and for a delivery to
 * storage alike. Stopping the iteration (an abort, a failed upload) returns the cursor's
 * generator, which closes the cursor and releases its connection.
 */
export async function* exportChunks(
  results: ResultRepository,
  job: JobRow,
  format: ExportFormat,
  generatedAt = new Date(),
): AsyncGenerator<string> {
  const file = EXPORT_FORMATS[format];
  let batch = file.header(job, generatedAt);
  let index = 0;
  for await (const row of results.stream(job)) {
    batch += file.row(job, row.data, index++);
    if (batch.length >= CHUNK_CHARS) {
      yield batch;
      batch = '';
    }
  }
  batch += file.footer(job);
  if (batch) yield batch;
}
