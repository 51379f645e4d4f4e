import path from 'node:path';
import {
  ALERT_MAIL_CHANNEL,
  AlertMailRepository,
  CreditRepository,
  createDb,
  IdempotencyRepository,
  JobRepository,
  JobTargetRepository,
  listen,
  ReleaseWindowRepository,
  RetentionRepository,
  SCHEDULES_CHANNEL,
  ScheduleRepository,
} from '@crawl/db';
import { JobService, ReleaseWindow, reconcileQueuedJobs } from '@crawl/jobs';
import { createMailer, DEFAULT_MAIL_LIMITS, MailThrottle } from '@crawl/mail';
import { createLogger, type Logger, ShutdownRegistry, runServiceMain } from '@crawl/observability';
import { QueueProducer } from '@crawl/queue';
import { createRedisConnection } from '@crawl/redis';
import { AlertMailSender, DEFAULT_ALERT_MAIL_SETTINGS } from './alert-mail-sender';
import { loadSchedulerConfig, type SchedulerConfig } from './config';
import { RetentionLoop, retentionPolicy } from './retention-loop';
import { ScheduleLoop } from './schedule-loop';

export interface SchedulerHandle {
  close(): Promise<void>;
}

/**
 * The alert mail sender, or null in production without SMTP_URL or MAIL_OUTBOX_DIR: mails then
 * stay pending (never lost) until one is set, as the gateway refuses to write account mail there.
 */
function alertMailSender(
  config: SchedulerConfig,
  db: ReturnType<typeof createDb>,
  redis: ReturnType<typeof createRedisConnection>,
  log: Logger,
) {
  const production = config.NODE_ENV === 'production';
  if (production && !config.SMTP_URL && !config.MAIL_OUTBOX_DIR) {
    log.warn('alert mails are not sent: set SMTP_URL (or MAIL_OUTBOX_DIR) on the scheduler');
    return null;
  }
  return new AlertMailSender({
    mails: new AlertMailRepository(db),
    mailer: createMailer({
      smtpUrl: config.SMTP_URL,
      outboxDir: path.resolve(config.MAIL_OUTBOX_DIR ?? '.mail-outbox'),
      from: config.MAIL_FROM,
      log,
      logLinks: !production,
    }),
    // the gateway's key prefix and limits: one budget per recipient across services
    throttle: new MailThrottle(redis, `${config.QUEUE_PREFIX}:mail`, DEFAULT_MAIL_LIMITS),
    links: { publicUrl: config.PUBLIC_URL },
    log,
    settings: DEFAULT_ALERT_MAIL_SETTINGS,
  });
}

/** Starts the schedule loop, the queued-job reconciler, the retention sweep and the alert mail sender. */
export async function startScheduler(config: SchedulerConfig, shutdown?: ShutdownRegistry): Promise<SchedulerHandle> {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'scheduler' });
  const registry = shutdown ?? new ShutdownRegistry(log);
  const db = createDb({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE });
  const redis = createRedisConnection(config.REDIS_URL);
  const producer = new QueueProducer(redis, config.QUEUE_PREFIX);
  const jobs = new JobRepository(db);
  const releases = new ReleaseWindow({ db, windows: new ReleaseWindowRepository(db), producer, log, window: config.CRAWL_ORG_WINDOW });
  const jobService = new JobService({ db, jobs, targets: new JobTargetRepository(db), credits: new CreditRepository(db), producer, log });
  const loop = new ScheduleLoop({ db, jobService, schedules: new ScheduleRepository(db) }, log, config.SCHEDULER_MAX_SLEEP_MS);
  const stopListening = listen(
    config.DATABASE_URL,
    SCHEDULES_CHANNEL,
    () => loop.wake(),
    (err) => log.warn({ err }, 'schedule listener error'),
  );
  const idempotency = new IdempotencyRepository(db);
  const reconcile = setInterval(() => {
    reconcileQueuedJobs({ jobs, jobService, log, releases }).catch((err) => log.warn({ err }, 'reconcile failed'));
    // Idempotency records live 24 h; an expired one is also dropped lazily when its key is reused.
    idempotency.deleteExpired().catch((err) => log.warn({ err }, 'idempotency cleanup failed'));
  }, config.RECONCILE_INTERVAL_MS);
  loop.start();
  const retention = new RetentionLoop(new RetentionRepository(db), retentionPolicy(config), config.RETENTION_INTERVAL_MS, log);
  retention.start();
  const mails = alertMailSender(config, db, redis, log);
  const stopMailListening = mails
    ? listen(
        config.DATABASE_URL,
        ALERT_MAIL_CHANNEL,
        () => mails.wake(),
        (err) => log.warn({ err }, 'alert mail listener error'),
      )
    : null;
  const mailPoll = mails ? setInterval(() => mails.wake(), config.ALERT_MAIL_POLL_MS) : null;
  mails?.wake();

  registry.add('intake', 'schedule loop', async () => {
    clearInterval(reconcile);
    await stopListening();
    await loop.stop();
    await retention.stop();
    if (mailPoll) clearInterval(mailPoll);
    await stopMailListening?.();
  });
  registry.add('drain', 'alert mail sender', async () => mails?.close());
  registry.add('producers', 'scheduler producer', () => producer.close());
  registry.add('connections', 'scheduler pools', async () => {
    redis.disconnect();
    await db.destroy();
  });
  log.info('scheduler running');
  return { close: () => registry.run('close') };
}

if (require.main === module) runServiceMain('scheduler', loadSchedulerConfig, startScheduler);
