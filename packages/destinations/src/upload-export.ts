import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { JobRow, ResultRepository } from '@crawl/db';
import { EXPORT_FORMATS, type ExportFormat, exportChunks } from '@crawl/exports';
import { abortStaleUploads } from './stale-uploads';

/** Parts of a multipart upload, and how many are in flight: the memory an upload holds is about their product. */
export const PART_SIZE = 8 * 1024 * 1024;
export const PARTS_IN_FLIGHT = 2;

export interface ExportUpload {
  results: ResultRepository;
  job: JobRow;
  format: ExportFormat;
  gzip: boolean;
  bucket: string;
  key: string;
  /** Aborts the upload (shutdown): its parts are discarded, nothing appears under the key. */
  signal?: AbortSignal;
}

/**
 * Streams a job's export to `bucket`/`key`: read from a cursor over its results, gzipped if
 * asked, sent in parts of 8 MiB (one PutObject when it is smaller), so memory stays bounded
 * whatever the row count. The object appears only when the upload completes (S3 publishes a
 * multipart upload on CompleteMultipartUpload); a failed or aborted upload aborts its parts.
 * Returns the object's size in bytes.
 */
export async function uploadExport(client: S3Client, upload: ExportUpload): Promise<{ bytes: number }> {
  const file = EXPORT_FORMATS[upload.format];
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  const text = Readable.from(exportChunks(upload.results, upload.job, upload.format), { objectMode: false });
  const body = upload.gzip ? pipeline(text, createGzip(), counted) : pipeline(text, counted);
  const sending = new Upload({
    client,
    params: {
      Bucket: upload.bucket,
      Key: upload.key,
      Body: counted,
      ContentType: file.contentType,
      ...(upload.gzip ? { ContentEncoding: 'gzip' } : {}),
    },
    partSize: PART_SIZE,
    queueSize: PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  const abort = () => void sending.abort();
  upload.signal?.addEventListener('abort', abort, { once: true });
  try {
    await Promise.all([body, sending.done()]);
  } catch (err) {
    counted.destroy();
    text.destroy();
    // lib-storage rejects an aborted upload at once and sends its AbortMultipartUpload later, if
    // the client is still open by then: the parts are aborted here before the caller goes on
    await abortStaleUploads(client, upload.bucket, upload.key);
    throw err;
  } finally {
    upload.signal?.removeEventListener('abort', abort);
  }
  return { bytes };
}
