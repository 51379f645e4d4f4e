import { envBoolean, envInt, logEnv, parseEnv, postgresEnv, redisEnv } from '@crawl/config';

export const gatewayEnv = {
  ...postgresEnv,
  ...redisEnv,
  ...logEnv,
  PORT: envInt(8080, 0, 65535),
  RATE_LIMIT_ENABLED: envBoolean(true),
  /** Postgres runs of `queued` jobs older than this are re-enqueued by the reconciler. */
  RECONCILE_INTERVAL_MS: envInt(5_000, 100),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined>) {
  return parseEnv(gatewayEnv, env);
}
