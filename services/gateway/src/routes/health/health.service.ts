import { pingDatabase } from '@crawl/db';
import { Gauge } from '@crawl/observability';
import type { GatewayContext } from '../../context';
import { valueWithin, withTimeoutOf } from './probe';

/**
 * Liveness and readiness. The queue gauge registered here is served with the other metrics on
 * METRICS_PORT (main.ts), never on the API port.
 */
export class HealthService {
  constructor(private readonly deps: Pick<GatewayContext, 'db' | 'redis' | 'producer' | 'metrics' | 'jobs'>) {
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
    // What the worker autoscalers scale on (infra/README.md "Capacity"): the queue shows at most
    // CRAWL_ORG_WINDOW tasks per organization, so a lone big job would look like a small backlog.
    new Gauge({
      name: 'crawl_backlog_targets',
      help: 'Targets of queued and running jobs without an outcome yet (all organizations), read from Postgres on scrape',
      registers: [deps.metrics],
      async collect() {
        try {
          this.set(await valueWithin(deps.jobs.unfinishedTargets(), 2_000));
        } catch {
          // Postgres slow or down: keep the last value rather than failing the whole scrape
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
