import {
  CreditRepository,
  createDb,
  IdempotencyRepository,
  JobRepository,
  JobTargetRepository,
  listen,
  ReleaseWindowRepository,
  RetentionRepository,
  SCHEDULES_CHANNEL,
  ScheduleRepository,
} from '@crawl/db';
import { JobService, ReleaseWindow, reconcileQueuedJobs } from '@crawl/jobs';
import { createLogger, ShutdownRegistry, runServiceMain } from '@crawl/observability';
import { QueueProducer } from '@crawl/queue';
import { createRedisConnection } from '@crawl/redis';
import { loadSchedulerConfig, type SchedulerConfig } from './config';
import { RetentionLoop, retentionPolicy } from './retention-loop';
import { ScheduleLoop } from './schedule-loop';

export interface SchedulerHandle {
  close(): Promise<void>;
}

/** Starts the schedule loop, the queued-job reconciler and the retention sweep. */
export async function startScheduler(config: SchedulerConfig, shutdown?: ShutdownRegistry): Promise<SchedulerHandle> {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'scheduler' });
  const registry = shutdown ?? new ShutdownRegistry(log);
  const db = createDb({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  const redis = createRedisConnection(config.REDIS_URL);
  const producer = new QueueProducer(redis, config.QUEUE_PREFIX);
  const jobs = new JobRepository(db);
  const releases = new ReleaseWindow({ db, windows: new ReleaseWindowRepository(db), producer, log, window: config.CRAWL_ORG_WINDOW });
  const jobService = new JobService({ db, jobs, targets: new JobTargetRepository(db), credits: new CreditRepository(db), producer, log });
  const loop = new ScheduleLoop({ db, jobService, schedules: new ScheduleRepository(db) }, log, config.SCHEDULER_MAX_SLEEP_MS);
  const stopListening = listen(
    config.DATABASE_URL,
    SCHEDULES_CHANNEL,
    () => loop.wake(),
    (err) => log.warn({ err }, 'schedule listener error'),
  );
  const idempotency = new IdempotencyRepository(db);
  const reconcile = setInterval(() => {
    reconcileQueuedJobs({ jobs, jobService, log, releases }).catch((err) => log.warn({ err }, 'reconcile failed'));
    // Idempotency records live 24 h; an expired one is also dropped lazily when its key is reused.
    idempotency.deleteExpired().catch((err) => log.warn({ err }, 'idempotency cleanup failed'));
  }, config.RECONCILE_INTERVAL_MS);
  loop.start();
  const retention = new RetentionLoop(new RetentionRepository(db), retentionPolicy(config), config.RETENTION_INTERVAL_MS, log);
  retention.start();

  registry.add('intake', 'schedule loop', async () => {
    clearInterval(reconcile);
    await stopListening();
    await loop.stop();
    await retention.stop();
  });
  registry.add('producers', 'scheduler producer', () => producer.close());
  registry.add('connections', 'scheduler pools', async () => {
    redis.disconnect();
    await db.destroy();
  });
  log.info('scheduler running');
  return { close: () => registry.run('close') };
}

if (require.main === module) runServiceMain('scheduler', loadSchedulerConfig, startScheduler);
