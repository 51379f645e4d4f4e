import type { Logger } from '@crawl/observability';

/**
 * Remembers which keys or sessions were used and writes it in the background, one statement per
 * flush for all of them: `lastUsedAt` and session idle expiry cost no Postgres round trip on the
 * request. An id is recorded at most once per `minIntervalMs`; the SQL keeps the same bound across
 * gateways (api-key.repository.ts, session.repository.ts).
 */
export class LastSeenRecorder {
  private readonly pending = new Map<string, Date>();
  private readonly recorded = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly write: (seen: Array<{ id: string; at: Date }>) => Promise<void>,
    private readonly log: Logger,
    private readonly options: { minIntervalMs: number; flushEveryMs: number } = { minIntervalMs: 60_000, flushEveryMs: 10_000 },
  ) {}

  /** The last time this gateway recorded `id` (ms since epoch), if it did. */
  lastRecorded(id: string): number | undefined {
    return this.recorded.get(id);
  }

  seen(id: string, now = Date.now()): void {
    const last = this.recorded.get(id);
    if (last !== undefined && now - last < this.options.minIntervalMs) return;
    this.recorded.set(id, now);
    if (this.recorded.size > 100_000) this.recorded.delete(this.recorded.keys().next().value!);
    this.pending.set(id, new Date(now));
    this.timer ??= setTimeout(() => void this.flush(), this.options.flushEveryMs).unref();
  }

  /** Writes what is pending (also on shutdown). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending].map(([id, at]) => ({ id, at }));
    this.pending.clear();
    if (!batch.length) return this.flushing;
    this.flushing = this.flushing
      .then(() => this.write(batch))
      .catch((err) => this.log.warn({ err, count: batch.length }, `${this.name}: could not record last use`));
    return this.flushing;
  }
}
