/** The colours a chart draws with, read from the page's CSS variables so it follows light and dark. */
export interface ChartTheme {
  text: string;
  muted: string;
  grid: string;
  marker: string;
  /** Alert markers. */
  alert: string;
  palette: string[];
}

const PALETTE_VARS = ['--chart-1', '--chart-2', '--chart-3', '--chart-4'];

export function readChartTheme(element: Element = document.documentElement): ChartTheme {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read('--text', '#1b1f24'),
    muted: read('--muted', '#57606a'),
    grid: read('--border', '#d0d7de'),
    marker: read('--chart-marker', read('--warn', '#9a6700')),
    alert: read('--chart-alert', '#b42318'),
    palette: PALETTE_VARS.map((name, i) => read(name, ['#0b57d0', '#1a7f37', '#b42318', '#8250df'][i]!)),
  };
}

/** Calls `onChange` when the viewer switches between light and dark. */
export function onColorSchemeChange(onChange: () => void): () => void {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
