import { createHmac } from 'node:crypto';
import path from 'node:path';
import {
  AccountTokenRepository,
  AlertRuleRepository,
  DestinationRepository,
  ApiKeyRepository,
  AuditLogRepository,
  InvitationRepository,
  MembershipRepository,
  SessionRepository,
  UserRepository,
  CreditRepository,
  createDb,
  poolStats,
  IdempotencyRepository,
  JobRepository,
  ResultRepository,
  OrganizationRepository,
  ProjectRepository,
  ScheduleRepository,
} from '@crawl/db';
import type { Logger, Registry } from '@crawl/observability';
import { QueueProducer } from '@crawl/queue';
import { createMailer, DEFAULT_MAIL_LIMITS, MailThrottle } from '@crawl/mail';
import { accountChangesChannel, Broadcast, createRedisConnection, LeaseSemaphore, type Redis } from '@crawl/redis';
import type { AccountDeps } from './accounts/account-deps';
import { type AccountOptions, DEFAULT_ACCOUNT_OPTIONS } from './accounts/account-options';
import { Directory } from './access/directory';
import { MailSender } from './accounts/mail-sender';
import { InvitationThrottle } from './accounts/invitation-throttle';
import { AfterAnswer } from './accounts/after-answer';
import { DeviceCookies } from './access/device-cookie';
import { PasswordHasher } from './access/passwords';
import { WindowLimit } from './access/window-limit';
import type { SessionSettings } from './access/sessions';
import { FailureLimiter } from './access/failure-limiter';
import { apiKeyFailureLimiter, type TrustProxy } from './access/auth-failures';
import { NoopRateLimiter, RedisRateLimiter } from './access/rate-limiter';
import type { GatewayConfig } from './config';
import type { GatewayContext, GatewaySettings } from './context';
import { EXPORT_LEASE_SLACK_MS, ExportGate, type ExportLimits } from './export/export-gate';

/** What the context is built from: config.ts's values as parsed (its defaults applied there, once). */
export interface ContextOptions {
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string;
  queuePrefix: string;
  rateLimitEnabled: boolean;
  authCacheTtlMs: number;
  /** Failed authentications per client address per minute before 429; 0 disables. */
  authFailuresPerMinute: number;
  trustProxy: TrustProxy;
  exports: ExportLimits;
  accounts: AccountOptions;
  settings: GatewaySettings;
  log: Logger;
  metrics: Registry;
}

/** The options main.ts builds the context with, read from the parsed configuration. */
export function contextOptions(config: GatewayConfig, log: Logger, metrics: Registry): ContextOptions {
  return {
    databaseUrl: config.DATABASE_URL,
    databasePoolSize: config.DATABASE_POOL_SIZE,
    redisUrl: config.REDIS_URL,
    queuePrefix: config.QUEUE_PREFIX,
    rateLimitEnabled: config.RATE_LIMIT_ENABLED,
    authCacheTtlMs: config.AUTH_CACHE_TTL_MS,
    authFailuresPerMinute: config.AUTH_FAILURES_PER_MINUTE,
    trustProxy: config.TRUST_PROXY,
    exports: {
      poolSize: config.EXPORT_POOL_SIZE,
      maxPerProject: config.EXPORT_MAX_PER_PROJECT,
      maxPerOrganization: config.EXPORT_MAX_PER_ORGANIZATION,
      organizationShare: config.EXPORT_ORGANIZATION_SHARE,
      idleTimeoutMs: config.EXPORT_IDLE_TIMEOUT_MS,
      maxDurationMs: config.EXPORT_MAX_DURATION_MS,
      shutdownGraceMs: config.EXPORT_SHUTDOWN_GRACE_MS,
    },
    accounts: {
      // the limits without a variable (sign-in failures, hashing, mail budgets)
      ...DEFAULT_ACCOUNT_OPTIONS,
      ...config.mail,
      smtpUrl: config.SMTP_URL,
      mailFrom: config.MAIL_FROM,
      signupMode: config.SIGNUP_MODE,
      signupCredits: config.SIGNUP_CREDITS,
      signupsPerMinute: config.SIGNUPS_PER_MINUTE,
      signupCreditGrantsPerDay: config.SIGNUP_CREDIT_GRANTS_PER_DAY,
      sessionIdleMinutes: config.SESSION_IDLE_TIMEOUT_MINUTES,
      sessionMaxAgeHours: config.SESSION_MAX_AGE_HOURS,
    },
    settings: {
      secretsKey: config.SECRETS_KEY,
      allowPrivateWebhookUrls: config.WEBHOOK_ALLOW_PRIVATE_URLS,
      webhookTimeoutMs: config.WEBHOOK_TIMEOUT_MS,
      webhookRotationGraceMs: config.WEBHOOK_SECRET_ROTATION_GRACE_MS,
      webhookReplayBudgetPerHour: config.WEBHOOK_REPLAY_BUDGET_PER_HOUR,
      crawlOrgWindow: config.CRAWL_ORG_WINDOW,
    },
    log,
    metrics,
  };
}

