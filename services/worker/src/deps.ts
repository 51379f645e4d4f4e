import {
  CreditRepository,
  createDb,
  type Db,
  EventRepository,
  JobRepository,
  JobTargetRepository,
  ReleaseWindowRepository,
  ResultRepository,
  TrackingRepository,
  AlertStateRepository,
} from '@crawl/db';
import { ReleaseWindow } from '@crawl/jobs';
import { Crawler, type ExitEvents, ExitPool, createParsePool, type ParsePool } from '@crawl/marketplace';
import type { Logger } from '@crawl/observability';
import { QueueProducer } from '@crawl/queue';
import { createRedisConnection, type Redis } from '@crawl/redis';
import type { WorkerConfig } from './config';
import { RedisExitGate } from './crawl/exit-gate';

export interface WorkerDeps {
  db: Db;
  redis: Redis;
  producer: QueueProducer;
  jobs: JobRepository;
  targets: JobTargetRepository;
  results: ResultRepository;
  credits: CreditRepository;
  events: EventRepository;
  tracking: TrackingRepository;
  alerts: AlertStateRepository;
  crawler: Crawler;
  exits: ExitPool;
  parser: ParsePool;
  /** Per-organization release window (CRAWL_ORG_WINDOW): what gets into the queue. */
  releases: ReleaseWindow;
  log: Logger;
}

/** At most one call per ten seconds (a Redis outage would otherwise log every request). */
function everyTenSeconds<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
  let last = 0;
  return (...args) => {
    if (Date.now() - last < 10_000) return;
    last = Date.now();
    fn(...args);
  };
}

export function buildWorkerDeps(config: WorkerConfig, log: Logger, exitEvents: ExitEvents = {}): WorkerDeps {
  const db = createDb({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  const redis = createRedisConnection(config.REDIS_URL);
  const exits = new ExitPool(config.exits, {
    gate: new RedisExitGate(redis, config.QUEUE_PREFIX, config.CRAWL_FLEET_RPS),
    cooldownMs: config.CRAWL_EXIT_COOLDOWN_MS,
    maxCooldownMs: config.CRAWL_EXIT_MAX_COOLDOWN_MS,
    // a booked in-flight slot outlives the longest fetch, then frees itself if never given back
    leaseMs: config.FETCH_TIMEOUT_MS * 2,
    onGateError: everyTenSeconds((err: unknown) => log.warn({ err }, 'exit gate unreachable: sending without shared politeness')),
    ...exitEvents,
  });
  const parser = createParsePool(config.CRAWL_PARSE_THREADS ? { threads: config.CRAWL_PARSE_THREADS } : {});
  const producer = new QueueProducer(redis, config.QUEUE_PREFIX, 2_000, { 'crawl.fetchTarget': config.CRAWL_RETRY_BASE_MS });
  const jobs = new JobRepository(db);
  return {
    db,
    redis,
    producer,
    jobs,
    targets: new JobTargetRepository(db),
    results: new ResultRepository(db),
    credits: new CreditRepository(db),
    events: new EventRepository(db),
    tracking: new TrackingRepository(db),
    alerts: new AlertStateRepository(),
    exits,
    parser,
    crawler: new Crawler({
      origins: config.origins,
      exits,
      parser,
      timeoutMs: config.FETCH_TIMEOUT_MS,
      log,
      locations: {
        limits: {
          max: config.CRAWL_LOCATION_SESSIONS,
          perTenant: Math.min(config.CRAWL_LOCATION_SESSIONS_PER_TENANT || config.CRAWL_LOCATION_SESSIONS, config.CRAWL_LOCATION_SESSIONS),
          idleMs: config.CRAWL_LOCATION_SESSION_IDLE_MS,
        },
        retries: config.CRAWL_LOCATION_RETRIES,
      },
    }),
    releases: new ReleaseWindow({ db, windows: new ReleaseWindowRepository(db), producer, log, window: config.CRAWL_ORG_WINDOW }),
    log,
  };
}

export async function closeWorkerDeps(deps: WorkerDeps): Promise<void> {
  await deps.producer.close().catch(() => undefined);
  deps.exits.destroy();
  await deps.parser.destroy().catch(() => undefined);
  deps.redis.disconnect();
  await deps.db.destroy();
}
