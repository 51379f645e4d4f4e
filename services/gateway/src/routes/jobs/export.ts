import { once } from 'node:events';
import type { JobRow } from '@crawl/db';
import type { Response } from 'express';
import type { GatewayDeps } from '../../deps';
import { csvHeader, csvRow, llmHeader, llmItem } from './export-formats';

type Format = 'json' | 'csv' | 'llm';

const CONTENT_TYPE: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  llm: 'application/json; charset=utf-8',
};

/** Writes with backpressure: waits for 'drain' instead of buffering the export in memory. */
async function write(res: Response, chunk: string): Promise<void> {
  if (!res.write(chunk)) await once(res, 'drain');
}

/**
 * Streams a completed job's results from a Postgres cursor straight to the response, so the
 * gateway's memory stays flat in the row count. A failure after the first byte can no longer
 * become an error body: the connection is destroyed so that the client sees a truncated
 * download, never a silently short file.
 */
export async function streamExport(deps: Pick<GatewayDeps, 'results'>, job: JobRow, format: Format, res: Response): Promise<void> {
  const extension = format === 'csv' ? 'csv' : format === 'llm' ? 'llm.json' : 'json';
  res.status(200);
  res.setHeader('Content-Type', CONTENT_TYPE[format]);
  res.setHeader('Content-Disposition', `attachment; filename="${job.id}-${job.type}.${extension}"`);
  res.setHeader('Cache-Control', 'private, no-store');
  let first = true;
  let batch = '';
  const flushAt = 64 * 1024;
  const emit = async (chunk: string) => {
    batch += chunk;
    if (batch.length >= flushAt) {
      const out = batch;
      batch = '';
      await write(res, out);
    }
  };
  await emit(format === 'csv' ? csvHeader(job.type) : format === 'llm' ? llmHeader(job, new Date()) : '[');
  for await (const row of deps.results.stream(job.id)) {
    if (res.destroyed) return;
    if (format === 'csv') await emit(csvRow(job.type, row.data));
    else await emit(`${first ? '' : ','}${JSON.stringify(format === 'llm' ? llmItem(job, row.data) : row.data)}`);
    first = false;
  }
  await emit(format === 'csv' ? '' : format === 'llm' ? ']}' : ']');
  res.end(batch);
}
