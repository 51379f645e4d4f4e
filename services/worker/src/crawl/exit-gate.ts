import type { ExitGate, ExitSpec } from '@crawl/marketplace';
import { type Redis, SpacingLimiter } from '@crawl/redis';

/**
 * The exits' politeness and cooldowns in Redis, shared by every worker process: per
 * (marketplace host, exit) spacing of 1/rps, an optional per-host ceiling over all exits
 * (CRAWL_FLEET_RPS), caps on requests in flight for exits that set one.
 */
export class RedisExitGate implements ExitGate {
  private readonly limiter: SpacingLimiter;

  constructor(
    redis: Redis,
    prefix: string,
    private readonly fleetRps: number,
  ) {
    this.limiter = new SpacingLimiter(redis, prefix);
  }

  pick(host: string, order: ExitSpec[], leaseMs: number) {
    return this.limiter.pick(
      host,
      order.map((e) => ({ key: e.key, intervalMs: 1000 / e.rps, maxInFlight: e.maxInFlight })),
      { fleetIntervalMs: this.fleetRps > 0 ? 1000 / this.fleetRps : 0, leaseMs },
    );
  }

  coolDown(host: string, exit: ExitSpec, ms: number): Promise<void> {
    return this.limiter.coolDown(host, exit.key, ms);
  }
}
