import { createHmac } from 'node:crypto';
import path from 'node:path';
import {
  AccountTokenRepository,
  ApiKeyRepository,
  AuditLogRepository,
  InvitationRepository,
  MembershipRepository,
  SessionRepository,
  UserRepository,
  AnalyticsRepository,
  CreditRepository,
  createDb,
  type Db,
  poolStats,
  IdempotencyRepository,
  JobRepository,
  JobTargetRepository,
  ReleaseWindowRepository,
  ResultRepository,
  RetentionRepository,
  OrganizationRepository,
  ProjectRepository,
  ScheduleRepository,
  TrackingRepository,
  WebhookConfigRepository,
  WebhookDeliveryRepository,
  WebhookLogRepository,
} from '@crawl/db';
import { ScheduleService } from './routes/schedules/schedules.service';
import { TrackingService } from './routes/tracking/tracking.service';
import { AnalyticsService } from './routes/analytics/analytics.service';
import { JobResultsService } from './routes/jobs/job-results.service';
import { UsageService } from './routes/usage/usage.service';
import { DEFAULT_WEBHOOK_REPLAY_BUDGET_PER_HOUR, SecretBox } from '@crawl/core';
import { WebhookService } from './routes/webhooks/webhooks.service';
import { WebhookDeliveryService } from './routes/webhooks/deliveries.service';
import { DEFAULT_CRAWL_ORG_WINDOW } from '@crawl/config';
import { JobService, ReleaseWindow } from '@crawl/jobs';
import type { Logger, Registry } from '@crawl/observability';
import { QueueProducer } from '@crawl/queue';
import { createMailer } from '@crawl/mail';
import { accountChangesChannel, Broadcast, createRedisConnection, LeaseSemaphore, type Redis } from '@crawl/redis';
import type { AccountDeps, SignupMode } from './accounts/account-deps';
import { Directory } from './access/directory';
import { MailSender } from './accounts/mail-sender';
import { DEFAULT_MAIL_LIMITS, MailThrottle, type MailThrottleLimits } from './accounts/mail-throttle';
import { DEFAULT_INVITATION_LIMITS, InvitationThrottle, type InvitationLimits } from './accounts/invitation-throttle';
import { AfterAnswer } from './accounts/after-answer';
import { DeviceCookies } from './access/device-cookie';
import { DEFAULT_HASHER_OPTIONS, PasswordHasher, type PasswordHasherOptions } from './access/passwords';
import { WindowLimit } from './access/window-limit';
import type { SessionSettings } from './access/sessions';
import { FailureLimiter } from './access/failure-limiter';
import { AccountService } from './routes/account/account.service';
import { KeysService } from './routes/keys/keys.service';
import { OrganizationsService } from './routes/organizations/organizations.service';
import { apiKeyFailureLimiter, type AuthFailureLimiter, DEFAULT_AUTH_FAILURES_PER_MINUTE, type TrustProxy } from './access/auth-failures';
import { NoopRateLimiter, type RateLimiter, RedisRateLimiter } from './access/rate-limiter';
import { DEFAULT_EXPORT_LIMITS, EXPORT_LEASE_SLACK_MS, ExportGate, type ExportLimits } from './routes/jobs/export-gate';

const DEFAULT_ROTATION_GRACE_MS = 24 * 3_600_000;

/** Everything the HTTP layer needs, built once in main.ts (or by a test) and passed in. */
export interface GatewayDeps {
  db: Db;
  /** Exports' own pool: a download holds a connection for minutes, API queries never wait on it. */
  exportDb: Db;
  exportGate: ExportGate;
  redis: Redis;
  producer: QueueProducer;
  organizations: OrganizationRepository;
  projects: ProjectRepository;
  credits: CreditRepository;
  jobs: JobRepository;
  results: ResultRepository;
  idempotency: IdempotencyRepository;
  /** Creating, estimating, retrying and cancelling jobs (packages/jobs); the jobs routes reach it through their JobsService. */
  jobService: JobService;
  webhookService: WebhookService;
  /** The delivery log, resend and replay. */
  webhookDeliveries: WebhookDeliveryService;
  scheduleService: ScheduleService;
  trackingService: TrackingService;
  analyticsService: AnalyticsService;
  usageService: UsageService;
  /** DELETE /jobs/{id}: results removal. */
  jobResults: JobResultsService;
  rateLimiter: RateLimiter;
  authFailures: AuthFailureLimiter;
  /** Keys, sessions and projects as authentication sees them, cached and kept in step across gateways. */
  directory: Directory;
  sessionSettings: SessionSettings;
  /** Shared by the account API's services; mail goes out after answering. */
  accounts: AccountDeps;
  accountService: AccountService;
  organizationsService: OrganizationsService;
  keysService: KeysService;
  /** Express's `trust proxy`: which hops' X-Forwarded-For gives the client address (TRUST_PROXY). */
  trustProxy: TrustProxy;
  log: Logger;
  metrics: Registry;
}

