import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Fetch concurrency that follows the load. A crawl task mostly waits (for an exit's turn, for
 * the marketplace), so a process can hold hundreds; what bounds it is memory (a page is held
 * from its response to its parse) and the event loop (every response is decoded on it). Each
 * tick grows the limit by a quarter while the process is saturated and tasks wait in the queue,
 * and cuts it by a quarter when the event loop lags or memory passes its budget. When fetched
 * pages pile up in front of the parser threads the process is bound by parsing: more fetches
 * would only hold more pages in memory, so the limit holds, and eases off by a tenth while the
 * pile is deeper than the parsers need to never wait for a page.
 */
export interface LoadSample {
  concurrency: number;
  /** Tasks running in this process. */
  active: number;
  /** Tasks waiting in the queue (every process's backlog). */
  backlog: number;
  lagP99Ms: number;
  rssMb: number;
  /** Fetched pages waiting for room in the parse queue. */
  parseWaiting: number;
}

export interface ConcurrencyBounds {
  min: number;
  max: number;
  memoryBudgetMb: number;
  /** Event-loop lag (p99 over a tick) above which the limit shrinks. */
  maxLagMs: number;
  /** Fetched pages that may wait for the parsers before the limit eases off (enough to cover gaps between arrivals). */
  parseSlack: number;
}

export function nextConcurrency(s: LoadSample, b: ConcurrencyBounds): number {
  if (s.rssMb > b.memoryBudgetMb || s.lagP99Ms > b.maxLagMs) return Math.max(b.min, Math.floor(s.concurrency * 0.75));
  if (s.parseWaiting > b.parseSlack) return Math.max(b.min, Math.floor(s.concurrency * 0.9));
  if (s.parseWaiting > 0) return Math.min(b.max, Math.max(b.min, s.concurrency));
  if (s.backlog > 0 && s.active >= s.concurrency * 0.9)
    return Math.min(b.max, s.concurrency + Math.max(4, Math.ceil(s.concurrency * 0.25)));
  return Math.min(b.max, Math.max(b.min, s.concurrency));
}

export interface AdaptiveConcurrencyOptions extends ConcurrencyBounds {
  /** Applies a new limit (BullMQ's `worker.concurrency`). */
  apply(concurrency: number): void;
  active(): number;
  backlog(): Promise<number>;
  parseWaiting(): number;
  tickMs?: number;
  onTick?(sample: LoadSample, next: number): void;
}

/** Runs the controller every `tickMs` (1 s); `stop()` ends it. */
export function startAdaptiveConcurrency(options: AdaptiveConcurrencyOptions): { stop(): void; current(): number } {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let concurrency = options.min;
  options.apply(concurrency);
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void options
      .backlog()
      .catch(() => 0)
      .then((backlog) => {
        const sample: LoadSample = {
          concurrency,
          active: options.active(),
          backlog,
          lagP99Ms: lag.percentile(99) / 1e6,
          rssMb: process.memoryUsage.rss() / 1048576,
          parseWaiting: options.parseWaiting(),
        };
        lag.reset();
        const next = nextConcurrency(sample, options);
        options.onTick?.(sample, next);
        if (next !== concurrency) {
          concurrency = next;
          options.apply(next);
        }
      })
      .finally(() => {
        busy = false;
      });
  }, options.tickMs ?? 1_000);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      lag.disable();
    },
    current: () => concurrency,
  };
}
