import { Counter, createLogger, createMetricsRegistry, Histogram, type Registry, ShutdownRegistry, runServiceMain, serveMetrics } from '@crawl/observability';
import { failJobInternally, failTargetInternally } from '@crawl/jobs';
import { runWorker } from '@crawl/queue';
import { loadWorkerConfig, type WorkerConfig } from './config';
import { buildWorkerDeps, closeWorkerDeps, type WorkerDeps } from './deps';
import { fetchTargetHandler } from './handlers/fetch-target.handler';
import { startJobHandler } from './handlers/start-job.handler';

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
  close(): Promise<void>;
}

export async function startWorker(config: WorkerConfig, shutdown?: ShutdownRegistry): Promise<WorkerHandle> {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'worker' });
  const registry = shutdown ?? new ShutdownRegistry(log);
  const metrics = createMetricsRegistry('worker');
  const observe = workerMetrics(metrics);
  const deps = buildWorkerDeps(config, log);
  const worker = runWorker(
    'crawl',
    {
      'crawl.startJob': { run: startJobHandler(deps), onFinalFailure: ({ jobId }) => failJobInternally(deps, jobId) },
      'crawl.fetchTarget': {
        run: fetchTargetHandler({ ...deps, onCrawled: observe.onCrawled }),
        onFinalFailure: ({ jobId, idx }, _err, ctx) => failTargetInternally(deps, jobId, idx, ctx.attempt),
      },
    },
    {
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.CRAWL_CONCURRENCY,
      lockDurationMs: config.CRAWL_LOCK_MS,
      stalledIntervalMs: Math.max(500, Math.floor(config.CRAWL_LOCK_MS / 3)),
      log,
      onOutcome: observe.onOutcome,
    },
  );
  const side = config.METRICS_PORT ? serveMetrics(config.METRICS_PORT, metrics) : null;
  registry.add('intake', 'crawl worker', () => worker.close());
  registry.add('intake', 'metrics server', () => side && new Promise((r) => side.close(r)));
  registry.add('connections', 'worker pools', () => closeWorkerDeps(deps));
  await worker.waitUntilReady();
  log.info({ concurrency: config.CRAWL_CONCURRENCY }, 'crawl worker consuming');
  return { deps, close: () => registry.run('close') };
}

if (require.main === module) runServiceMain('worker', loadWorkerConfig, startWorker);