export interface BuildDepsOptions {
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string;
  queuePrefix: string;
  rateLimitEnabled: boolean;
  authCacheTtlMs: number;
  /** Failed authentications per client address per minute before 429; 0 disables (default 30). */
  authFailuresPerMinute?: number;
  /** CRAWL_ORG_WINDOW: a cancel refills the organization's window at once (default 128). */
  crawlOrgWindow?: number;
  trustProxy?: TrustProxy;
  secretsKey: string;
  allowPrivateWebhookUrls: boolean;
  /** WEBHOOK_SECRET_ROTATION_GRACE_MS (default 24 h). */
  webhookRotationGraceMs?: number;
  /** Deliveries replays may re-arm per project per hour (WEBHOOK_REPLAY_BUDGET_PER_HOUR). */
  webhookReplayBudgetPerHour?: number;
  /** Export limits; unset fields take DEFAULT_EXPORT_LIMITS. */
  exports?: Partial<ExportLimits>;
  /** Sign-up, sessions and mail; unset fields take the defaults of docs/accounts.md. */
  accounts?: Partial<AccountOptions>;
  log: Logger;
  metrics: Registry;
}

export interface AccountOptions {
  /** Where the service is reached: mail links start with it, and `http:` drops the cookie's Secure flag. */
  publicUrl: string;
  /** Unset: mail is written to `mailOutboxDir` as .eml files. */
  smtpUrl: string | undefined;
  mailOutboxDir: string;
  mailFrom: string;
  /** Log each outbox mail's link (development only: the link carries a token). */
  logMailLinks: boolean;
  signupMode: SignupMode;
  signupCredits: number;
  sessionIdleMinutes: number;
  sessionMaxAgeHours: number;
  /** Failed sign-ins per email in 15 minutes before that email is refused until the window ends. */
  signInFailuresPerEmail: number;
  /** Failed sign-ins per client address per minute before the address is refused (before hashing) until the window ends. */
  signInFailuresPerAddress: number;
  /** Failed sign-ins of one known browser (a device cookie) in 15 minutes before that browser is refused. */
  signInFailuresPerDevice: number;
  /** Successful sign-ins per user per minute. */
  signInsPerUserPerMinute: number;
  /** Live sessions per user; a sign-in beyond ends the oldest. */
  sessionsPerUser: number;
  /** Sign-ups across the service per minute (SIGNUPS_PER_MINUTE). */
  signupsPerMinute: number;
  /** Organizations a day whose verified sign-up gets SIGNUP_CREDITS (SIGNUP_CREDIT_GRANTS_PER_DAY). */
  signupCreditGrantsPerDay: number;
  hasher: PasswordHasherOptions;
  mailLimits: MailThrottleLimits;
  invitationLimits: InvitationLimits;
}

export const DEFAULT_ACCOUNT_OPTIONS: AccountOptions = {
  publicUrl: 'http://localhost:8080',
  smtpUrl: undefined,
  mailOutboxDir: '.mail-outbox',
  mailFrom: 'Crawl Data Service <no-reply@localhost>',
  logMailLinks: true,
  signupMode: 'open',
  signupCredits: 100,
  sessionIdleMinutes: 24 * 60,
  sessionMaxAgeHours: 14 * 24,
  signInFailuresPerEmail: 10,
  signInFailuresPerAddress: 30,
  signInFailuresPerDevice: 10,
  signInsPerUserPerMinute: 10,
  sessionsPerUser: 20,
  signupsPerMinute: 60,
  signupCreditGrantsPerDay: 500,
  hasher: DEFAULT_HASHER_OPTIONS,
  mailLimits: DEFAULT_MAIL_LIMITS,
  invitationLimits: DEFAULT_INVITATION_LIMITS,
};

