import {
  CreditRepository,
  createDb,
  type Db,
  IdempotencyRepository,
  JobRepository,
  ResultRepository,
  TenancyRepository,
  ScheduleRepository,
  TrackingRepository,
  WebhookConfigRepository,
  WebhookDeliveryRepository,
} from '@crawl/db';
import { ScheduleService } from './routes/schedules/schedules.service';
import { TrackingService } from './routes/tracking/tracking.service';
import { AnalyticsService } from './routes/analytics/analytics.service';
import { SecretBox } from '@crawl/core';
import { WebhookService } from './routes/webhooks/webhooks.service';
import { JobService } from '@crawl/jobs';
import type { Logger, Registry } from '@crawl/observability';
import { createRedisConnection, QueueProducer, type Redis } from '@crawl/queue';
import { PrincipalCache } from './middleware/principal-cache';
import { NoopRateLimiter, type RateLimiter, RedisRateLimiter } from './middleware/rate-limiter';

/** Everything the HTTP layer needs, built once in main.ts (or by a test) and passed in. */
export interface GatewayDeps {
  db: Db;
  redis: Redis;
  producer: QueueProducer;
  tenancy: TenancyRepository;
  credits: CreditRepository;
  jobs: JobRepository;
  results: ResultRepository;
  idempotency: IdempotencyRepository;
  jobService: JobService;
  webhookService: WebhookService;
  scheduleService: ScheduleService;
  trackingService: TrackingService;
  analyticsService: AnalyticsService;
  rateLimiter: RateLimiter;
  principalCache: PrincipalCache;
  log: Logger;
  metrics: Registry;
}

export interface BuildDepsOptions {
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string;
  queuePrefix: string;
  rateLimitEnabled: boolean;
  authCacheTtlMs: number;
  secretsKey: string;
  allowPrivateWebhookUrls: boolean;
  log: Logger;
  metrics: Registry;
}

/** Builds every dependency from connection settings; main.ts and tests share it. */
export function buildGatewayDeps(options: BuildDepsOptions): GatewayDeps {
  const db = createDb({ url: options.databaseUrl, poolSize: options.databasePoolSize });
  const redis = createRedisConnection(options.redisUrl);
  const producer = new QueueProducer(redis, options.queuePrefix);
  const jobs = new JobRepository(db);
  const credits = new CreditRepository(db);
  return {
    db,
    redis,
    producer,
    tenancy: new TenancyRepository(db),
    credits,
    jobs,
    results: new ResultRepository(db),
    idempotency: new IdempotencyRepository(db),
    jobService: new JobService({ db, jobs, credits, producer, log: options.log }),
    scheduleService: new ScheduleService(new ScheduleRepository(db)),
    trackingService: new TrackingService({ db, jobs, tracking: new TrackingRepository(db) }),
    analyticsService: new AnalyticsService(db),
    webhookService: new WebhookService({
      configs: new WebhookConfigRepository(db),
      deliveries: new WebhookDeliveryRepository(db),
      secrets: SecretBox.fromKey(options.secretsKey),
      allowPrivateUrls: options.allowPrivateWebhookUrls,
      timeoutMs: 10_000,
    }),
    principalCache: new PrincipalCache(options.authCacheTtlMs),
    rateLimiter: options.rateLimitEnabled ? new RedisRateLimiter(redis, options.queuePrefix) : new NoopRateLimiter(),
    log: options.log,
    metrics: options.metrics,
  };
}

/** Closes pools and connections; the HTTP server must already be closed. */
export async function closeGatewayDeps(deps: GatewayDeps): Promise<void> {
  await deps.producer.close().catch(() => undefined);
  deps.redis.disconnect();
  await deps.db.destroy();
}
