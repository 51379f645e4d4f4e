import { Counter, Histogram, Registry } from 'prom-client';
import { combineMetricsText } from './service-main';

/** `pnpm start` serves several services' registries as one exposition. */
function registry(service: string): Registry {
  const r = new Registry();
  r.setDefaultLabels({ service });
  return r;
}

it("declares a family that several services export once, followed by every service's samples", async () => {
  const [gateway, worker] = [registry('gateway'), registry('worker')];
  for (const r of [gateway, worker])
    new Counter({ name: 'shared_total', help: 'Exported by both', registers: [r] }).inc(r === gateway ? 2 : 3);
  new Histogram({ name: 'only_worker_seconds', help: 'Worker only', buckets: [1], registers: [worker] }).observe(0.5);
  new Counter({ name: 'only_gateway_total', help: 'Gateway only', registers: [gateway] }).inc();

  const text = combineMetricsText([await gateway.metrics(), await worker.metrics()]);
  expect(text.match(/^# TYPE shared_total counter$/gm)).toHaveLength(1);
  expect(text.match(/^# HELP shared_total Exported by both$/gm)).toHaveLength(1);
  // The samples follow their family's header, from both services.
  expect(text).toContain('# TYPE shared_total counter\nshared_total{service="gateway"} 2\nshared_total{service="worker"} 3\n');
  expect(text).toContain('only_worker_seconds_bucket{le="1",service="worker"} 1');
  expect(text).toContain('only_worker_seconds_count{service="worker"} 1');
  expect(text).toContain('only_gateway_total{service="gateway"} 1');
  expect(text.endsWith('\n')).toBe(true);
  const declared = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]);
  expect(declared.sort()).toEqual(['only_gateway_total', 'only_worker_seconds', 'shared_total']);
});
