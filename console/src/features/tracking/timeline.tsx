import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { Schemas } from '../../api/client';
import { ChartFigure, type ChartMarker, type ChartSeries } from '../../ui/charts/chart';
import { EmptyState, ErrorNotice, Loading } from '../../ui/forms';
import { Table } from '../../ui/table';
import { DateTime } from '../../ui/time';
import { FIELD_LABELS, formatChangeValue, formatMoney, formatRank } from './format';
import { summarizeTimeline } from './timeline-summary';
import { RANGES, type Range } from './tracking-search';
import { productAlertsQuery, timelineQuery, trackedTargetsQuery } from './tracking.queries';

type Entry = Schemas['TimelineEntry'];
const seconds = (iso: string) => Date.parse(iso) / 1000;
const RANGE_LABELS: Record<Range, string> = { '7d': '7 days', '30d': '30 days', '90d': '90 days', all: 'All' };

/** The entries captured within the range (`all`: every one), oldest first. */
function inRange(entries: Entry[], range: Range, now: number): Entry[] {
  const days = RANGES[range];
  const since = days === null ? -Infinity : now - days * 86_400;
  return entries.filter((e) => seconds(e.capturedAt) >= since);
}

/** The range picker: links, so the range is in the URL and each one is a page a reader can share. */
function RangePicker({ projectId, range }: { projectId: string; range: Range }) {
  return (
    <nav aria-label="Chart range" className="range-picker">
      {(Object.keys(RANGES) as Range[]).map((r) => (
        <Link
          key={r}
          to="/console/projects/$projectId/tracking"
          params={{ projectId }}
          search={(prev: Record<string, unknown>) => ({ ...prev, range: r === '30d' ? undefined : r })}
          aria-current={r === range ? 'page' : undefined}
          className="range-link"
        >
          {RANGE_LABELS[r]}
        </Link>
      ))}
    </nav>
  );
}

/**
 * One product's view: its prices over the chosen range (price, which is the buy-box offer's, list
 * price, lowest new price; the best-sellers rank on the right axis) with change and alert markers,
 * the table twin, a price series per delivery location when the product is crawled at several,
 * and the change list.
 */
