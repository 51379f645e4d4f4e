import type uPlot from 'uplot';
import type { ChartTheme } from './chart-theme';
import { viewerZone } from '../time';

export interface ChartSeries {
  label: string;
  /** One value per entry of `times`; null is a gap. */
  values: Array<number | null>;
  /** `step`: the value holds until the next one (prices, ranks); `bars`: an amount per bucket (credits per day). */
  kind: 'line' | 'step' | 'bars';
  /** `right`: a second y axis, for a measure of another unit (a rank next to a price). */
  axis?: 'left' | 'right';
  /** Draw smaller values higher (a rank: 1 is the best). */
  invert?: boolean;
  format?: (value: number) => string;
}

export interface ChartMarker {
  /** Unix seconds. */
  time: number;
  label: string;
  /** `change` (default): a dashed line; `alert`: a solid line in the alert colour, a triangle on top. */
  kind?: 'change' | 'alert';
}

export interface ChartOptionsInput {
  times: number[];
  series: ChartSeries[];
  markers?: ChartMarker[];
  /** Bars: the seconds one bucket spans (3600, 86400), so the bars of a bucket sit side by side inside it. */
  bucketSeconds?: number;
  /** Label the time axis in UTC (buckets that are UTC days) instead of the viewer's zone. */
  utc?: boolean;
  width: number;
  height: number;
  /** Drag across the plot to zoom into a time span, and a live legend with the values and time under the cursor. */
  zoom?: boolean;
}

const cursorTime = new Map<boolean, Intl.DateTimeFormat>();
function formatCursorTime(seconds: number, utc?: boolean): string {
  let f = cursorTime.get(!!utc);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', ...(utc ? { timeZone: 'UTC' } : {}) });
    cursorTime.set(!!utc, f);
  }
  return f.format(new Date(seconds * 1000));
}

/** Bars: ticks on whole buckets (a day chart labels days, not noon). */
const BUCKET_STEPS = [1, 2, 3, 4, 6, 7, 12, 14, 24, 30];

const scaleOf = (s: ChartSeries) => (s.axis === 'right' ? 'right' : 'left');

/** Grouped bars: bar `slot` of `count` in each bucket, placed in x units (seconds). */
function groupedBars(u: typeof uPlot, slot: number, count: number, bucket: number, times: number[]): uPlot.Series.PathBuilder {
  const inner = bucket * 0.8;
  const width = inner / count;
  const COORD = 1 as uPlot.Series.BarsPathBuilderFacetUnit;
  return u.paths.bars!({
    disp: {
      x0: { unit: COORD, values: () => times.map((t) => t + bucket * 0.1 + slot * width) },
      size: { unit: COORD, values: () => times.map(() => width) },
    },
  });
}

/** Vertical lines at the markers' times, drawn over the plot: changes dashed, alerts solid with a triangle on top. */
function markerPlugin(markers: ChartMarker[], colour: string, alertColour: string): uPlot.Plugin {
  return {
    hooks: {
      draw: (u) => {
        const { ctx } = u;
        const { top, height } = u.bbox;
        ctx.save();
        ctx.lineWidth = Math.max(1, devicePixelRatio);
        const px = devicePixelRatio;
        for (const m of markers) {
          const x = Math.round(u.valToPos(m.time, 'x', true));
          if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue; // zoomed out of view
          const alert = m.kind === 'alert';
          ctx.strokeStyle = alert ? alertColour : colour;
          ctx.setLineDash(alert ? [] : [4 * px, 4 * px]);
          ctx.beginPath();
          ctx.moveTo(x, top);
          ctx.lineTo(x, top + height);
          ctx.stroke();
          if (alert) {
            ctx.fillStyle = alertColour;
            ctx.beginPath();
            ctx.moveTo(x - 5 * px, top);
            ctx.lineTo(x + 5 * px, top);
            ctx.lineTo(x, top + 8 * px);
            ctx.fill();
          }
        }
        ctx.restore();
      },
    },
  };
}

