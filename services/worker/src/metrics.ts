import { Counter, Gauge, Histogram, type Registry } from '@crawl/observability';
import type { ExitPool, LocationSessions, ParsePool, SetupOutcome } from '@crawl/marketplace';

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

/**
 * The location sessions of jobs with a postal code (docs/crawling.md, "Delivery location"), read
 * from the crawler's sessions on scrape: setups by outcome and pages that showed another place
 * (counters kept by the sessions since start), the sessions held and their estimated heap (what
 * CRAWL_LOCATION_SESSIONS bounds). One stats() walk per scrape serves all four.
 */
export function locationMetrics(registry: Registry, locations: Pick<LocationSessions, 'stats'>): void {
  let last: ReturnType<LocationSessions['stats']> | null = null;
  let at = 0;
  // the four collect() calls of one scrape share one walk over the sessions' jars
  const stats = () => {
    if (!last || Date.now() - at > 1_000) {
      last = locations.stats();
      at = Date.now();
    }
    return last;
  };
  const counted: Record<SetupOutcome, number> = { ok: 0, refused: 0, blocked: 0, upstream_error: 0 };
  new Counter({
    name: 'crawl_location_setups_total',
    help: 'Location session setups (the deliver-to address change) by outcome: ok, refused (not updated), blocked, upstream_error (5xx, no token, interrupted)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const { setups } = stats();
      for (const outcome of Object.keys(counted) as SetupOutcome[]) {
        this.inc({ outcome }, setups[outcome] - counted[outcome]);
        counted[outcome] = setups[outcome];
      }
    },
  });
  let mismatches = 0;
  new Counter({
    name: 'crawl_location_mismatches_total',
    help: 'Pages of a job with a postal code that showed another delivery location (or none) through a set-up session',
    registers: [registry],
    collect() {
      const now = stats().mismatches;
      this.inc(now - mismatches);
      mismatches = now;
    },
  });
  new Gauge({
    name: 'crawl_location_sessions',
    help: 'Location sessions (exit, marketplace, postal code) this process holds',
    registers: [registry],
    collect() {
      this.set(stats().live);
    },
  });
  new Gauge({
    name: 'crawl_location_session_bytes',
    help: 'Estimated heap of the location sessions this process holds (their cookie jars), in bytes',
    registers: [registry],
    collect() {
      this.set(stats().bytes);
    },
  });
}
