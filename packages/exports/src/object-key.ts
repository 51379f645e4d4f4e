import { EXPORT_FORMATS, type ExportFormat } from './formats';

/** What names a job's export object in a destination. */
export interface ObjectKeyParts {
  prefix: string;
  projectId: string;
  jobId: string;
  /** When the job finished: the object's day folders are that UTC day. */
  finishedAt: Date;
  format: ExportFormat;
  gzip: boolean;
}

/**
 * `{prefix}{projectId}/{YYYY}/{MM}/{DD}/{jobId}.{ext}[.gz]` (docs/destinations.md): a key a
 * warehouse can load by day, made only of ids we issue and the destination's own prefix, so no
 * scraped text ever reaches a key. The extension is the download's (`llm` is `llm.json`).
 */
export function exportObjectKey(parts: ObjectKeyParts): string {
  const day = parts.finishedAt.toISOString().slice(0, 10).split('-').join('/');
  const ext = EXPORT_FORMATS[parts.format].extension;
  return `${parts.prefix}${parts.projectId}/${day}/${parts.jobId}.${ext}${parts.gzip ? '.gz' : ''}`;
}
