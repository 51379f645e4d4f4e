import { resolveSecretsKey, envInt, logEnv, parseEnv, postgresEnv, webhookEnv } from '@crawl/config';

export const webhooksEnv = {
  ...postgresEnv,
  ...logEnv,
  ...webhookEnv,
  /**
   * Delay before attempt 2; each later delay x10 (80 s, 13 m, 2.2 h, 22 h: the 5 attempts span
   * about a day). Tests shorten it to simulate a long outage quickly.
   */
  WEBHOOK_BACKOFF_BASE_MS: envInt(80_000, 1, 3_600_000),
  /** An endpoint whose every attempt failed for this long is disabled (default 5 days, as Svix). */
  WEBHOOK_DISABLE_AFTER_MS: envInt(5 * 24 * 3_600_000, 1_000),
  /**
   * Attempts in flight per process. One waiting over 0.5 s for its receiver moves aside (up to
   * as many again), so a dead receiver's attempts do not take the fast receivers' slots.
   */
  WEBHOOK_CONCURRENCY: envInt(64, 1, 1_000),
  /**
   * Deliveries in flight to one webhook across all processes: a slow or dead receiver can
   * hold at most this many slots, so it never starves the others.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: envInt(8, 1, 1_000),
  /**
   * An endpoint whose attempts go unanswered (timeout, refused or reset connection) this many
   * times in a row is paused: its due deliveries wait, keeping their attempts, instead of each
   * spending one (and a slot for the whole timeout) on a receiver that is down.
   */
  WEBHOOK_BREAKER_FAILURES: envInt(3, 1, 1_000),
  /**
   * The first pause of an endpoint that stopped answering; each pause that follows without a
   * success doubles it, up to 10 minutes (or this, if longer). One success ends the pauses.
   */
  WEBHOOK_BREAKER_PAUSE_MS: envInt(30_000, 100, 3_600_000),
  /**
   * How often Postgres is asked for due attempts besides the wake-ups (new events, finished
   * attempts, a retry's own timer): covers other processes' retries and expired leases.
   */
  WEBHOOK_RECONCILE_INTERVAL_MS: envInt(1_000, 100),
  /** Export uploads to storage destinations in flight in this process (docs/destinations.md). */
  DESTINATION_CONCURRENCY: envInt(4, 1, 64),
  /** Uploads of one project in flight across all processes: one tenant's backlog leaves the others their slots. */
  DESTINATION_PROJECT_CONCURRENCY: envInt(2, 1, 64),
  /** How long a claimed delivery is held without a heartbeat: a killed process's uploads are redone after it. */
  DESTINATION_LEASE_MS: envInt(60_000, 1_000, 3_600_000),
  /** Delay before a delivery's attempt 2; each later one x4 (30 s, 2 m, 8 m, 32 m). */
  DESTINATION_BACKOFF_BASE_MS: envInt(30_000, 1, 3_600_000),
  /** Attempts before a delivery is `failed`; a retry by hand grants one more. */
  DESTINATION_MAX_ATTEMPTS: envInt(5, 1, 50),
  /** A storage request that has not connected, or whose socket has been silent, this long fails. */
  DESTINATION_TIMEOUT_MS: envInt(30_000, 100, 600_000),
  /** How often Postgres is asked for due deliveries besides the wake-ups of job completions. */
  DESTINATION_POLL_INTERVAL_MS: envInt(1_000, 100, 60_000),
  METRICS_PORT: envInt(0, 0, 65535),
};

export function loadWebhooksConfig(env: Record<string, string | undefined>) {
  const config = parseEnv(webhooksEnv, env);
  return Object.freeze({ ...config, SECRETS_KEY: resolveSecretsKey(config) });
}

export type WebhooksConfig = ReturnType<typeof loadWebhooksConfig>;
