import {
  AnalyticsRepository,
  CreditRepository,
  createDb,
  type Db,
  poolStats,
  IdempotencyRepository,
  JobRepository,
  JobTargetRepository,
  ReleaseWindowRepository,
  ResultRepository,
  RetentionRepository,
  TenancyRepository,
  ScheduleRepository,
  TrackingRepository,
  WebhookConfigRepository,
  WebhookDeliveryRepository,
  WebhookLogRepository,
} from '@crawl/db';
import { ScheduleService } from './routes/schedules/schedules.service';
import { TrackingService } from './routes/tracking/tracking.service';
import { AnalyticsService } from './routes/analytics/analytics.service';
import { JobResultsService } from './routes/jobs/job-results.service';
import { UsageService } from './routes/usage/usage.service';
import { DEFAULT_WEBHOOK_REPLAY_BUDGET_PER_HOUR, SecretBox } from '@crawl/core';
import { WebhookService } from './routes/webhooks/webhooks.service';
import { WebhookDeliveryService } from './routes/webhooks/deliveries.service';
import { DEFAULT_CRAWL_ORG_WINDOW } from '@crawl/config';
import { JobService, ReleaseWindow } from '@crawl/jobs';
import type { Logger, Registry } from '@crawl/observability';
import { QueueProducer } from '@crawl/queue';
import { createRedisConnection, LeaseSemaphore, type Redis } from '@crawl/redis';
import {
  apiKeyFailureLimiter,
  type AuthFailureLimiter,
  DEFAULT_AUTH_FAILURES_PER_MINUTE,
  type TrustProxy,
} from './middleware/auth-failures';
import { PrincipalCache } from './middleware/principal-cache';
import { NoopRateLimiter, type RateLimiter, RedisRateLimiter } from './middleware/rate-limiter';
import { DEFAULT_EXPORT_LIMITS, EXPORT_LEASE_SLACK_MS, ExportGate, type ExportLimits } from './routes/jobs/export-gate';

const DEFAULT_ROTATION_GRACE_MS = 24 * 3_600_000;

/** Everything the HTTP layer needs, built once in main.ts (or by a test) and passed in. */
export interface GatewayDeps {
  db: Db;
  /** Exports' own pool: a download holds a connection for minutes, API queries never wait on it. */
  exportDb: Db;
  exportGate: ExportGate;
  redis: Redis;
  producer: QueueProducer;
  tenancy: TenancyRepository;
  credits: CreditRepository;
  jobs: JobRepository;
  results: ResultRepository;
  idempotency: IdempotencyRepository;
  /** Creating, estimating, retrying and cancelling jobs (packages/jobs); the jobs routes reach it through their JobsService. */
  jobService: JobService;
  webhookService: WebhookService;
  /** The delivery log, resend and replay. */
  webhookDeliveries: WebhookDeliveryService;
  scheduleService: ScheduleService;
  trackingService: TrackingService;
  analyticsService: AnalyticsService;
  usageService: UsageService;
  /** DELETE /jobs/{id}: results removal. */
  jobResults: JobResultsService;
  rateLimiter: RateLimiter;
  authFailures: AuthFailureLimiter;
  /** Express's `trust proxy`: which hops' X-Forwarded-For gives the client address (TRUST_PROXY). */
  trustProxy: TrustProxy;
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
  /** Failed authentications per client address per minute before 429; 0 disables (default 30). */
  authFailuresPerMinute?: number;
  /** CRAWL_ORG_WINDOW: a cancel refills the organization's window at once (default 128). */
  crawlOrgWindow?: number;
  trustProxy?: TrustProxy;
  secretsKey: string;
  allowPrivateWebhookUrls: boolean;
  /** WEBHOOK_SECRET_ROTATION_GRACE_MS (default 24 h). */
  webhookRotationGraceMs?: number;
  /** Deliveries replays may re-arm per project per hour (WEBHOOK_REPLAY_BUDGET_PER_HOUR). */
  webhookReplayBudgetPerHour?: number;
  /** Export limits; unset fields take DEFAULT_EXPORT_LIMITS. */
  exports?: Partial<ExportLimits>;
  log: Logger;
  metrics: Registry;
}

