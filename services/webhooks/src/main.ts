import { DEV_SECRETS_KEY } from '@crawl/config';
import { SecretBox } from '@crawl/core';
import {
  createDb,
  DestinationDeliveryQueue,
  EVENTS_CHANNEL,
  JobRepository,
  listen,
  ResultRepository,
  WebhookDeliveryRepository,
} from '@crawl/db';
import {
  Counter,
  createLogger,
  createMetricsRegistry,
  Histogram,
  type Registry,
  ShutdownRegistry,
  runServiceMain,
  serveMetrics,
} from '@crawl/observability';
import { closeDeliveryAgents } from '@crawl/webhook-delivery';
import { loadWebhooksConfig, type WebhooksConfig } from './config';
import { DeliveryLoop } from './delivery/delivery-loop';
import { Dispatcher } from './dispatcher';
import { ExportDeliverer } from './storage/export-deliverer';

function deliveryMetrics(registry: Registry) {
  const attempts = new Counter({
    name: 'webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'Webhook attempt duration',
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return (success: boolean, s: number) => {
    attempts.inc({ outcome: success ? 'success' : 'failure' });
    seconds.observe(s);
  };
}

function exportMetrics(registry: Registry) {
  const outcomes = new Counter({
    name: 'destination_deliveries_total',
    help: 'Export deliveries to storage destinations by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const bytes = new Counter({ name: 'destination_delivered_bytes_total', help: 'Bytes of exports delivered', registers: [registry] });
  return (outcome: string, size: number) => {
    outcomes.inc({ outcome });
    bytes.inc(size);
  };
}

export interface WebhooksHandle {
  /** The Prometheus text of this service's registry (what /metrics serves). */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the dispatcher (outbox -> deliveries) and the deliverer. Both work from Postgres alone:
 * the service needs no queue, and a lost process loses no delivery (its leases expire).
 */
export async function startWebhooks(config: WebhooksConfig, shutdown?: ShutdownRegistry): Promise<WebhooksHandle> {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'webhooks' });
  if (config.SECRETS_KEY === DEV_SECRETS_KEY)
    log.warn('SECRETS_KEY is the development key: set a real one before storing real webhook secrets');
  const registry = shutdown ?? new ShutdownRegistry(log);
  const metrics = createMetricsRegistry('webhooks');
  const db = createDb({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  const deliveries = new WebhookDeliveryRepository(db);
  const deliverer = new DeliveryLoop({
    deliveries,
    secrets: SecretBox.fromKey(config.SECRETS_KEY),
    log,
    settings: {
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      backoffBaseMs: config.WEBHOOK_BACKOFF_BASE_MS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
      concurrency: config.WEBHOOK_CONCURRENCY,
      endpointConcurrency: config.WEBHOOK_ENDPOINT_CONCURRENCY,
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
      breaker: {
        failures: config.WEBHOOK_BREAKER_FAILURES,
        pauseMs: config.WEBHOOK_BREAKER_PAUSE_MS,
        maxPauseMs: Math.max(config.WEBHOOK_BREAKER_PAUSE_MS, 600_000),
      },
    },
    onAttempt: deliveryMetrics(metrics),
  });
  // an upload holds a result cursor for its whole length: streams get a pool of their own
  const streamDb = createDb({ url: config.DATABASE_URL, poolSize: config.DESTINATION_CONCURRENCY });
  const exports = new ExportDeliverer({
    queue: new DestinationDeliveryQueue(db),
    jobs: new JobRepository(db),
    results: new ResultRepository(db, streamDb),
    secrets: SecretBox.fromKey(config.SECRETS_KEY),
    log,
    settings: {
      concurrency: config.DESTINATION_CONCURRENCY,
      perProject: config.DESTINATION_PROJECT_CONCURRENCY,
      leaseMs: config.DESTINATION_LEASE_MS,
      backoffBaseMs: config.DESTINATION_BACKOFF_BASE_MS,
      maxAttempts: config.DESTINATION_MAX_ATTEMPTS,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS,
      timeoutMs: config.DESTINATION_TIMEOUT_MS,
    },
    onOutcome: exportMetrics(metrics),
  });
  const dispatcher = new Dispatcher({ deliveries, log, onDeliveries: () => deliverer.wake() });
  const stopListening = listen(
    config.DATABASE_URL,
    EVENTS_CHANNEL,
    () => {
      void dispatcher.wake();
      exports.wake();
    },
    (err) => log.warn({ err }, 'event listener error'),
  );
  const poll = setInterval(() => void dispatcher.wake(), 1_000);
  // Retries scheduled by other processes, resends from the API and expired leases.
  const reconcile = setInterval(() => deliverer.wake(), config.WEBHOOK_RECONCILE_INTERVAL_MS);
  const exportPoll = setInterval(() => exports.wake(), config.DESTINATION_POLL_INTERVAL_MS);
  const side = config.METRICS_PORT ? serveMetrics(config.METRICS_PORT, metrics) : null;
  void dispatcher.wake();
  deliverer.wake();
  exports.wake();

  registry.add('intake', 'webhook dispatch', async () => {
    clearInterval(poll);
    clearInterval(reconcile);
    clearInterval(exportPoll);
    await stopListening();
    side?.close();
  });
  registry.add('drain', 'webhook deliverer', () => deliverer.close());
  registry.add('drain', 'export deliverer', () => exports.close());
  registry.add('connections', 'webhook pools', async () => {
    closeDeliveryAgents();
    await streamDb.destroy();
    await db.destroy();
  });
  log.info('webhooks service delivering');
  return { metrics: () => metrics.metrics(), close: () => registry.run('close') };
}

if (require.main === module) runServiceMain('webhooks', loadWebhooksConfig, startWebhooks);
