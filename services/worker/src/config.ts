import { crawlWindowEnv, envInt, logEnv, marketplaceOriginsFromEnv, parseEnv, postgresEnv, redisEnv } from '@crawl/config';
import { z } from 'zod';

export const workerEnv = {
  ...postgresEnv,
  ...redisEnv,
  ...logEnv,
  /** Crawl tasks one organization has in the queue at once (fairness between organizations). */
  ...crawlWindowEnv,
  /** Targets crawled at once by this process: fetches overlap while one page is parsed. */
  CRAWL_CONCURRENCY: envInt(8, 1, 256),
  /** Requests per second to one marketplace host, shared by every worker process. */
  CRAWL_HOST_RPS: envInt(5, 1, 100_000),
  FETCH_TIMEOUT_MS: envInt(15_000, 100, 120_000),
  /** First retry delay of a blocked or failed target; doubles per attempt, +/-50% jitter. */
  CRAWL_RETRY_BASE_MS: envInt(2_000, 1, 600_000),
  /**
   * A task whose worker stops renewing its lock (crashed) is taken over after this long.
   * Must exceed the longest fetch + parse; lower means faster recovery from crashes.
   */
  CRAWL_LOCK_MS: envInt(15_000, 1_000, 600_000),
  /** Browser-like sessions (cookie jar + user agent + proxy) per process. */
  CRAWL_SESSIONS: envInt(8, 1, 1_000),
  PROXY_URLS: z
    .string()
    .optional()
    .transform((v) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.string().url('PROXY_URLS must be comma-separated http(s) URLs'))),
  /** Side port for /metrics and /healthz; unset = none (several workers can share a host). */
  METRICS_PORT: envInt(0, 0, 65535),
};

export function loadWorkerConfig(env: Record<string, string | undefined>) {
  return Object.freeze({ ...parseEnv(workerEnv, env), origins: marketplaceOriginsFromEnv(env) });
}

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
