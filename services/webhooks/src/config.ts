import { resolveSecretsKey, envInt, logEnv, parseEnv, postgresEnv, redisEnv, webhookEnv } from '@crawl/config';

export const webhooksEnv = {
  ...postgresEnv,
  ...redisEnv,
  ...logEnv,
  ...webhookEnv,
  /** Delay before attempt 2; each later delay x4 (30 s, 2 m, 8 m, 32 m). */
  WEBHOOK_BACKOFF_BASE_MS: envInt(30_000, 1, 3_600_000),
  /** A receiver that has not answered in this time counts as failed (spec: 10 s). */
  WEBHOOK_TIMEOUT_MS: envInt(10_000, 100, 60_000),
  /** Deliveries in flight per process. */
  WEBHOOK_CONCURRENCY: envInt(64, 1, 1_000),
  /**
   * Deliveries in flight to one webhook across all processes: a slow or dead receiver can
   * hold at most this many slots, so it never starves the others.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: envInt(8, 1, 1_000),
  /** How often overdue deliveries (tasks lost with Redis data) are re-enqueued. */
  WEBHOOK_RECONCILE_INTERVAL_MS: envInt(5_000, 100),
  METRICS_PORT: envInt(0, 0, 65535),
};

export function loadWebhooksConfig(env: Record<string, string | undefined>) {
  const config = parseEnv(webhooksEnv, env);
  return Object.freeze({ ...config, SECRETS_KEY: resolveSecretsKey(config) });
}

export type WebhooksConfig = ReturnType<typeof loadWebhooksConfig>;
