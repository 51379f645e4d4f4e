import { DEV_SECRETS_KEY } from '@crawl/config';
import { SecretBox } from '@crawl/core';
import { createDb, EVENTS_CHANNEL, listen, WebhookDeliveryRepository } from '@crawl/db';
import { Counter, createLogger, createMetricsRegistry, Histogram, type Registry, ShutdownRegistry, runServiceMain, serveMetrics } from '@crawl/observability';
import { createRedisConnection, LeaseSemaphore, QueueProducer, runWorker } from '@crawl/queue';
import { loadWebhooksConfig, type WebhooksConfig } from './config';
import { Dispatcher, reconcileDeliveries } from './dispatcher';
import { deliverHandler, failDeliveryInternally } from './handlers/deliver.handler';

function deliveryMetrics(registry: Registry) {
  const attempts = new Counter({ name: 'webhook_attempts_total', help: 'Webhook delivery attempts by outcome', labelNames: ['outcome'], registers: [registry] });
  const seconds = new Histogram({ name: 'webhook_attempt_duration_seconds', help: 'Webhook attempt duration', buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10], registers: [registry] });
  return (success: boolean, s: number) => {
    attempts.inc({ outcome: success ? 'success' : 'failure' });
    seconds.observe(s);
  };
}

export interface WebhooksHandle {
  close(): Promise<void>;
}

/** Starts the dispatcher, the delivery consumer and the reconciler. */
export async function startWebhooks(config: WebhooksConfig, shutdown?: ShutdownRegistry): Promise<WebhooksHandle> {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'webhooks' });
  if (config.SECRETS_KEY === DEV_SECRETS_KEY) log.warn('SECRETS_KEY is the development key: set a real one before storing real webhook secrets');
  const registry = shutdown ?? new ShutdownRegistry(log);
  const metrics = createMetricsRegistry('webhooks');
  const db = createDb({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  const redis = createRedisConnection(config.REDIS_URL);
  const producer = new QueueProducer(redis, config.QUEUE_PREFIX);
  const deliveries = new WebhookDeliveryRepository(db);
  const dispatcher = new Dispatcher({ deliveries, producer, log });
  const worker = runWorker(
    'webhook',
    {
      'webhook.deliver': {
        run: deliverHandler({
          deliveries,
          producer,
          endpointSlots: new LeaseSemaphore(redis, `${config.QUEUE_PREFIX}:webhook`, config.WEBHOOK_ENDPOINT_CONCURRENCY, config.WEBHOOK_TIMEOUT_MS + 5_000),
          secrets: SecretBox.fromKey(config.SECRETS_KEY),
          settings: { timeoutMs: config.WEBHOOK_TIMEOUT_MS, backoffBaseMs: config.WEBHOOK_BACKOFF_BASE_MS, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_URLS },
          onAttempt: deliveryMetrics(metrics),
        }),
        onFinalFailure: ({ deliveryId, attempt }) => failDeliveryInternally(deliveries, deliveryId, attempt),
      },
    },
    {
      redisUrl: config.REDIS_URL,
      prefix: config.QUEUE_PREFIX,
      concurrency: config.WEBHOOK_CONCURRENCY,
      lockDurationMs: config.WEBHOOK_TIMEOUT_MS + 5_000,
      log,
    },
  );
  const stopListening = listen(config.DATABASE_URL, EVENTS_CHANNEL, () => void dispatcher.wake(), (err) => log.warn({ err }, 'event listener error'));
  const poll = setInterval(() => void dispatcher.wake(), 1_000);
  const reconcile = setInterval(() => {
    reconcileDeliveries({ deliveries, producer, log }, config.WEBHOOK_RECONCILE_INTERVAL_MS).catch((err) => log.warn({ err }, 'delivery reconcile failed'));
  }, config.WEBHOOK_RECONCILE_INTERVAL_MS);
  const side = config.METRICS_PORT ? serveMetrics(config.METRICS_PORT, metrics) : null;
  void dispatcher.wake();

  registry.add('intake', 'webhook dispatch', async () => {
    clearInterval(poll);
    clearInterval(reconcile);
    await stopListening();
    side?.close();
  });
  registry.add('drain', 'webhook worker', () => worker.close());
  registry.add('producers', 'webhook producer', () => producer.close());
  registry.add('connections', 'webhook pools', async () => {
    redis.disconnect();
    await db.destroy();
  });
  await worker.waitUntilReady();
  log.info('webhooks service delivering');
  return { close: () => registry.run('close') };
}

if (require.main === module) runServiceMain('webhooks', loadWebhooksConfig, startWebhooks);
