import { setMaxListeners } from 'node:events';
import { createLogger, createMetricsRegistry, ShutdownRegistry, runServiceMain, serveMetrics } from '@crawl/observability';
import { failJobInternally, failTargetInternally } from '@crawl/jobs';
import { runWorker } from '@crawl/queue';
import { loadWorkerConfig, type WorkerConfig } from './config';
import { startAdaptiveConcurrency } from './crawl/adaptive-concurrency';
import { JobLiveness } from './crawl/job-liveness';
import { buildWorkerDeps, closeWorkerDeps, type WorkerDeps } from './deps';
import { fetchTargetHandler } from './handlers/fetch-target.handler';
import { startJobHandler } from './handlers/start-job.handler';
import { exitMetrics, locationMetrics, processGauges, workerMetrics } from './metrics';

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
  const gauges = processGauges(metrics, { active: () => active, exits: deps.exits, parser: deps.parser });
  locationMetrics(metrics, deps.crawler.locations);
  const controller = startAdaptiveConcurrency({
    min: config.CRAWL_CONCURRENCY_MIN,
    max: config.CRAWL_CONCURRENCY,
    memoryBudgetMb: config.CRAWL_MEMORY_BUDGET_MB,
    maxLagMs: 50,
    // about half a second of parsing per thread at 15-30 pages/s: fetch completions are bursty
    parseSlack: 8 * Math.max(1, deps.parser.stats().threads),
    apply: (n) => {
      worker.concurrency = n;
      gauges.concurrency(n);
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
  log.info(
    { concurrency: [config.CRAWL_CONCURRENCY_MIN, config.CRAWL_CONCURRENCY], exits: config.exits.map((e) => e.label) },
    'crawl worker consuming',
  );
  return { deps, metrics: () => metrics.metrics(), close: () => registry.run('close') };
}

if (require.main === module) runServiceMain('worker', loadWorkerConfig, startWorker);
