import { type JobType, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { catalog, type CatalogEntry, type JobName, type PayloadOf, QUEUE_NAMES, type QueueName } from './catalog';

export interface QueueConnectionOptions {
  redisUrl: string;
  prefix: string;
}

function backoffOf(entry: CatalogEntry, overrideMs?: number) {
  return {
    type: 'exponential' as const,
    delay: overrideMs ?? entry.backoffMs,
    ...(entry.backoffJitter ? { jitter: entry.backoffJitter } : {}),
  };
}

/** Fails a Redis call that does not answer in time instead of letting an HTTP request hang. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** Typed producer over the catalog: `enqueue(name, payload)` with the entry's retry policy. */
export class QueueProducer {
  private readonly queues = new Map<QueueName, Queue>();

  /**
   * `backoffMs` overrides a catalog entry's base retry delay for this producer (tests and
   * simulators retry in milliseconds rather than seconds).
   */
  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly timeoutMs = 2_000,
    private readonly backoffMs: Partial<Record<JobName, number>> = {},
  ) {}

  private queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, { connection: this.connection, prefix: this.prefix });
      q.on('error', () => undefined);
      this.queues.set(name, q);
    }
    return q;
  }

  /** BullMQ options of one task: the catalog entry's retry and retention policy plus the caller's id, delay, priority. */
  private jobOptions(name: JobName, opts: { jobId?: string; delayMs?: number; priority?: number }) {
    const entry: CatalogEntry = catalog[name];
    return {
      jobId: opts.jobId,
      delay: opts.delayMs,
      priority: opts.priority,
      attempts: entry.attempts,
      backoff: backoffOf(entry, this.backoffMs[name]),
      removeOnComplete: { age: entry.removeOnCompleteAgeSeconds },
      removeOnFail: { age: 7 * 24 * 3600 },
    };
  }

  /** Adds a job; `jobId` makes the add idempotent (BullMQ ignores a second add of the same id). */
  async enqueue<N extends JobName>(
    name: N,
    payload: PayloadOf<N>,
    opts: { jobId?: string; delayMs?: number; priority?: number } = {},
  ): Promise<void> {
    const entry = catalog[name];
    await withTimeout(
      this.queue(entry.queue).add(name, entry.schema.parse(payload), this.jobOptions(name, opts)),
      this.timeoutMs,
      `enqueue ${name}`,
    );
  }

  /**
   * Adds many jobs of one kind in one round trip per 500 (e.g. the targets of a crawl job).
   * A round trip may take five times the producer's timeout, or the producer's timeout alone
   * when a request waits on it (`awaitedByRequest`), as for `enqueue`.
   */
  async enqueueBulk<N extends JobName>(
    name: N,
    items: { payload: PayloadOf<N>; jobId?: string; priority?: number }[],
    options: { awaitedByRequest?: boolean } = {},
  ): Promise<void> {
    const entry = catalog[name];
    const timeoutMs = options.awaitedByRequest ? this.timeoutMs : this.timeoutMs * 5;
    for (let i = 0; i < items.length; i += 500) {
      const chunk = items
        .slice(i, i + 500)
        .map((item) => ({ name, data: entry.schema.parse(item.payload), opts: this.jobOptions(name, item) }));
      await withTimeout(this.queue(entry.queue).addBulk(chunk), timeoutMs, `enqueue ${name} x${chunk.length}`);
    }
  }

  /**
   * Re-adds the tasks among `items` that are no longer live in the queue (lost with Redis
   * data, or failed): used when restarting a stalled crawl job. Live tasks are left alone so
   * that a restart never runs a target twice at the same time.
   */
  async enqueueMissing<N extends JobName>(name: N, items: { payload: PayloadOf<N>; jobId: string; priority?: number }[]): Promise<number> {
    const queue = this.queue(catalog[name].queue);
    const missing: typeof items = [];
    for (const item of items) {
      const state = await withTimeout(queue.getJobState(item.jobId), this.timeoutMs, 'job state');
      if (['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'].includes(state)) continue;
      if (state !== 'unknown') await withTimeout(queue.remove(item.jobId), this.timeoutMs, 'remove job');
      missing.push(item);
    }
    if (missing.length) await this.enqueueBulk(name, missing);
    return missing.length;
  }

  /** Waiting + delayed + active counts per queue, for /metrics. */
  async depths(): Promise<Record<QueueName, Record<string, number>>> {
    const out = {} as Record<QueueName, Record<string, number>>;
    for (const name of QUEUE_NAMES) out[name] = await this.counts(name, 'waiting', 'delayed', 'active', 'failed', 'prioritized');
    return out;
  }

  /**
   * Tasks ready to run and not yet taken: `waiting` plus `prioritized` (tasks with a priority,
   * such as every crawl target, are held in BullMQ's prioritized set, not in `waiting`).
   */
  async backlog(name: QueueName): Promise<number> {
    const counts = await this.counts(name, 'waiting', 'prioritized');
    return (counts.waiting ?? 0) + (counts.prioritized ?? 0);
  }

  private counts(name: QueueName, ...states: JobType[]): Promise<Record<string, number>> {
    return withTimeout(this.queue(name).getJobCounts(...states), this.timeoutMs, 'queue depth');
  }

  /** Deletes every task of every queue under this prefix: tear-down of a private test prefix. */
  async removeAll(): Promise<void> {
    await Promise.all(QUEUE_NAMES.map((name) => this.queue(name).obliterate({ force: true })));
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}

export { withTimeout };