function buildAccountDeps(
  options: AccountOptions,
  shared: {
    db: GatewayContext['db'];
    redis: Redis;
    prefix: string;
    organizations: OrganizationRepository;
    projects: ProjectRepository;
    credits: CreditRepository;
    directory: Directory;
    /** Keys the device cookies' HMAC (derived from SECRETS_KEY). */
    deviceKey: Buffer;
    log: Logger;
  },
): AccountDeps {
  const { db, redis, prefix, log } = shared;
  const sessionSettings: SessionSettings = {
    idleTimeoutMs: options.sessionIdleMinutes * 60_000,
    maxAgeMs: options.sessionMaxAgeHours * 3_600_000,
    secureCookie: !options.publicUrl.startsWith('http:'),
  };
  const signInRules = {
    email: { limit: options.signInFailuresPerEmail, windowMs: 15 * 60_000, refuses: 'subject' as const },
    // refused before the hash: a flood from one address costs no argon2 work (docs/accounts.md)
    address: { limit: options.signInFailuresPerAddress, windowMs: 60_000, refuses: 'subject' as const },
    device: { limit: options.signInFailuresPerDevice, windowMs: 15 * 60_000, refuses: 'subject' as const },
  };
  return {
    db,
    organizations: shared.organizations,
    projects: shared.projects,
    credits: shared.credits,
    directory: shared.directory,
    users: new UserRepository(db),
    tokens: new AccountTokenRepository(db),
    sessions: new SessionRepository(db),
    memberships: new MembershipRepository(db),
    invitations: new InvitationRepository(db),
    keys: new ApiKeyRepository(db),
    audit: new AuditLogRepository(db),
    hasher: new PasswordHasher(options.hasher),
    mail: new MailSender(
      createMailer({
        smtpUrl: options.smtpUrl,
        outboxDir: path.resolve(options.mailOutboxDir),
        from: options.mailFrom,
        log,
        logLinks: options.logMailLinks,
      }),
      log,
    ),
    mailLinks: { publicUrl: options.publicUrl },
    mailThrottle: new MailThrottle(redis, `${prefix}:mail`, { ...DEFAULT_MAIL_LIMITS, ...options.mailLimits }),
    invitationThrottle: new InvitationThrottle(redis, `${prefix}:invitations`, options.invitationLimits),
    signIns: new FailureLimiter(redis, `${prefix}:signin`, signInRules),
    devices: new DeviceCookies(shared.deviceKey, sessionSettings.secureCookie),
    afterAnswer: new AfterAnswer(log),
    limits: {
      signups: new WindowLimit(redis, `${prefix}:signups`, { limit: options.signupsPerMinute, windowMs: 60_000, whenUnknown: 'closed' }),
      signInsPerUser: new WindowLimit(redis, `${prefix}:signin-ok`, {
        limit: options.signInsPerUserPerMinute,
        windowMs: 60_000,
        whenUnknown: 'open',
      }),
      sessionsPerUser: options.sessionsPerUser,
    },
    sessionSettings,
    signup: { mode: options.signupMode, credits: options.signupCredits, creditGrantsPerDay: options.signupCreditGrantsPerDay },
  };
}

