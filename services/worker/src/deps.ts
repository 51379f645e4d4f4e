import { CreditRepository, createDb, type Db, EventRepository, JobRepository, ResultRepository, TrackingRepository } from '@crawl/db';
import { ReleaseWindow } from '@crawl/jobs';
import { Crawler, SessionPool } from '@crawl/marketplace';
import type { Logger } from '@crawl/observability';
import { createRedisConnection, QueueProducer, type Redis } from '@crawl/queue';
import type { WorkerConfig } from './config';
import { RedisHostThrottle } from './crawl/host-throttle';

export interface WorkerDeps {
  db: Db;
  redis: Redis;
  producer: QueueProducer;
  jobs: JobRepository;
  results: ResultRepository;
  credits: CreditRepository;
  events: EventRepository;
  tracking: TrackingRepository;
  crawler: Crawler;
  sessions: SessionPool;
  /** Per-organization release window (CRAWL_ORG_WINDOW): what gets into the queue. */
  releases: ReleaseWindow;
  log: Logger;
}

export function buildWorkerDeps(config: WorkerConfig, log: Logger): WorkerDeps {
  const db = createDb({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  const redis = createRedisConnection(config.REDIS_URL);
  const sessions = new SessionPool(config.CRAWL_SESSIONS, config.PROXY_URLS);
  const producer = new QueueProducer(redis, config.QUEUE_PREFIX, 2_000, { 'crawl.fetchTarget': config.CRAWL_RETRY_BASE_MS });
  const jobs = new JobRepository(db);
  return {
    db,
    redis,
    producer,
    jobs,
    results: new ResultRepository(db),
    credits: new CreditRepository(db),
    events: new EventRepository(db),
    tracking: new TrackingRepository(db),
    sessions,
    crawler: new Crawler({
      origins: config.origins,
      sessions,
      throttle: new RedisHostThrottle(redis, config.QUEUE_PREFIX, config.CRAWL_HOST_RPS),
      timeoutMs: config.FETCH_TIMEOUT_MS,
      log,
    }),
    releases: new ReleaseWindow({ db, jobs, producer, log, window: config.CRAWL_ORG_WINDOW }),
    log,
  };
}

export async function closeWorkerDeps(deps: WorkerDeps): Promise<void> {
  await deps.producer.close().catch(() => undefined);
  deps.sessions.destroy();
  deps.redis.disconnect();
  await deps.db.destroy();
}
