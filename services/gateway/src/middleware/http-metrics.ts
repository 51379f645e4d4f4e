import { Counter, Histogram, type Registry } from '@crawl/observability';
import type { NextFunction, Request, Response } from 'express';

/**
 * Request counts and latency by route template (never the raw path: ids would explode
 * cardinality), one label per template whatever the status (route-templates.ts).
 */
export function httpMetrics(registry: Registry, routeOf: (path: string) => string) {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const start = process.hrtime.bigint();
    res.once('finish', () => {
      const route = routeOf(req.originalUrl.split('?')[0]!);
      const labels = { method: req.method, route, status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    });
    next();
  };
}
