/**
 * Response latency drawn per request. Real marketplace latency is right-skewed (most pages
 * in well under a second, a long tail of slow ones), which a log-normal captures with two
 * numbers an operator actually knows: the median and the 99th percentile.
 */
import type { LatencyConfig } from './types';

/** Standard normal quantile at 0.99. */
const Z99 = 2.3263478740408408;

function fail(message: string): never {
  throw new TypeError(`invalid latency: ${message}`);
}

const isMs = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Checks a config (e.g. parsed JSON); null means off. Returns a normalized copy with every field set. */
export function validateLatency(input: unknown): Required<LatencyConfig> | null {
  if (input === null || input === undefined) return null;
  if (typeof input !== 'object' || Array.isArray(input)) fail('must be an object { p50Ms, p99Ms?, maxMs? } or null');
  const { p50Ms, p99Ms, maxMs } = input as Record<string, unknown>;
  if (!isMs(p50Ms)) fail('p50Ms must be a number >= 0');
  if (p50Ms === 0) return null;
  const p99 = p99Ms === undefined ? p50Ms : p99Ms;
  if (!isMs(p99) || p99 < p50Ms) fail('p99Ms must be a number >= p50Ms');
  const max = maxMs === undefined ? p99 * 4 : maxMs;
  if (!isMs(max) || max < p50Ms) fail('maxMs must be a number >= p50Ms');
  return { p50Ms, p99Ms: p99, maxMs: max };
}

/** mu and sigma of the log-normal whose median is p50 and whose 99th percentile is p99. */
export function lognormalParams(p50Ms: number, p99Ms: number): { mu: number; sigma: number } {
  return { mu: Math.log(p50Ms), sigma: Math.log(p99Ms / p50Ms) / Z99 };
}

/**
 * A sampler of delays in ms, driven by `random` (uniform in [0, 1)); the simulator passes a
 * seeded PRNG of its own so a run's delays are reproducible and do not shift the fault PRNG.
 * Box-Muller, one normal per draw: simpler than caching the pair, and a draw costs ~100 ns.
 */
export function createLatencySampler(config: Required<LatencyConfig>, random: () => number): () => number {
  const { mu, sigma } = lognormalParams(config.p50Ms, config.p99Ms);
  if (sigma === 0) return () => config.p50Ms;
  return () => {
    const u = 1 - random(); // (0, 1]: log(0) would be -Infinity
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
    return Math.min(config.maxMs, Math.exp(mu + sigma * z));
  };
}
