import type { HostThrottle } from '@crawl/marketplace';
import { hitFixedWindow, type Redis } from '@crawl/queue';

/**
 * Politeness: at most `rps` requests per second to one marketplace host across every worker
 * process (a fixed one-second window in Redis). A request over the limit waits for the next
 * window, with jitter so that waiting workers do not all fire at its first millisecond.
 * If Redis does not answer, the request goes ahead: the queue itself runs on Redis, so a
 * worker that can't reach it is about to stall anyway.
 */
export class RedisHostThrottle implements HostThrottle {
  constructor(private readonly redis: Redis, private readonly prefix: string, private readonly rps: number) {}

  async acquire(host: string): Promise<void> {
    for (let tries = 0; tries < 120; tries++) {
      let hit;
      try {
        hit = await hitFixedWindow(this.redis, `${this.prefix}:polite:${host}`, 1_000, Date.now());
      } catch {
        return;
      }
      if (hit.count <= this.rps) return;
      await new Promise((r) => setTimeout(r, hit.msLeft + Math.floor(Math.random() * 50)));
    }
  }
}
