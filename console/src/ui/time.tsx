/**
 * Every time the console shows goes through `formatTime`, so each carries its zone: the viewer's
 * own ("2 Dec 2026, 04:40 CET", "Dec 2, 2026, 4:40 AM UTC": in the viewer's language), or UTC where the API's unit is a UTC
 * day or a cron in UTC. A time without its zone is read as the reader's local time, wrongly half
 * the time.
 */
export interface TimeFormat {
  /** Seconds too (job timings, the ledger, the audit log). */
  seconds?: boolean;
  /** In UTC instead of the viewer's zone. */
  utc?: boolean;
  /** Leave the year out (chart buckets of the last days). */
  noYear?: boolean;
  /** The date only, no time and so no zone (a UTC day). */
  dateOnly?: boolean;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(f: TimeFormat): Intl.DateTimeFormat {
  const key = JSON.stringify(f);
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, {
      // dateStyle/timeStyle cannot be combined with timeZoneName: the same look, field by field
      day: 'numeric',
      month: 'short',
      ...(f.noYear ? {} : { year: 'numeric' }),
      ...(f.dateOnly ? {} : { hour: 'numeric', minute: '2-digit', ...(f.seconds ? { second: '2-digit' } : {}), timeZoneName: 'short' }),
      ...(f.utc ? { timeZone: 'UTC' } : {}),
    });
    formats.set(key, format);
  }
  return format;
}

export const formatTime = (value: Date | string | number, f: TimeFormat = {}): string => formatter(f).format(new Date(value));

/** The viewer's time zone by its IANA name ("Europe/Berlin"). */
export const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An ISO time as "2026-12-02 04:40:12 UTC": the tooltip of a local time. */
const isoUtc = (date: Date) =>
  date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

/** A time in the viewer's time zone with its zone, the exact UTC time on hover, and the machine-readable value. */
export function DateTime({ value, withSeconds }: { value: string | null | undefined; withSeconds?: boolean }) {
  if (!value) return <span className="muted">—</span>;
  const date = new Date(value);
  return (
    <time dateTime={value} title={isoUtc(date)}>
      {formatTime(date, { seconds: withSeconds })}
    </time>
  );
}
