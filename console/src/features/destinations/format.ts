import type { Destination, DestinationFormat } from './destinations.queries';

/** Every export format, in the order the form offers them (a `Record` of the generated union: a format the API adds fails the type check). */
export const FORMATS: Record<DestinationFormat, string> = {
  json: 'JSON (one array)',
  jsonl: 'JSON Lines (one result per line)',
  csv: 'CSV',
  llm: 'LLM (compact JSON for prompts)',
};
export const FORMAT_CODES = Object.keys(FORMATS) as DestinationFormat[];

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

/** A size in the largest unit under 1,024 of it ("1.4 MB"), with the viewer's decimal separator. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString(undefined, { maximumFractionDigits: digits })} ${unit === 0 && bytes === 1 ? 'byte' : UNITS[unit]}`;
}

/** The host of a custom endpoint ("minio.example.com:9000"), or the URL as given if it does not parse. */
export function endpointHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}

/** Where objects land, as S3 tools write it: `s3://bucket/prefix`. */
export const bucketPath = (d: Pick<Destination, 'bucket' | 'prefix'>) => `s3://${d.bucket}/${d.prefix}`;
