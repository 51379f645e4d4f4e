import { useEffect, useRef, useState, type ReactNode } from 'react';
import type uPlot from 'uplot';
import { onColorSchemeChange, readChartTheme } from './chart-theme';
import { buildChart, type ChartMarker, type ChartSeries } from './options';
import './chart.css';

export type { ChartMarker, ChartSeries };

/** One promise for the whole app: the chart library is fetched once, by the first page that draws. */
let uplotModule: Promise<typeof uPlot> | null = null;
const loadUplot = () => (uplotModule ??= import('./uplot-module').then((m) => m.default));

export interface ChartProps {
  /** What the chart shows, in words: its accessible name (the canvas itself says nothing to a screen reader). */
  label: string;
  /** Unix seconds, ascending; one per value of every series. */
  times: number[];
  series: ChartSeries[];
  markers?: ChartMarker[];
  bucketSeconds?: number;
  utc?: boolean;
  height?: number;
  /** Drag to zoom into a time span (with a Reset zoom button) and a live legend with the values under the cursor. */
  zoom?: boolean;
}

/**
 * A uPlot chart that fills its container's width, redraws when the container resizes or the
 * viewer switches light/dark, and is one image to assistive technology. Pair it with its table
 * twin and a one-line summary (ChartFigure does both).
 */
export function Chart({ label, times, series, markers, bucketSeconds, utc, height = 240, zoom }: ChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<unknown>(null);
  const [ready, setReady] = useState(false);
  const [scheme, setScheme] = useState(0);
  const [zoomed, setZoomed] = useState(false);
  const plotRef = useRef<uPlot | null>(null);
  const fullRange = useRef<() => { min: number; max: number } | null>(() => null);

  useEffect(() => onColorSchemeChange(() => setScheme((n) => n + 1)), []);

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let observer: ResizeObserver | null = null;
    let cancelled = false;
    loadUplot()
      .then((U) => {
        if (cancelled) return;
        const width = () => Math.max(200, Math.floor(el.clientWidth));
        const { opts, data } = buildChart(
          U,
          { times, series, markers, bucketSeconds, utc, width: width(), height, zoom },
          readChartTheme(),
        );
        // zoomed: the x scale no longer spans what it first drew (a drag set it); reset goes back there
        let initial: { min: number; max: number } | null = null;
        opts.hooks = {
          setScale: [
            (u, key) => {
              if (key !== 'x') return;
              const { min, max } = u.scales.x!;
              if (min == null || max == null) return;
              initial ??= { min, max };
              setZoomed(min !== initial.min || max !== initial.max);
            },
          ],
        };
        fullRange.current = () => initial;
        el.replaceChildren();
        plot = new U(opts, data, el);
        plotRef.current = plot;
        setZoomed(false);
        setReady(true);
        observer = new ResizeObserver(() => plot?.setSize({ width: width(), height }));
        observer.observe(el);
      })
      .catch((error: unknown) => !cancelled && setFailed(error));
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
      plotRef.current = null;
    };
  }, [times, series, markers, bucketSeconds, utc, height, scheme, zoom]);

  const resetZoom = () => {
    const range = fullRange.current();
    if (range) plotRef.current?.setScale('x', range);
  };
  return (
    <>
      {zoom && (
        <div className="chart-tools">
          <span className="muted">Drag across the chart to zoom in.</span>
          <button type="button" className="button secondary" onClick={resetZoom} disabled={!zoomed}>
            Reset zoom
          </button>
        </div>
      )}
      <div role="img" aria-label={label} className="chart-canvas">
        {!ready && (
          <div className="chart-placeholder" style={{ height }}>
            {failed ? 'The chart could not be loaded; the table below has the same numbers.' : 'Loading chart…'}
          </div>
        )}
        <div ref={container} />
      </div>
    </>
  );
}

/** A chart, its one-line summary and its table twin (the same numbers, for reading and for screen readers). */
export function ChartFigure({ summary, table, ...chart }: ChartProps & { summary: ReactNode; table: ReactNode }) {
  return (
    <figure className="chart">
      <Chart {...chart} />
      <figcaption>{summary}</figcaption>
      <div className="chart-twin table-wrap">{table}</div>
    </figure>
  );
}