function buildAccountDeps(
  options: AccountOptions,
  shared: {
    db: GatewayDeps['db'];
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

/** Builds every dependency from connection settings; main.ts and tests share it. */
export function buildGatewayDeps(options: BuildDepsOptions): GatewayDeps {
  const db = createDb({ url: options.databaseUrl, poolSize: options.databasePoolSize });
  const redis = createRedisConnection(options.redisUrl);
  const exportLimits = { ...DEFAULT_EXPORT_LIMITS, ...options.exports };
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
  const scheduleRepository = new ScheduleRepository(db);
  const directory = new Directory({
    ttlMs: options.authCacheTtlMs,
    projects,
    keys: new ApiKeyRepository(db),
    sessions: new SessionRepository(db),
    memberships: new MembershipRepository(db),
    jobs,
    schedules: scheduleRepository,
    broadcast: new Broadcast(redis, accountChangesChannel(options.queuePrefix)),
    log: options.log,
  });
  directory.start().catch((err) => options.log.warn({ err }, 'account changes: could not subscribe; caches expire on their own'));
  const accounts = buildAccountDeps(
    { ...DEFAULT_ACCOUNT_OPTIONS, ...options.accounts },
    {
      db,
      redis,
      prefix: options.queuePrefix,
      organizations,
      projects,
      credits,
      directory,
      deviceKey: createHmac('sha256', options.secretsKey).update('device-cookies').digest(),
      log: options.log,
    },
  );
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
    jobService: new JobService({
      db,
      jobs,
      targets: new JobTargetRepository(db),
      credits,
      producer,
      log: options.log,
      releases: new ReleaseWindow({
        db,
        windows: new ReleaseWindowRepository(db),
        producer,
        log: options.log,
        window: options.crawlOrgWindow ?? DEFAULT_CRAWL_ORG_WINDOW,
      }),
    }),
    scheduleService: new ScheduleService(scheduleRepository, accounts.audit),
    trackingService: new TrackingService({ jobs, tracking: new TrackingRepository(db) }),
    analyticsService: new AnalyticsService(new AnalyticsRepository(db)),
    usageService: new UsageService(credits),
    jobResults: new JobResultsService({ jobs, retention: new RetentionRepository(db), batchSize: 5_000, inlineBudgetMs: 2_000 }),
    webhookService: new WebhookService({
      configs: new WebhookConfigRepository(db),
      deliveries: new WebhookDeliveryRepository(db),
      secrets: SecretBox.fromKey(options.secretsKey),
      allowPrivateUrls: options.allowPrivateWebhookUrls,
      timeoutMs: 10_000,
      rotationGraceMs: options.webhookRotationGraceMs ?? DEFAULT_ROTATION_GRACE_MS,
      audit: accounts.audit,
    }),
    webhookDeliveries: new WebhookDeliveryService(new WebhookLogRepository(db), {
      replayBudgetPerHour: options.webhookReplayBudgetPerHour ?? DEFAULT_WEBHOOK_REPLAY_BUDGET_PER_HOUR,
    }),
    directory,
    sessionSettings: accounts.sessionSettings,
    accounts,
    accountService: new AccountService(accounts),
    organizationsService: new OrganizationsService(accounts),
    keysService: new KeysService(accounts),
    authFailures: apiKeyFailureLimiter(redis, options.queuePrefix, options.authFailuresPerMinute ?? DEFAULT_AUTH_FAILURES_PER_MINUTE),
    trustProxy: options.trustProxy ?? false,
    rateLimiter: options.rateLimitEnabled ? new RedisRateLimiter(redis, options.queuePrefix) : new NoopRateLimiter(),
    log: options.log,
    metrics: options.metrics,
  };
}

/** Closes pools and connections; the HTTP server must already be closed. */
export async function closeGatewayDeps(deps: GatewayDeps): Promise<void> {
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