/** Builds every dependency from connection settings; main.ts and tests share it. */
export function buildGatewayDeps(options: BuildDepsOptions): GatewayDeps {
  const db = createDb({ url: options.databaseUrl, poolSize: options.databasePoolSize });
  const redis = createRedisConnection(options.redisUrl);
  const exportLimits = { ...DEFAULT_EXPORT_LIMITS, ...options.exports };
  const exportDb = createDb({ url: options.databaseUrl, poolSize: exportLimits.poolSize, applicationName: 'gateway-export' });
  const leaseMs = exportLimits.maxDurationMs + EXPORT_LEASE_SLACK_MS;
  const exportSlots = {
    project: new LeaseSemaphore(redis, `${options.queuePrefix}:export`, exportLimits.maxPerProject, leaseMs),
    organization: new LeaseSemaphore(redis, `${options.queuePrefix}:export-org`, exportLimits.maxPerOrganization, leaseMs),
  };
  const producer = new QueueProducer(redis, options.queuePrefix);
  const jobs = new JobRepository(db);
  const credits = new CreditRepository(db);
  return {
    db,
    exportDb,
    exportGate: new ExportGate(exportSlots, exportLimits, options.log, { registry: options.metrics, poolStats: () => poolStats(exportDb) }),
    redis,
    producer,
    tenancy: new TenancyRepository(db),
    credits,
    jobs,
    results: new ResultRepository(db, exportDb),
    idempotency: new IdempotencyRepository(db),
    jobService: new JobService({
      db,
      jobs,
      targets: new JobTargetRepository(db),
      credits,
      producer,
      log: options.log,
      releases: new ReleaseWindow({
        db,
        windows: new ReleaseWindowRepository(db),
        producer,
        log: options.log,
        window: options.crawlOrgWindow ?? DEFAULT_CRAWL_ORG_WINDOW,
      }),
    }),
    scheduleService: new ScheduleService(new ScheduleRepository(db)),
    trackingService: new TrackingService({ jobs, tracking: new TrackingRepository(db) }),
    analyticsService: new AnalyticsService(new AnalyticsRepository(db)),
    usageService: new UsageService(credits),
    jobResults: new JobResultsService({ jobs, retention: new RetentionRepository(db), batchSize: 5_000, inlineBudgetMs: 2_000 }),
    webhookService: new WebhookService({
      configs: new WebhookConfigRepository(db),
      deliveries: new WebhookDeliveryRepository(db),
      secrets: SecretBox.fromKey(options.secretsKey),
      allowPrivateUrls: options.allowPrivateWebhookUrls,
      timeoutMs: 10_000,
      rotationGraceMs: options.webhookRotationGraceMs ?? DEFAULT_ROTATION_GRACE_MS,
    }),
    webhookDeliveries: new WebhookDeliveryService(new WebhookLogRepository(db), {
      replayBudgetPerHour: options.webhookReplayBudgetPerHour ?? DEFAULT_WEBHOOK_REPLAY_BUDGET_PER_HOUR,
    }),
    principalCache: new PrincipalCache(options.authCacheTtlMs),
    authFailures: apiKeyFailureLimiter(redis, options.queuePrefix, options.authFailuresPerMinute ?? DEFAULT_AUTH_FAILURES_PER_MINUTE),
    trustProxy: options.trustProxy ?? false,
    rateLimiter: options.rateLimitEnabled ? new RedisRateLimiter(redis, options.queuePrefix) : new NoopRateLimiter(),
    log: options.log,
    metrics: options.metrics,
  };
}

/** Closes pools and connections; the HTTP server must already be closed. */
export async function closeGatewayDeps(deps: GatewayDeps): Promise<void> {
  // Ends exports still running (a test closing without a server shutdown): a pool only
  // finishes closing once every checked-out connection is back.
  await deps.exportGate.shutdown();
  await deps.producer.close().catch(() => undefined);
  deps.redis.disconnect();
  await Promise.all([deps.db.destroy(), deps.exportDb.destroy()]);
}
