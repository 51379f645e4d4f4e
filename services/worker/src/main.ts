import { setMaxListeners } from 'node:events';
import { Counter, createLogger, Gauge, createMetricsRegistry, Histogram, type Registry, ShutdownRegistry, runServiceMain, serveMetrics } from '@crawl/observability';
import { failJobInternally, failTargetInternally } from '@crawl/jobs';
import { runWorker } from '@crawl/queue';
import { loadWorkerConfig, type WorkerConfig } from './config';
import { startAdaptiveConcurrency } from './crawl/adaptive-concurrency';
import { JobLiveness } from './crawl/job-liveness';
import { buildWorkerDeps, closeWorkerDeps, type WorkerDeps } from './deps';
import { fetchTargetHandler } from './handlers/fetch-target.handler';
import { startJobHandler } from './handlers/start-job.handler';

function exitMetrics(registry: Registry) {
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

function workerMetrics(registry: Registry) {
  const crawls = new Counter({ name: 'crawl_targets_total', help: 'Crawl attempts by outcome code', labelNames: ['outcome'], registers: [registry] });
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

export interface WorkerHandle {
  deps: WorkerDeps;
  /** The Prometheus text of this worker's registry (what /metrics serves). */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

export async function startWorker(config: WorkerConfig, shutdown?: ShutdownRegistry): Promise<WorkerHandle> {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'worker' });
  const registry = shutdown ?? new ShutdownRegistry(log);
  const metrics = createMetricsRegistry('worker');
  const observe = workerMetrics(metrics);
  const deps = buildWorkerDeps(config, log, exitMetrics(metrics));
  let active = 0;
  // Aborted when the shutdown grace is over: fetches still in flight are given up and handed back.
  const graceOver = new AbortController();
  setMaxListeners(0, graceOver.signal); // one listener per crawl in flight, by design
  const liveness = new JobLiveness((jobId) => deps.jobs.isRunning(jobId));
  const fetchTarget = fetchTargetHandler({ ...deps, onCrawled: observe.onCrawled, liveness, fetchDeadline: graceOver.signal });
  const worker = runWorker(
    'crawl',
    {
      'crawl.startJob': { run: startJobHandler(deps), onFinalFailure: ({ jobId }) => failJobInternally(deps, jobId) },
      'crawl.fetchTarget': {
        run: async (payload, ctx) => {
          active += 1;
          try {
            return await fetchTarget(payload, ctx);
          } finally {
            active -= 1;
          }
        },
        onFinalFailure: ({ jobId, idx }, _err, ctx) => failTargetInternally(deps, jobId, idx, ctx.attempt),
      },
    },
    {
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.CRAWL_CONCURRENCY_MIN,
      lockDurationMs: config.CRAWL_LOCK_MS,
      stalledIntervalMs: Math.max(500, Math.floor(config.CRAWL_LOCK_MS / 3)),
      log,
      onOutcome: observe.onOutcome,
    },
  );
  const limit = new Gauge({ name: 'crawl_concurrency', help: 'Crawl tasks this process may run at once (adaptive)', registers: [metrics] });
  new Gauge({
    name: 'crawl_in_flight',
    help: 'Crawl tasks running in this process',
    registers: [metrics],
    collect() {
      this.set(active);
    },
  });
  new Gauge({
    name: 'crawl_exit_waiting',
    help: 'Fetches waiting for an exit that may send now',
    registers: [metrics],
    collect() {
      this.set(deps.exits.waiting);
    },
  });
  new Gauge({
    name: 'crawl_parse_queue',
    help: 'Pages waiting for a parser thread',
    registers: [metrics],
    collect() {
      this.set(deps.parser.stats().queued);
    },
  });
  new Gauge({
    name: 'crawl_parse_waiting',
    help: 'Fetched pages held back because the parse queue is full (the process is bound by parsing)',
    registers: [metrics],
    collect() {
      this.set(deps.parser.stats().waiting);
    },
  });
  new Gauge({
    name: 'crawl_parse_utilization',
    help: 'Share of the parser threads time spent parsing since the process started (0..1)',
    registers: [metrics],
    collect() {
      this.set(deps.parser.stats().utilization);
    },
  });
  const controller = startAdaptiveConcurrency({
    min: config.CRAWL_CONCURRENCY_MIN,
    max: config.CRAWL_CONCURRENCY,
    memoryBudgetMb: config.CRAWL_MEMORY_BUDGET_MB,
    maxLagMs: 50,
    // about half a second of parsing per thread at 15-30 pages/s: fetch completions are bursty
    parseSlack: 8 * Math.max(1, deps.parser.stats().threads),
    apply: (n) => {
      worker.concurrency = n;
      limit.set(n);
    },
    active: () => active,
    backlog: () => deps.producer.backlog('crawl'),
    parseWaiting: () => deps.parser.stats().waiting,
  });
  const side = config.METRICS_PORT ? serveMetrics(config.METRICS_PORT, metrics) : null;
  registry.add('intake', 'concurrency controller', () => controller.stop());
  registry.requireDeadline(config.SHUTDOWN_GRACE_MS + 10_000);
  registry.add('intake', 'crawl worker', async () => {
    // No new tasks; tasks waiting for an exit go back to the queue at once (another worker takes
    // them without waiting for a lock to expire); fetches in flight get SHUTDOWN_GRACE_MS to
    // finish, then their tasks are handed back too.
    const closed = worker.close();
    deps.exits.withdraw();
    log.info({ inFlight: active, graceMs: config.SHUTDOWN_GRACE_MS }, 'crawl worker stopping: waiting tasks handed back');
    const timer = setTimeout(() => graceOver.abort(), config.SHUTDOWN_GRACE_MS);
    try {
      await closed;
    } finally {
      clearTimeout(timer);
    }
  });
  registry.add('intake', 'metrics server', () => side && new Promise((r) => side.close(r)));
  registry.add('connections', 'worker pools', () => closeWorkerDeps(deps));
  await worker.waitUntilReady();
  log.info({ concurrency: [config.CRAWL_CONCURRENCY_MIN, config.CRAWL_CONCURRENCY], exits: config.exits.map((e) => e.label) }, 'crawl worker consuming');
  return { deps, metrics: () => metrics.metrics(), close: () => registry.run('close') };
}

if (require.main === module) runServiceMain('worker', loadWorkerConfig, startWorker);
