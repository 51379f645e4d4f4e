/**
 * A tiny line-plot renderer: RGB canvas, Bresenham lines and a 3x5 pixel font for labels, drawn
 * here; the PNG file itself is written by pngjs (pure JS, no native dependencies).
 */
import { PNG } from 'pngjs';

const FONT: Record<string, string> = {
  '0': '111101101101111', '1': '010110010010111', '2': '111001111100111', '3': '111001111001111', '4': '101101111001001',
  '5': '111100111001111', '6': '111100111101111', '7': '111001001001001', '8': '111101111101111', '9': '111101111001111',
  A: '010101111101101', B: '110101110101110', C: '011100100100011', D: '110101101101110', E: '111100110100111',
  F: '111100110100100', G: '011100101101011', H: '101101111101101', I: '111010010010111', J: '001001001101010',
  K: '101101110101101', L: '100100100100111', M: '101111111101101', N: '110101101101101', O: '010101101101010',
  P: '110101110100100', Q: '010101101110011', R: '110101110101101', S: '011100010001110', T: '111010010010010',
  U: '101101101101111', V: '101101101101010', W: '101101111111101', X: '101101010101101', Y: '101101010010010',
  Z: '111001010100111', '-': '000000111000000', '.': '000000000000010', ':': '000010000010000', '/': '001001010100100',
  '(': '010100100100010', ')': '010001001001010', _: '000000000000111', '#': '101111101111101', ' ': '000000000000000',
  '+': '000010111010000', '%': '101001010100101',
};

export type Rgb = [number, number, number];

export function hexColor(hex: string): Rgb {
  const n = parseInt(hex.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export class Canvas {
  readonly pixels: Buffer;
  constructor(readonly width: number, readonly height: number, background: Rgb = [255, 255, 255]) {
    this.pixels = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) this.pixels.set(background, i * 3);
  }

  set(x: number, y: number, c: Rgb): void {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.pixels.set(c, (y * this.width + x) * 3);
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) this.set(x + i, y + j, c);
  }

  line(x0: number, y0: number, x1: number, y1: number, c: Rgb, thick = 1): void {
    x0 = Math.round(x0);
    y0 = Math.round(y0);
    x1 = Math.round(x1);
    y1 = Math.round(y1);
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      for (let a = 0; a < thick; a++) for (let b = 0; b < thick; b++) this.set(x0 + a, y0 + b, c);
      if (x0 === x1 && y0 === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }

  /** Upper-case text in the 3x5 font, `scale` pixels per font pixel. Returns the width drawn. */
  text(x: number, y: number, s: string, c: Rgb, scale = 2): number {
    let cx = x;
    for (const ch of s.toUpperCase()) {
      const glyph = FONT[ch] ?? FONT[' ']!;
      for (let row = 0; row < 5; row++) {
        for (let col = 0; col < 3; col++) {
          if (glyph[row * 3 + col] === '1') this.rect(cx + col * scale, y + row * scale, scale, scale, c);
        }
      }
      cx += 4 * scale;
    }
    return cx - x;
  }

  png(): Buffer {
    const image = new PNG({ width: this.width, height: this.height });
    image.data = this.pixels;
    // The canvas is 8-bit RGB without alpha, and so is the file.
    return PNG.sync.write(image, { colorType: 2, inputColorType: 2, inputHasAlpha: false });
  }
}

export interface Series {
  name: string;
  color: string;
  points: { x: number; y: number | null }[];
}

export interface Panel {
  title: string;
  series: Series[];
}

/** Round-ish axis maximum: 1, 2, 5 x 10^n at or above `v`. */
function niceMax(v: number): number {
  if (v <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

/** Stacked panels sharing the x axis (seconds), legend on the right of each panel. */
export function renderPlot(panels: Panel[], xLabel = 'SECONDS'): Buffer {
  const width = 1100;
  const panelH = 300;
  const top = 20;
  const gap = 60;
  const left = 70;
  const plotW = 720;
  const height = top + panels.length * (panelH + gap) + 10;
  const c = new Canvas(width, height);
  const black: Rgb = [0, 0, 0];
  const grid: Rgb = [225, 225, 225];
  const xMax = Math.max(1, ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map((pt) => pt.x))));
  panels.forEach((panel, i) => {
    const y0 = top + i * (panelH + gap) + 20;
    const h = panelH - 40;
    const yMax = niceMax(Math.max(0, ...panel.series.flatMap((s) => s.points.map((pt) => pt.y ?? 0))));
    c.text(left, y0 - 18, panel.title, black);
    for (let k = 0; k <= 4; k++) {
      const y = y0 + h - (h * k) / 4;
      c.line(left, y, left + plotW, y, grid);
      const label = String(Math.round(((yMax * k) / 4) * 10) / 10);
      c.text(left - 8 - label.length * 8, y - 5, label, black);
    }
    for (let k = 0; k <= 6; k++) {
      const x = left + (plotW * k) / 6;
      c.line(x, y0 + h, x, y0 + h + 4, black);
      const label = String(Math.round((xMax * k) / 6));
      c.text(x - label.length * 4, y0 + h + 8, label, black);
    }
    c.text(left + plotW - xLabel.length * 8, y0 + h + 22, xLabel, black);
    c.line(left, y0, left, y0 + h, black, 2);
    c.line(left, y0 + h, left + plotW, y0 + h, black, 2);
    panel.series.forEach((s, k) => {
      const col = hexColor(s.color);
      let prev: { x: number; y: number } | null = null;
      for (const pt of s.points) {
        if (pt.y === null) {
          prev = null;
          continue;
        }
        const px = left + (plotW * pt.x) / xMax;
        const py = y0 + h - (h * pt.y) / yMax;
        if (prev) c.line(prev.x, prev.y, px, py, col, 2);
        else c.rect(px, py, 2, 2, col);
        prev = { x: px, y: py };
      }
      const ly = y0 + k * 14;
      c.rect(left + plotW + 20, ly, 14, 10, col);
      c.text(left + plotW + 40, ly, s.name.slice(0, 30), black);
    });
  });
  return c.png();
}
