import { CHART_WIDTH, PANEL_HEIGHT, renderPlot } from './chart';

describe('renderPlot', () => {
  const svg = renderPlot([
    {
      title: 'RSS MB per process',
      series: [
        {
          name: 'gateway',
          color: '#d62728',
          points: [
            { x: 0, y: 10 },
            { x: 30, y: 20 },
            { x: 45, y: null },
            { x: 60, y: 25 },
            { x: 90, y: 30 },
          ],
        },
      ],
    },
    {
      title: 'queue depth (redis keys)',
      series: [
        {
          name: 'crawl',
          color: '#1f77b4',
          points: [
            { x: 0, y: 0 },
            { x: 90, y: 5 },
          ],
        },
      ],
    },
  ]);

  it('is one SVG document sized for the panels', () => {
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg).toContain(`width="${CHART_WIDTH}" height="${2 * PANEL_HEIGHT}"`);
  });

  it('titles each panel and names each series in a legend', () => {
    for (const text of ['RSS MB per process', 'queue depth (redis keys)', 'gateway', 'crawl', 'seconds']) expect(svg).toContain(text);
  });

  it('draws each series in its colour, breaking the line at a missing sample', () => {
    const lines = (color: string) =>
      [...svg.matchAll(/<path d="([^"]*)"[^>]*stroke="([^"]*)"/g)]
        .filter((m) => m[2] === color && m[0].includes('fill="none"'))
        .map((m) => m[1]!);
    const red = lines('#d62728');
    const blue = lines('#1f77b4');
    expect(red.length).toBeGreaterThan(0);
    expect(blue.length).toBeGreaterThan(0);
    // the gateway series has a gap: its line is two runs (two move-tos), the queue series one
    const moves = (paths: string[]) => Math.max(...paths.map((d) => (d.match(/M/g) ?? []).length));
    expect(moves(red)).toBe(2);
    expect(moves(blue)).toBe(1);
  });
});