/** Builds the shared infrastructure from the options; main.ts and the test harness share it. */
export function buildGatewayContext(options: ContextOptions): GatewayContext {
  const db = createDb({ url: options.databaseUrl, poolSize: options.databasePoolSize });
  const redis = createRedisConnection(options.redisUrl);
  const exportLimits = options.exports;
  const exportDb = createDb({ url: options.databaseUrl, poolSize: exportLimits.poolSize, applicationName: 'gateway-export' });
  const leaseMs = exportLimits.maxDurationMs + EXPORT_LEASE_SLACK_MS;
  const exportSlots = {
    project: new LeaseSemaphore(redis, `${options.queuePrefix}:export`, exportLimits.maxPerProject, leaseMs),
    organization: new LeaseSemaphore(redis, `${options.queuePrefix}:export-org`, exportLimits.maxPerOrganization, leaseMs),
  };
  const producer = new QueueProducer(redis, options.queuePrefix);
  const jobs = new JobRepository(db);
  const credits = new CreditRepository(db);
  const organizations = new OrganizationRepository(db);
  const projects = new ProjectRepository(db);
  const directory = new Directory({
    ttlMs: options.authCacheTtlMs,
    projects,
    keys: new ApiKeyRepository(db),
    sessions: new SessionRepository(db),
    memberships: new MembershipRepository(db),
    jobs,
    schedules: new ScheduleRepository(db),
    alertRules: new AlertRuleRepository(db),
    destinations: new DestinationRepository(db),
    broadcast: new Broadcast(redis, accountChangesChannel(options.queuePrefix)),
    log: options.log,
  });
  directory.start().catch((err) => options.log.warn({ err }, 'account changes: could not subscribe; caches expire on their own'));
  const accounts = buildAccountDeps(options.accounts, {
    db,
    redis,
    prefix: options.queuePrefix,
    organizations,
    projects,
    credits,
    directory,
    deviceKey: createHmac('sha256', options.settings.secretsKey).update('device-cookies').digest(),
    log: options.log,
  });
  return {
    db,
    exportDb,
    exportGate: new ExportGate(exportSlots, exportLimits, options.log, { registry: options.metrics, poolStats: () => poolStats(exportDb) }),
    redis,
    producer,
    organizations,
    projects,
    credits,
    jobs,
    results: new ResultRepository(db, exportDb),
    idempotency: new IdempotencyRepository(db),
    directory,
    sessionSettings: accounts.sessionSettings,
    accounts,
    authFailures: apiKeyFailureLimiter(redis, options.queuePrefix, options.authFailuresPerMinute),
    trustProxy: options.trustProxy,
    rateLimiter: options.rateLimitEnabled ? new RedisRateLimiter(redis, options.queuePrefix) : new NoopRateLimiter(),
    settings: options.settings,
    log: options.log,
    metrics: options.metrics,
  };
}

/** Closes pools and connections; the HTTP server must already be closed. */
export async function closeGatewayContext(deps: GatewayContext): Promise<void> {
  // Ends exports still running (a test closing without a server shutdown): a pool only
  // finishes closing once every checked-out connection is back.
  await deps.exportGate.shutdown();
  await deps.producer.close().catch(() => undefined);
  await deps.accounts.afterAnswer.drain();
  await deps.directory.close();
  await deps.accounts.mail.close();
  deps.redis.disconnect();
  await Promise.all([deps.db.destroy(), deps.exportDb.destroy()]);
}