/** The uPlot options and data of a chart: axes in the theme's colours, one scale per side. */
export function buildChart(u: typeof uPlot, input: ChartOptionsInput, theme: ChartTheme): { opts: uPlot.Options; data: uPlot.AlignedData } {
  const { times, series } = input;
  const bars = series.filter((s) => s.kind === 'bars');
  const bucket = input.bucketSeconds ?? 86_400;
  const hasRight = series.some((s) => s.axis === 'right');
  const axis = (side: 'left' | 'right'): uPlot.Axis => {
    const first = series.find((s) => scaleOf(s) === side);
    return {
      scale: side,
      side: side === 'left' ? 3 : 1,
      stroke: theme.text,
      grid: { stroke: theme.grid, width: 1, show: side === 'left' },
      ticks: { stroke: theme.grid },
      values: (_u, splits) => splits.map((v) => (first?.format ? first.format(v) : String(v))),
      // wide enough for the longest tick label (a price with its currency, a rank with separators)
      size: (_u, values) => 16 + 8 * Math.max(3, ...(values ?? []).map((v) => String(v).length)),
    };
  };
  const scales: uPlot.Scales = {
    x: { time: true, ...(bars.length && times.length ? { range: () => [times[0]!, times[times.length - 1]! + bucket] } : {}) },
    left: {
      dir: series.find((s) => scaleOf(s) === 'left')?.invert ? -1 : 1,
      ...(bars.length ? { range: (_u, _min, max) => [0, Math.max(1, max)] } : {}),
    },
  };
  if (hasRight) scales.right = { dir: series.find((s) => s.axis === 'right')?.invert ? -1 : 1 };
  let barSlot = 0;
  const opts: uPlot.Options = {
    width: input.width,
    height: input.height,
    ...(input.utc ? { tzDate: (ts: number) => u.tzDate(new Date(ts * 1e3), 'Etc/UTC') } : {}),
    scales,
    axes: [
      {
        // the times' zone, as every time the console shows carries it (ui/time.tsx)
        label: input.utc ? 'UTC' : viewerZone(),
        labelSize: 20,
        labelFont: '12px system-ui, sans-serif',
        stroke: theme.text,
        grid: { stroke: theme.grid, width: 1 },
        ticks: { stroke: theme.grid },
        ...(bars.length ? { incrs: BUCKET_STEPS.map((n) => n * bucket) } : {}),
      },
      axis('left'),
      ...(hasRight ? [axis('right')] : []),
    ],
    legend: { live: !!input.zoom },
    cursor: { drag: { x: !!input.zoom, y: false, setScale: !!input.zoom } },
    series: [
      // the cursor's time in the legend, in the axis's zone
      input.zoom
        ? { label: `Time (${input.utc ? 'UTC' : viewerZone()})`, value: (_u, v) => (v == null ? '—' : formatCursorTime(v, input.utc)) }
        : {},
      ...series.map((s, i): uPlot.Series => {
        const colour = theme.palette[i % theme.palette.length]!;
        const common = {
          label: s.label,
          scale: scaleOf(s),
          stroke: colour,
          value: (_u: uPlot, v: number | null) => (v == null ? '—' : s.format ? s.format(v) : String(v)),
        };
        if (s.kind === 'bars')
          return {
            ...common,
            fill: colour,
            width: 0,
            paths: groupedBars(u, barSlot++, bars.length, bucket, times),
            points: { show: false },
          };
        if (s.kind === 'step')
          return { ...common, width: 2, spanGaps: true, paths: u.paths.stepped!({ align: 1 }), points: { show: true, size: 5 } };
        return { ...common, width: 2 };
      }),
    ],
    plugins: input.markers?.length ? [markerPlugin(input.markers, theme.marker, theme.alert)] : [],
  };
  return { opts, data: [times, ...series.map((s) => s.values)] as uPlot.AlignedData };
}
