/**
 * Pins what the event-loop lag gauges of prom-client's default metrics mean, since dashboards
 * and alerts on a blocked crawl worker rely on it (prom-client 15, lib/metrics/eventLoopLag.js):
 * `nodejs_eventloop_lag_{max,p50,p90,p99,...}_seconds` come from
 * perf_hooks.monitorEventLoopDelay at 10 ms resolution and are reset on every collect, so a
 * scrape reports the lag since the previous scrape, not since process start. A stall that
 * begins within one resolution tick (10 ms) after a scrape is not recorded: the histogram's
 * reset also drops its last tick time, so the first interval after it is skipped.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createMetricsRegistry } from './metrics';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function lag(registry: ReturnType<typeof createMetricsRegistry>): Promise<{ max: number; p99: number }> {
  const metrics = await registry.getMetricsAsJSON();
  const value = (name: string): number => {
    const metric = metrics.find((m) => m.name === name);
    if (!metric) throw new Error(`${name} not registered`);
    return (metric as unknown as { values: Array<{ value: number }> }).values[0]!.value;
  };
  return { max: value('nodejs_eventloop_lag_max_seconds'), p99: value('nodejs_eventloop_lag_p99_seconds') };
}

describe('createMetricsRegistry: event-loop lag', () => {
  it('a stall shows on the next scrape only: the lag gauges cover the time since the previous scrape', async () => {
    const registry = createMetricsRegistry('metrics-test');
    await sleep(50);
    await lag(registry); // a scrape: resets the histogram
    await sleep(30); // past the first tick after the reset (see the header)

    const start = performance.now();
    while (performance.now() - start < 400);
    const busyS = (performance.now() - start) / 1000;
    await sleep(30); // the tick that records the stall

    const during = await lag(registry);
    expect(during.max).toBeGreaterThanOrEqual(busyS * 0.75);
    expect(during.p99).toBeGreaterThanOrEqual(busyS * 0.75);

    // The next window holds no stall of ours. A loaded machine may still stall the loop in it,
    // so the bound is the lag an independent monitor saw in the same window, if that is larger.
    const window = monitorEventLoopDelay({ resolution: 10 });
    window.enable();
    await sleep(100);
    const after = await lag(registry);
    window.disable();
    const bound = Math.max(busyS / 2, window.max / 1e9 + 0.05);
    expect(after.max).toBeLessThan(bound);
    expect(after.p99).toBeLessThan(bound);
  });
});
