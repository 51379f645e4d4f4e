/** The usage page's ranges (`?range=`): the last 24 hours by the hour, or the last 7 or 30 UTC days by the day. */
export const RANGES = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
] as const;

export type RangeKey = (typeof RANGES)[number]['value'];
export const DEFAULT_RANGE: RangeKey = '7d';

export const asRange = (value: string | undefined): RangeKey => RANGES.find((r) => r.value === value)?.value ?? DEFAULT_RANGE;

const HOUR = 3_600_000;
const DAY = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface RangeWindow {
  /** What the API gets: whole UTC days (`2026-03-01`) for 7 d and 30 d, timestamps on the hour for 24 h. */
  from: string;
  to: string;
  /** Bucket starts (ms), ascending, and the width of a bucket. */
  buckets: number[];
  bucketMs: number;
}

/**
 * The window of a range at `now`. 24 h runs from the start of the hour 23 hours ago to now (24 hourly
 * buckets); 7 d and 30 d are whole UTC days ending today, the days the analytics `daily` series has.
 */
export function rangeWindow(range: RangeKey, now: number): RangeWindow {
  if (range === '24h') {
    const start = Math.floor(now / HOUR) * HOUR - 23 * HOUR;
    return { from: new Date(start).toISOString(), to: new Date(now).toISOString(), buckets: series(start, 24, HOUR), bucketMs: HOUR };
  }
  const days = range === '7d' ? 7 : 30;
  const start = Math.floor(now / DAY) * DAY - (days - 1) * DAY;
  return { from: utcDate(start), to: utcDate(now), buckets: series(start, days, DAY), bucketMs: DAY };
}

const series = (start: number, count: number, step: number) => Array.from({ length: count }, (_, i) => start + i * step);
