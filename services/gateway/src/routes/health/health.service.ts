import { pingDatabase } from '@crawl/db';
import { Gauge } from '@crawl/observability';
import type { GatewayDeps } from '../../deps';
import { withTimeoutOf } from './probe';

/**
 * Liveness and readiness. The queue gauge registered here is served with the other metrics on
 * METRICS_PORT (main.ts), never on the API port.
 */
export class HealthService {
  constructor(private readonly deps: Pick<GatewayDeps, 'db' | 'redis' | 'producer' | 'metrics'>) {
    new Gauge({
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
  }

  /** Whether Postgres and Redis answer within 2 s each. */
  async readiness(): Promise<{ postgres: boolean; redis: boolean }> {
    const [postgres, redis] = await Promise.all([
      withTimeoutOf(pingDatabase(this.deps.db), 2_000),
      withTimeoutOf(this.deps.redis.ping(), 2_000),
    ]);
    return { postgres, redis };
  }
}