export function Timeline({
  projectId,
  asin,
  marketplace,
  postalCode,
  range = '30d',
}: {
  projectId: string;
  asin: string;
  marketplace: string;
  postalCode?: string;
  range?: Range;
}) {
  const timeline = useQuery(timelineQuery(projectId, asin, marketplace, postalCode));
  const alerts = useQuery(productAlertsQuery(projectId, asin));
  // the API answers newest first; a chart and a story read oldest first
  const all = useMemo(() => [...(timeline.data?.data ?? [])].reverse(), [timeline.data]);
  const now = useMemo(() => Date.now() / 1000, [timeline.data]);
  const entries = useMemo(() => inRange(all, range, now), [all, range, now]);
  const currency = entries.find((e) => e.snapshot.currency)?.snapshot.currency ?? null;
  const chart = useMemo(() => {
    const money = (v: number) => formatMoney(v, currency);
    const price = (pick: (s: Entry['snapshot']) => number | null) => entries.map((e) => pick(e.snapshot));
    const series: ChartSeries[] = [
      { label: 'Price (buy box)', kind: 'step', values: price((s) => s.price), format: money },
      { label: 'List price', kind: 'step', values: price((s) => s.listPrice), format: money },
      { label: 'Lowest new price', kind: 'step', values: price((s) => s.lowestNewPrice), format: money },
      {
        label: 'Best-sellers rank',
        kind: 'step',
        axis: 'right',
        invert: true,
        values: entries.map((e) => e.snapshot.bestSellersRank?.rank ?? null),
        format: (v) => `#${Math.round(v).toLocaleString()}`,
      },
    ];
    const first = entries[0] ? seconds(entries[0].capturedAt) : 0;
    const last = entries.length ? seconds(entries[entries.length - 1]!.capturedAt) : 0;
    const changeMarkers: ChartMarker[] = entries
      .filter((e) => e.changes.length > 0)
      .map((e) => ({ time: seconds(e.capturedAt), label: e.changes.map((c) => FIELD_LABELS[c.field]).join(', ') }));
    // alerts of this series only (an alert of another location is not a mark on this one)
    const productAlerts = (alerts.data?.data ?? []).filter(
      (a) =>
        a.marketplace === marketplace &&
        (a.postalCode ?? undefined) === postalCode &&
        seconds(a.createdAt) >= first &&
        seconds(a.createdAt) <= last,
    );
    const alertMarkers: ChartMarker[] = productAlerts.map((a) => ({ time: seconds(a.createdAt), label: a.ruleName, kind: 'alert' }));
    return {
      times: entries.map((e) => seconds(e.capturedAt)),
      series,
      markers: [...changeMarkers, ...alertMarkers],
      alerts: productAlerts,
    };
  }, [entries, currency, alerts.data, marketplace, postalCode]);
  const changes = useMemo(() => [...entries].reverse().flatMap((e) => e.changes.map((c) => ({ entry: e, change: c }))), [entries]);

  if (timeline.isLoading) return <Loading what="the price history" />;
  if (timeline.error) return <ErrorNotice error={timeline.error} />;
  const heading = (
    <h2 id="timeline-heading">
      <span className="mono">{asin}</span> ({marketplace}
      {postalCode ? `, delivered to ${postalCode}` : ''})
    </h2>
  );
  if (all.length === 0) return <EmptyState title="No snapshots of this product yet" />;
  const latest = all[all.length - 1]!.snapshot;
  const summary = entries.length ? summarizeTimeline(entries) : `No snapshot in the last ${RANGE_LABELS[range]}.`;
  const markerNote = [
    chart.markers.length > chart.alerts.length
      ? ` Dashed lines mark the ${chart.markers.length - chart.alerts.length} snapshot(s) with changes.`
      : '',
    chart.alerts.length ? ` Solid lines with a triangle mark the ${chart.alerts.length} alert(s) fired.` : '',
  ].join('');
  return (
    <section aria-labelledby="timeline-heading" className="product-view">
      {heading}
      {latest.title && <p className="product-title">{latest.title}</p>}
      <RangePicker projectId={projectId} range={range} />
      {entries.length === 0 ? (
        <p className="muted">{summary} Choose a longer range.</p>
      ) : (
        <ChartFigure
          zoom
          label={`Prices and best-sellers rank of ${asin} over ${RANGE_LABELS[range].toLowerCase()}. ${summary}`}
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
            <Table
              wrap={false}
              caption={`Snapshots of ${asin}, newest first`}
              columns={['Captured', 'Source', 'Price (buy box)', 'List price', 'Lowest new price', 'Best-sellers rank', 'Changes']}
            >
              {[...entries].reverse().map((e) => (
                <tr key={`${e.jobId}-${e.capturedAt}`}>
                  <td>
                    <DateTime value={e.capturedAt} withSeconds />
                  </td>
                  <td>{e.source}</td>
                  <td>{formatMoney(e.snapshot.price, e.snapshot.currency)}</td>
                  <td>{formatMoney(e.snapshot.listPrice, e.snapshot.currency)}</td>
                  <td>{formatMoney(e.snapshot.lowestNewPrice, e.snapshot.currency)}</td>
                  <td>{formatRank(e.snapshot.bestSellersRank)}</td>
                  <td>{e.changes.length ? e.changes.map((c) => FIELD_LABELS[c.field]).join(', ') : <span className="muted">—</span>}</td>
                </tr>
              ))}
            </Table>
          }
        />
      )}
      {chart.alerts.length > 0 && (
        <Table caption="Alerts fired in this range" columns={['When', 'Rule', 'Status']}>
          {chart.alerts.map((a) => (
            <tr key={a.id}>
              <td>
                <DateTime value={a.createdAt} />
              </td>
              <td>{a.ruleName}</td>
              <td>{a.status}</td>
            </tr>
          ))}
        </Table>
      )}
      <LocationPrices projectId={projectId} asin={asin} marketplace={marketplace} range={range} now={now} />
      <h3>Changes</h3>
      {changes.length === 0 ? (
        <p className="muted">Nothing changed between the snapshots of this product in this range.</p>
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

const locationName = (postalCode: string | null) => postalCode ?? 'marketplace default';

/** The price at each delivery location the product is crawled for, one series each; nothing when it has one location. */
function LocationPrices({
  projectId,
  asin,
  marketplace,
  range,
  now,
}: {
  projectId: string;
  asin: string;
  marketplace: string;
  range: Range;
  now: number;
}) {
  const targets = useQuery(trackedTargetsQuery(projectId, { q: asin, marketplace, limit: 100 }));
  const locations = (targets.data?.data ?? []).filter((t) => t.asin === asin).map((t) => t.postalCode);
  const timelines = useQueries({
    queries: (locations.length > 1 ? locations : []).map((p) => timelineQuery(projectId, asin, marketplace, p ?? undefined)),
  });
  const ready = timelines.length > 1 && timelines.every((t) => t.data);
  const chart = useMemo(() => {
    if (!ready) return null;
    const perLocation = timelines.map((t) => inRange([...t.data!.data].reverse(), range, now));
    const times = [...new Set(perLocation.flatMap((es) => es.map((e) => seconds(e.capturedAt))))].sort((a, b) => a - b);
    const currency = perLocation.flat().find((e) => e.snapshot.currency)?.snapshot.currency ?? null;
    const series: ChartSeries[] = perLocation.map((es, i) => {
      const at = new Map(es.map((e) => [seconds(e.capturedAt), e.snapshot.price]));
      return {
        label: locationName(locations[i]!),
        kind: 'step',
        values: times.map((t) => at.get(t) ?? null),
        format: (v) => formatMoney(v, currency),
      };
    });
    return { times, series, currency };
    // the queries' data is what changes; `timelines` is a new array every render
  }, [ready, range, now, ...timelines.map((t) => t.data)]);
  if (!chart || chart.times.length === 0) return null;
  return (
    <section aria-labelledby="locations-heading">
      <h3 id="locations-heading">Price by delivery location</h3>
      <ChartFigure
        zoom
        label={`Price of ${asin} at ${chart.series.length} delivery locations over ${RANGE_LABELS[range].toLowerCase()}.`}
        summary={`${chart.series.length} delivery locations: ${chart.series.map((s) => s.label).join(', ')}.`}
        times={chart.times}
        series={chart.series}
        table={
          <Table wrap={false} caption={`Price of ${asin} by delivery location`} columns={['Captured', ...chart.series.map((s) => s.label)]}>
            {[...chart.times].reverse().map((t, ri) => {
              const i = chart.times.length - 1 - ri;
              return (
                <tr key={t}>
                  <td>
                    <DateTime value={new Date(t * 1000).toISOString()} withSeconds />
                  </td>
                  {chart.series.map((s) => (
                    <td key={s.label}>{formatMoney(s.values[i], chart.currency)}</td>
                  ))}
                </tr>
              );
            })}
          </Table>
        }
      />
    </section>
  );
}
