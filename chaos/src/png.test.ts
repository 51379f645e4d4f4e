import { PNG } from 'pngjs';
import { hexColor, renderPlot } from './png';

describe('renderPlot', () => {
  it('writes a PNG that decodes to the plot, with each series drawn in its colour', () => {
    const file = renderPlot([
      { title: 'rss', series: [{ name: 'gateway', color: '#d62728', points: [{ x: 0, y: 10 }, { x: 30, y: 20 }, { x: 60, y: null }] }] },
      { title: 'queues', series: [{ name: 'crawl', color: '#1f77b4', points: [{ x: 0, y: 0 }, { x: 60, y: 5 }] }] },
    ]);
    const image = PNG.sync.read(file);
    expect(image.width).toBe(1100);
    expect(image.height).toBe(20 + 2 * 360 + 10);
    const colours = new Set<string>();
    for (let i = 0; i < image.data.length; i += 4) colours.add(`${image.data[i]},${image.data[i + 1]},${image.data[i + 2]}`);
    expect(colours).toContain('255,255,255');
    expect(colours).toContain('0,0,0');
    expect(colours).toContain(hexColor('#d62728').join(','));
    expect(colours).toContain(hexColor('#1f77b4').join(','));
  });
});
