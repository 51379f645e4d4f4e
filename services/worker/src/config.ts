import {
  ConfigError,
  crawlWindowEnv,
  envInt,
  envNumber,
  logEnv,
  marketplaceOriginsFromEnv,
  parseEnv,
  postgresEnv,
  redisEnv,
} from '@crawl/config';
import { type ExitSpec, exitsFrom } from '@crawl/marketplace';
import { z } from 'zod';

export const workerEnv = {
  ...postgresEnv,
  ...redisEnv,
  ...logEnv,
  /** Crawl tasks one organization has in the queue at once (fairness between organizations). */
  ...crawlWindowEnv,
  /**
   * Most targets in flight in this process (fetching, or waiting for an exit). The process adapts
   * between CRAWL_CONCURRENCY_MIN and this on its backlog, event-loop lag and memory.
   */
  CRAWL_CONCURRENCY: envInt(256, 1, 2_000),
  CRAWL_CONCURRENCY_MIN: envInt(16, 1, 2_000),
  /** Resident memory the concurrency controller keeps the process under (MB). */
  CRAWL_MEMORY_BUDGET_MB: envInt(400, 64, 64_000),
  /**
   * Requests per second to one marketplace host through one exit (a proxy, or this machine),
   * shared by every worker process. 0.8: under the ~1 request/s per address at which marketplaces
   * start serving robot checks, with room for network jitter (two requests 1.25 s apart at the
   * sender never arrive within one second). A proxy URL may set its own with `#rps=`.
   */
  CRAWL_EXIT_RPS: envNumber(0.8, 0.001, 100_000),
  /** Optional ceiling per marketplace host over every exit and worker (requests/s); 0 = off. */
  CRAWL_FLEET_RPS: envNumber(0, 0, 100_000),
  /** First rest of an exit after a robot check or 429; doubles per consecutive refusal. */
  CRAWL_EXIT_COOLDOWN_MS: envInt(60_000, 1, 3_600_000),
  CRAWL_EXIT_MAX_COOLDOWN_MS: envInt(900_000, 1, 86_400_000),
  /**
   * Location sessions of jobs with a postal code (docs/crawling.md, "Delivery location"): at most
   * this many in the process (a cookie jar each, a few KB), optionally at most this many per
   * tenant (0: no cap of its own; a full process takes from the biggest holder), dropped after
   * this long unused.
   */
  CRAWL_LOCATION_SESSIONS: envInt(256, 1, 100_000),
  CRAWL_LOCATION_SESSIONS_PER_TENANT: envInt(0, 0, 100_000),
  CRAWL_LOCATION_SESSION_IDLE_MS: envInt(600_000, 1_000, 86_400_000),
  /** Fresh sessions a target whose page shows another location gets before LOCATION_MISMATCH. */
  CRAWL_LOCATION_RETRIES: envInt(1, 0, 5),
  /** Parser threads; default: the cores this process may use. */
  CRAWL_PARSE_THREADS: envInt(0, 0, 256),
  FETCH_TIMEOUT_MS: envInt(15_000, 100, 120_000),
  /** First retry delay of a blocked or failed target; doubles per attempt, +/-50% jitter. */
  CRAWL_RETRY_BASE_MS: envInt(2_000, 1, 600_000),
  /**
   * A task whose worker stops renewing its lock (crashed) is taken over after this long.
   * Must exceed the longest fetch + parse; lower means faster recovery from crashes.
   */
  CRAWL_LOCK_MS: envInt(15_000, 1_000, 600_000),
  /** Proxies, each an exit (comma-separated http(s) URLs; `#rps=N&inflight=N` sets its own limits). */
  PROXY_URLS: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().url('PROXY_URLS must be comma-separated http(s) URLs'))),
  /**
   * On SIGTERM/SIGINT: how long fetches already in flight may take to finish before their tasks
   * are handed back to the queue. Tasks still waiting for an exit are handed back at once. Keep
   * an orchestrator's termination grace above this (infra/ sets 20 s for 10 s).
   */
  SHUTDOWN_GRACE_MS: envInt(10_000, 0, 600_000),
  /** Side port for /metrics and /healthz; unset = none (several workers can share a host). */
  METRICS_PORT: envInt(0, 0, 65535),
};

export function loadWorkerConfig(env: Record<string, string | undefined>) {
  const parsed = parseEnv(workerEnv, env);
  let exits: ExitSpec[];
  try {
    exits = exitsFrom(parsed.PROXY_URLS, { rps: parsed.CRAWL_EXIT_RPS });
  } catch (err) {
    throw new ConfigError([err instanceof Error ? err.message : String(err)]);
  }
  // a low CRAWL_CONCURRENCY alone is a hard cap: the floor follows it
  const CRAWL_CONCURRENCY_MIN = Math.min(parsed.CRAWL_CONCURRENCY_MIN, parsed.CRAWL_CONCURRENCY);
  return Object.freeze({ ...parsed, CRAWL_CONCURRENCY_MIN, exits, origins: marketplaceOriginsFromEnv(env) });
}

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;
