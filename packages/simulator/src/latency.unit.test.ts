/** The latency distribution (pure, no clock) and where the simulator applies it (real sockets). */
import { createLatencySampler, lognormalParams, validateLatency } from './latency';
import { createPrng } from './prng';
import { startSimulator } from './server';

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

describe('latency sampler', () => {
  it('draws a log-normal whose median and 99th percentile are the configured ones', () => {
    const config = validateLatency({ p50Ms: 800, p99Ms: 3000 })!;
    const draw = createLatencySampler(config, createPrng(11));
    const small = Array.from({ length: 200 }, draw).sort((a, b) => a - b);
    expect(quantile(small, 0.5)).toBeGreaterThan(800 * 0.75);
    expect(quantile(small, 0.5)).toBeLessThan(800 * 1.25);
    const large = Array.from({ length: 50_000 }, draw).sort((a, b) => a - b);
    expect(quantile(large, 0.5)).toBeGreaterThan(800 * 0.95);
    expect(quantile(large, 0.5)).toBeLessThan(800 * 1.05);
    expect(quantile(large, 0.99)).toBeGreaterThan(3000 * 0.85);
    expect(quantile(large, 0.99)).toBeLessThan(3000 * 1.15);
    expect(large[large.length - 1]).toBeLessThanOrEqual(config.maxMs); // capped at 4 x p99 by default
    expect(large[0]).toBeGreaterThan(0);
  });

  it('fits mu and sigma from the quantiles and is reproducible per seed', () => {
    const { mu, sigma } = lognormalParams(800, 3000);
    expect(Math.exp(mu)).toBeCloseTo(800, 6);
    expect(Math.exp(mu + 2.3263478740408408 * sigma)).toBeCloseTo(3000, 6);
    const config = validateLatency({ p50Ms: 100, p99Ms: 900 })!;
    const a = createLatencySampler(config, createPrng(5));
    const b = createLatencySampler(config, createPrng(5));
    expect(Array.from({ length: 20 }, a)).toEqual(Array.from({ length: 20 }, b));
  });

  it('is constant without a spread, off at 0, and rejects nonsense', () => {
    expect(createLatencySampler(validateLatency({ p50Ms: 40 })!, createPrng(1))()).toBe(40);
    expect(validateLatency({ p50Ms: 0 })).toBeNull();
    expect(validateLatency(null)).toBeNull();
    expect(() => validateLatency({ p50Ms: 500, p99Ms: 100 })).toThrow(/p99Ms/);
    expect(() => validateLatency({ p50Ms: -1 })).toThrow(TypeError);
    expect(() => validateLatency({ p50Ms: 100, maxMs: 10 })).toThrow(/maxMs/);
  });
});

describe('latency in the simulator', () => {
  it('delays every page answer, faults included, but never a control route', async () => {
    const sim = await startSimulator({ fixturesDir: null, latency: { p50Ms: 250 } });
    try {
      const timed = async (path: string): Promise<number> => {
        const started = Date.now();
        await (await fetch(sim.url + path)).arrayBuffer();
        return Date.now() - started;
      };
      expect(await timed('/dp/B0TEST0001')).toBeGreaterThanOrEqual(240);
      sim.setFaults([{ fault: { kind: 'not_found' }, times: 1 }]);
      expect(await timed('/dp/B0TEST0001')).toBeGreaterThanOrEqual(240);
      expect(await timed('/__sim/health')).toBeLessThan(200);

      const put = await fetch(`${sim.url}/__sim/latency`, { method: 'PUT', body: JSON.stringify({ p50Ms: 20, p99Ms: 60 }) });
      expect(await put.json()).toEqual({ p50Ms: 20, p99Ms: 60, maxMs: 240 });
      expect((await fetch(`${sim.url}/__sim/latency`, { method: 'PUT', body: JSON.stringify({ p50Ms: 'fast' }) })).status).toBe(400);
      expect((await fetch(`${sim.url}/__sim/latency`, { method: 'DELETE' })).status).toBe(204);
      expect(await (await fetch(`${sim.url}/__sim/latency`)).json()).toBeNull();
      expect(await timed('/dp/B0TEST0001')).toBeLessThan(200);
      sim.setLatency({ p50Ms: 250 });
      expect(await timed('/dp/B0TEST0001')).toBeGreaterThanOrEqual(240);
    } finally {
      await sim.close();
    }
  });
});
