import { crawlWindowEnv, envInt, logEnv, mailEnv, parseEnv, postgresEnv, redisEnv, secretsEnv } from '@crawl/config';
import { DEFAULT_RETENTION_DAYS } from '@crawl/jobs';

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
  /** Days a plan keeps job results and webhook delivery logs (0: forever). */
  RETENTION_DAYS_STARTER: envInt(DEFAULT_RETENTION_DAYS.starter, 0, 36_500),
  RETENTION_DAYS_GROWTH: envInt(DEFAULT_RETENTION_DAYS.growth, 0, 36_500),
  RETENTION_DAYS_ENTERPRISE: envInt(DEFAULT_RETENTION_DAYS.enterprise, 0, 36_500),
  /** How often the retention sweep runs; a sweep stops at the next one's time and the next continues. */
  RETENTION_INTERVAL_MS: envInt(600_000, 1_000),
  /** Rows per purge statement: each is a short transaction of its own, so API requests never wait long behind one. */
  RETENTION_BATCH_SIZE: envInt(5_000, 1, 100_000),
  /** Alert mails to members (docs/alerts.md): the same mail settings as the gateway's. */
  ...mailEnv,
  NODE_ENV: secretsEnv.NODE_ENV,
  /** How often alert_mail is asked for due mails besides the wake-ups of new ones: covers retries and other replicas' crashes. */
  ALERT_MAIL_POLL_MS: envInt(5_000, 100),
};

export function loadSchedulerConfig(env: Record<string, string | undefined>) {
  return parseEnv(schedulerEnv, env);
}

export type SchedulerConfig = ReturnType<typeof loadSchedulerConfig>;
