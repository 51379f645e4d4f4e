import { pingDatabase } from '@crawl/db';
import { Gauge } from '@crawl/observability';
import { withTimeoutOf } from './probe';
import { Router } from 'express';
import type { GatewayDeps } from '../../deps';

/**
 * Liveness and readiness: unauthenticated, outside /v1/key. The queue gauge registered here is
 * served with the other metrics on METRICS_PORT (main.ts), never on the API port.
 */
export function healthRouter(deps: Pick<GatewayDeps, 'db' | 'redis' | 'producer' | 'metrics'>): Router {
  const router = Router();
  const queueDepth = new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each BullMQ queue by state, read on scrape',
    labelNames: ['queue', 'state'],
    registers: [deps.metrics],
    async collect() {
      try {
        const depths = await deps.producer.depths();
        for (const [queue, counts] of Object.entries(depths)) {
          for (const [state, n] of Object.entries(counts)) this.set({ queue, state }, n);
        }
      } catch {
        // Redis down: keep the last values rather than failing the whole scrape
      }
    },
  });
  void queueDepth;

  router.get('/healthz', (_req, res) => {
    res.json({ data: { status: 'ok' } });
  });

  router.get('/readyz', async (_req, res) => {
    const [postgres, redis] = await Promise.all([
      withTimeoutOf(pingDatabase(deps.db), 2_000),
      withTimeoutOf(deps.redis.ping(), 2_000),
    ]);
    const ready = postgres && redis;
    res.status(ready ? 200 : 503).json({ data: { status: ready ? 'ready' : 'unavailable', postgres, redis } });
  });

  return router;
}
