import { crawlWindowEnv, envInt, logEnv, parseEnv, postgresEnv, redisEnv } from '@crawl/config';

export const schedulerEnv = {
  ...postgresEnv,
  ...redisEnv,
  ...logEnv,
  /** Longest sleep between due-time checks; the scheduler also wakes at the next fire time and on schedule changes. */
  SCHEDULER_MAX_SLEEP_MS: envInt(1_000, 10, 60_000),
  /** How often jobs stuck in `queued` (enqueue failed, Redis lost data) are re-enqueued. */
  RECONCILE_INTERVAL_MS: envInt(5_000, 100),
  /** The reconciler tops up organizations' release windows (same value as the workers'). */
  ...crawlWindowEnv,
};

export function loadSchedulerConfig(env: Record<string, string | undefined>) {
  return parseEnv(schedulerEnv, env);
}

export type SchedulerConfig = ReturnType<typeof loadSchedulerConfig>;
