import type { JobRow, ResultRepository } from '@crawl/db';
import { EXPORT_FORMATS, type ExportFormat, exportChunks } from '@crawl/exports';
import type { Response } from 'express';
import { ExportAborted, type ExportGate, type Ticket } from './export-gate';

/**
 * Writes with backpressure. When the socket is full, waits for 'drain', but never longer than
 * `idleMs`, and never past an abort (client gone, deadline, shutdown): a wait on 'drain' alone
 * would hang forever on a closed socket, holding the cursor's connection with it.
 */
function write(res: Response, chunk: string, ticket: Ticket, idleMs: number): Promise<void> {
  ticket.signal.throwIfAborted();
  if (res.write(chunk)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const settle = () => {
      clearTimeout(timer);
      res.off('drain', settle);
      ticket.signal.removeEventListener('abort', settle);
      if (ticket.signal.aborted) reject(ticket.signal.reason);
      else resolve();
    };
    const timer = setTimeout(() => ticket.abort('idle_timeout'), idleMs);
    res.on('drain', settle);
    ticket.signal.addEventListener('abort', settle);
    if (ticket.signal.aborted) settle();
  });
}

/**
 * Streams a completed job's results from a Postgres cursor straight to the response, so the
 * gateway's memory stays flat in the row count. A failure after the first byte can no longer
 * become an error body: the connection is destroyed so that the client sees a truncated
 * download, never a silently short file. Leaving the row loop in any way (an abort throws out
 * of it) returns the cursor's generator, which closes the cursor and releases its connection.
 */
export async function streamExport(
  deps: { results: ResultRepository; exportGate: ExportGate },
  job: JobRow,
  format: ExportFormat,
  res: Response,
): Promise<void> {
  const ticket = await deps.exportGate.admit(job.project_id, job.organization_id, res);
  try {
    await pump(deps.results, job, format, res, ticket, deps.exportGate.limits.idleTimeoutMs);
  } catch (err) {
    if (err instanceof ExportAborted) return;
    // Nothing sent yet: the error handler answers JSON, which must not be saved as the file.
    if (!res.headersSent) res.removeHeader('Content-Disposition');
    throw err;
  } finally {
    await ticket.release();
  }
}

async function pump(
  results: ResultRepository,
  job: JobRow,
  format: ExportFormat,
  res: Response,
  ticket: Ticket,
  idleMs: number,
): Promise<void> {
  ticket.signal.throwIfAborted();
  const file = EXPORT_FORMATS[format];
  res.status(200);
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${job.id}-${job.type}.${file.extension}"`);
  res.setHeader('Cache-Control', 'private, no-store');
  for await (const chunk of exportChunks(results, job, format)) await write(res, chunk, ticket, idleMs);
  ticket.signal.throwIfAborted();
  ticket.ended();
  res.end();
}
