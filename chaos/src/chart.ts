/**
 * The soak chart: stacked line panels sharing the x axis (seconds), drawn by Apache ECharts'
 * server-side SVG renderer (pure JS: no browser, no canvas, no native build).
 */
import * as echarts from 'echarts';

export interface Series {
  name: string;
  color: string;
  /** `y: null` is a missing sample: the line breaks there. */
  points: { x: number; y: number | null }[];
}

export interface Panel {
  title: string;
  series: Series[];
}

export const CHART_WIDTH = 1100;
export const PANEL_HEIGHT = 360;
const LEFT = 70;
const PLOT_WIDTH = 720;
const TOP = 40;
const PLOT_HEIGHT = 240;

/** One SVG document: each panel with its title, axes and its legend on the right. */
export function renderPlot(panels: Panel[], xLabel = 'seconds'): string {
  const xMax = Math.max(1, ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map((pt) => pt.x))));
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: CHART_WIDTH, height: panels.length * PANEL_HEIGHT });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: '#ffffff',
      title: panels.map((p, i) => ({ text: p.title, left: LEFT, top: i * PANEL_HEIGHT + 8, textStyle: { fontSize: 14 } })),
      grid: panels.map((_, i) => ({ left: LEFT, top: i * PANEL_HEIGHT + TOP, width: PLOT_WIDTH, height: PLOT_HEIGHT })),
      xAxis: panels.map((_, i) => ({ type: 'value', gridIndex: i, min: 0, max: xMax, name: xLabel, nameLocation: 'middle', nameGap: 28 })),
      yAxis: panels.map((_, i) => ({ type: 'value', gridIndex: i, min: 0 })),
      legend: panels.map((p, i) => ({
        orient: 'vertical',
        left: LEFT + PLOT_WIDTH + 20,
        top: i * PANEL_HEIGHT + TOP,
        data: p.series.map((s) => s.name),
      })),
      series: panels.flatMap((p, i) =>
        p.series.map((s) => ({
          type: 'line',
          name: s.name,
          xAxisIndex: i,
          yAxisIndex: i,
          color: s.color,
          showSymbol: false,
          connectNulls: false,
          lineStyle: { width: 2 },
          data: s.points.map((pt) => [pt.x, pt.y ?? '-']),
        })),
      ),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}
