import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ChartFigure, type ChartMarker, type ChartSeries } from '../../ui/charts/chart';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { FIELD_LABELS, formatChangeValue, formatMoney, formatRank } from './format';
import { summarizeTimeline } from './timeline-summary';
import { timelineQuery } from './tracking.queries';

/** One product's snapshots over time: price and rank as step lines with the changes marked, the table twin and the change list. */
export function Timeline({
  projectId,
  asin,
  marketplace,
  postalCode,
}: {
  projectId: string;
  asin: string;
  marketplace: string;
  postalCode?: string;
}) {
  const timeline = useQuery(timelineQuery(projectId, asin, marketplace, postalCode));
  // the API answers newest first; a chart and a story read oldest first
  const entries = useMemo(() => [...(timeline.data?.data ?? [])].reverse(), [timeline.data]);
  const currency = entries.find((e) => e.snapshot.currency)?.snapshot.currency ?? null;
  const chart = useMemo(() => {
    const times = entries.map((e) => Date.parse(e.capturedAt) / 1000);
    const series: ChartSeries[] = [
      { label: 'Price', kind: 'step', values: entries.map((e) => e.snapshot.price), format: (v) => formatMoney(v, currency) },
      {
        label: 'Best-sellers rank',
        kind: 'step',
        axis: 'right',
        invert: true,
        values: entries.map((e) => e.snapshot.bestSellersRank?.rank ?? null),
        format: (v) => `#${Math.round(v).toLocaleString()}`,
      },
    ];
    const markers: ChartMarker[] = entries
      .filter((e) => e.changes.length > 0)
      .map((e) => ({ time: Date.parse(e.capturedAt) / 1000, label: e.changes.map((c) => FIELD_LABELS[c.field]).join(', ') }));
    return { times, series, markers };
  }, [entries, currency]);
  const changes = useMemo(() => [...entries].reverse().flatMap((e) => e.changes.map((c) => ({ entry: e, change: c }))), [entries]);

  if (timeline.isLoading) return <Loading what="the timeline" />;
  if (timeline.error) return <ErrorNotice error={timeline.error} />;
  if (entries.length === 0) return <EmptyState title="No snapshots of this product yet" />;
  const summary = summarizeTimeline(entries);
  const markerNote = chart.markers.length ? ` Dashed lines mark the ${chart.markers.length} snapshot(s) with changes.` : '';
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">
        Timeline of <span className="mono">{asin}</span> ({marketplace})
      </h2>
      <ChartFigure
        label={`Price and best-sellers rank of ${asin} over time. ${summary}`}
        summary={
          <>
            {summary}
            {markerNote}
          </>
        }
        times={chart.times}
        series={chart.series}
        markers={chart.markers}
        table={
          <Table wrap={false} caption={`Snapshots of ${asin}`} columns={['Captured', 'Source', 'Price', 'Best-sellers rank', 'Changes']}>
            {[...entries].reverse().map((e) => (
              <tr key={`${e.jobId}-${e.capturedAt}`}>
                <td>
                  <DateTime value={e.capturedAt} withSeconds />
                </td>
                <td>{e.source}</td>
                <td>{formatMoney(e.snapshot.price, e.snapshot.currency)}</td>
                <td>{formatRank(e.snapshot.bestSellersRank)}</td>
                <td>{e.changes.length ? e.changes.map((c) => FIELD_LABELS[c.field]).join(', ') : <span className="muted">—</span>}</td>
              </tr>
            ))}
          </Table>
        }
      />
      <h3>Changes</h3>
      {changes.length === 0 ? (
        <p className="muted">Nothing changed between the snapshots of this product.</p>
      ) : (
        <Table captionHidden caption={`Changes of ${asin}, newest first`} columns={['Field', 'From', 'To', 'When', 'Job']}>
          {changes.map(({ entry, change }, i) => (
            <tr key={`${entry.jobId}-${change.field}-${i}`}>
              <td>{FIELD_LABELS[change.field]}</td>
              <td className="change-value">{formatChangeValue(change, 'from', entry.snapshot.currency)}</td>
              <td className="change-value">{formatChangeValue(change, 'to', entry.snapshot.currency)}</td>
              <td>
                <DateTime value={entry.capturedAt} />
              </td>
              <td>
                <Link to="/console/jobs/$jobId" params={{ jobId: entry.jobId }} className="mono">
                  {entry.jobId}
                </Link>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
