import { useMemo } from 'react';
import { ChartFigure, type ChartSeries } from '../../ui/charts/chart';
import { count } from '../../ui/format';
import { Table } from '../../ui/table';
import { formatTime } from '../../ui/time';
import { type CreditsBucket, summarizeCredits } from './credits-series';

const KINDS = ['consumed', 'reserved', 'refunded'] as const;
const label = (k: (typeof KINDS)[number]) => k[0]!.toUpperCase() + k.slice(1);

const title = (hourly: boolean) => (hourly ? 'Credits per hour' : 'Credits per day');

/** Credits per day (per hour over 24 h): grouped bars, the summary line and the table twin. */
export function CreditsChart({ buckets, hourly, rangeLabel }: { buckets: CreditsBucket[]; hourly: boolean; rangeLabel: string }) {
  const format = (start: number) =>
    hourly
      ? formatTime(start, { noYear: true })
      : // a UTC day of the API's daily series: its column says so
        formatTime(start, { utc: true, noYear: true, dateOnly: true });
  const summary = summarizeCredits(buckets, rangeLabel, format);
  const times = useMemo(() => buckets.map((b) => b.start / 1000), [buckets]);
  const series = useMemo<ChartSeries[]>(
    () => KINDS.map((k) => ({ label: label(k), kind: 'bars', values: buckets.map((b) => b[k]) })),
    [buckets],
  );
  return (
    <ChartFigure
      label={`${title(hourly)}. ${summary}`}
      summary={summary}
      times={times}
      series={series}
      bucketSeconds={hourly ? 3600 : 86_400}
      utc={!hourly}
      table={
        <Table wrap={false} caption={title(hourly)} columns={[hourly ? 'Hour' : 'Day (UTC)', ...KINDS.map(label)]}>
          {buckets.map((b) => (
            <tr key={b.start}>
              <td>
                <time dateTime={new Date(b.start).toISOString()}>{format(b.start)}</time>
              </td>
              {KINDS.map((k) => (
                <td key={k}>{count(b[k])}</td>
              ))}
            </tr>
          ))}
        </Table>
      }
    />
  );
}
