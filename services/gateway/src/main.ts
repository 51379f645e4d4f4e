import { createServer } from 'node:http';
import { DEV_SECRETS_KEY } from '@crawl/config';
import { createLogger, createMetricsRegistry, listenOn, serveMetrics, ShutdownRegistry, runServiceMain } from '@crawl/observability';
import { createApp } from './app';
import { type GatewayConfig, loadGatewayConfig } from './config';
import { buildGatewayDeps, closeGatewayDeps } from './deps';

/** Starts the gateway; returns once it listens. Used by `node dist/main.js` and `pnpm start`. */
export async function startGateway(config: GatewayConfig, shutdown?: ShutdownRegistry) {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'gateway' });
  const registry = shutdown ?? new ShutdownRegistry(log);
  const deps = buildGatewayDeps({
    databaseUrl: config.DATABASE_URL,
    databasePoolSize: config.DATABASE_POOL_SIZE,
    redisUrl: config.REDIS_URL,
    queuePrefix: config.QUEUE_PREFIX,
    rateLimitEnabled: config.RATE_LIMIT_ENABLED,
    authCacheTtlMs: config.AUTH_CACHE_TTL_MS,
    authFailuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    crawlOrgWindow: config.CRAWL_ORG_WINDOW,
    trustProxy: config.TRUST_PROXY,
    secretsKey: config.SECRETS_KEY,
    allowPrivateWebhookUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS,
    webhookRotationGraceMs: config.WEBHOOK_SECRET_ROTATION_GRACE_MS,
    webhookReplayBudgetPerHour: config.WEBHOOK_REPLAY_BUDGET_PER_HOUR,
    exports: {
      poolSize: config.EXPORT_POOL_SIZE,
      maxPerProject: config.EXPORT_MAX_PER_PROJECT,
      maxPerOrganization: config.EXPORT_MAX_PER_ORGANIZATION,
      organizationShare: config.EXPORT_ORGANIZATION_SHARE,
      idleTimeoutMs: config.EXPORT_IDLE_TIMEOUT_MS,
      maxDurationMs: config.EXPORT_MAX_DURATION_MS,
      shutdownGraceMs: config.EXPORT_SHUTDOWN_GRACE_MS,
    },
    accounts: {
      ...config.mail,
      smtpUrl: config.SMTP_URL,
      mailFrom: config.MAIL_FROM,
      signupMode: config.SIGNUP_MODE,
      signupCredits: config.SIGNUP_CREDITS,
      signupsPerMinute: config.SIGNUPS_PER_MINUTE,
      signupCreditGrantsPerDay: config.SIGNUP_CREDIT_GRANTS_PER_DAY,
      sessionIdleMinutes: config.SESSION_IDLE_TIMEOUT_MINUTES,
      sessionMaxAgeHours: config.SESSION_MAX_AGE_HOURS,
    },
    log,
    metrics: createMetricsRegistry('gateway'),
  });
  if (config.SECRETS_KEY === DEV_SECRETS_KEY)
    log.warn('SECRETS_KEY is the development key: set a real one before storing real webhook secrets');
  const server = createServer(createApp(deps));
  // Keep-alive longer than typical load balancers' idle timeout avoids 502s on reused sockets.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;

  registry.add('intake', 'http server', () => {
    return new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  });
  // server.close waits for every open response: exports (which a stalled client could keep
  // open forever) get a grace period, then are cut; their connections then close at once.
  registry.add('intake', 'exports', async () => {
    await deps.exportGate.shutdown();
    server.closeIdleConnections();
  });
  registry.add('connections', 'gateway pools', () => closeGatewayDeps(deps));
  // Metrics on their own port (never the API's): unset, none (`pnpm start` serves every
  // service's metrics together on its METRICS_PORT).
  const side = config.METRICS_PORT ? serveMetrics(config.METRICS_PORT, deps.metrics) : null;
  if (side) registry.add('intake', 'metrics server', () => new Promise<void>((resolve) => side.close(() => resolve())));

  // Jobs accepted before Redis is connected would all wait for the reconciler: give it a moment.
  await Promise.race([
    new Promise((resolve) => (deps.redis.status === 'ready' ? resolve(null) : deps.redis.once('ready', resolve))),
    new Promise((resolve) => setTimeout(resolve, 3_000).unref()),
  ]);
  // A taken port rejects with one line naming PORT (printed by runServiceMain or `pnpm start`).
  await listenOn(server, config.PORT, 'PORT');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  log.info({ port }, 'gateway listening');
  return { server, port, deps };
}

if (require.main === module) runServiceMain('gateway', loadGatewayConfig, startGateway);
