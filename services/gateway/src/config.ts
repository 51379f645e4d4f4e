import { resolveSecretsKey, envBoolean, envInt, logEnv, parseEnv, postgresEnv, redisEnv, webhookEnv } from '@crawl/config';

export const gatewayEnv = {
  ...postgresEnv,
  ...redisEnv,
  ...logEnv,
  ...webhookEnv,
  PORT: envInt(8080, 0, 65535),
  RATE_LIMIT_ENABLED: envBoolean(true),
  /** How long a gateway trusts a looked-up API key (revocation delay); 0 disables. */
  AUTH_CACHE_TTL_MS: envInt(5_000, 0, 300_000),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined>) {
  const config = parseEnv(gatewayEnv, env);
  return Object.freeze({ ...config, SECRETS_KEY: resolveSecretsKey(config) });
}
