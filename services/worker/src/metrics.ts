import { Counter, Gauge, Histogram, type Registry } from '@crawl/observability';
import type { ExitPool, ParsePool } from '@crawl/marketplace';

/** Requests and rests per exit, counted by the exit pool's events. */
export function exitMetrics(registry: Registry) {
  const requests = new Counter({
    name: 'crawl_exit_requests_total',
    help: 'Requests through each exit (proxy or direct) by outcome: ok, blocked (robot check, 429), error (5xx, timeout), other',
    labelNames: ['exit', 'outcome'],
    registers: [registry],
  });
  const coolingUntil = new Gauge({
    name: 'crawl_exit_cooling_until_seconds',
    help: 'Unix time until which an exit rests after refusals (healthy when below time())',
    labelNames: ['exit'],
    registers: [registry],
  });
  return {
    onRequest: (exit: string, outcome: string) => requests.inc({ exit, outcome }),
    onCooldown: (exit: string, ms: number) => coolingUntil.set({ exit }, (Date.now() + ms) / 1000),
  };
}

/** Crawl attempts (count and duration by outcome) and queue task run times. */
export function workerMetrics(registry: Registry) {
  const crawls = new Counter({
    name: 'crawl_targets_total',
    help: 'Crawl attempts by outcome code',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const crawlSeconds = new Histogram({
    name: 'crawl_target_duration_seconds',
    help: 'Fetch + parse time of one crawl attempt',
    labelNames: ['outcome'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const tasks = new Histogram({
    name: 'queue_task_duration_seconds',
    help: 'Queue task run time by job name and outcome',
    labelNames: ['job', 'outcome'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 30],
    registers: [registry],
  });
  return {
    onCrawled: (outcome: string, seconds: number) => {
      crawls.inc({ outcome });
      crawlSeconds.observe({ outcome }, seconds);
    },
    onOutcome: (job: string, outcome: string, seconds: number) => tasks.observe({ job, outcome }, seconds),
  };
}

/** What the process gauges read when Prometheus scrapes. */
export interface GaugeSources {
  /** Crawl tasks running in this process. */
  active: () => number;
  exits: Pick<ExitPool, 'waiting'>;
  parser: Pick<ParsePool, 'stats'>;
}

/**
 * The worker's process gauges: read at scrape time from the live process (tasks in flight,
 * fetches waiting for an exit, the parse pool), except the adaptive concurrency, which the
 * controller sets through `concurrency`.
 */
export function processGauges(registry: Registry, sources: GaugeSources): { concurrency: (n: number) => void } {
  const limit = new Gauge({
    name: 'crawl_concurrency',
    help: 'Crawl tasks this process may run at once (adaptive)',
    registers: [registry],
  });
  new Gauge({
    name: 'crawl_in_flight',
    help: 'Crawl tasks running in this process',
    registers: [registry],
    collect() {
      this.set(sources.active());
    },
  });
  new Gauge({
    name: 'crawl_exit_waiting',
    help: 'Fetches waiting for an exit that may send now',
    registers: [registry],
    collect() {
      this.set(sources.exits.waiting);
    },
  });
  new Gauge({
    name: 'crawl_parse_queue',
    help: 'Pages waiting for a parser thread',
    registers: [registry],
    collect() {
      this.set(sources.parser.stats().queued);
    },
  });
  new Gauge({
    name: 'crawl_parse_waiting',
    help: 'Fetched pages held back because the parse queue is full (the process is bound by parsing)',
    registers: [registry],
    collect() {
      this.set(sources.parser.stats().waiting);
    },
  });
  new Gauge({
    name: 'crawl_parse_utilization',
    help: 'Share of the parser threads time spent parsing since the process started (0..1)',
    registers: [registry],
    collect() {
      this.set(sources.parser.stats().utilization);
    },
  });
  return { concurrency: (n) => limit.set(n) };
}
