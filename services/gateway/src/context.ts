import type {
  CreditRepository,
  Db,
  IdempotencyRepository,
  JobRepository,
  OrganizationRepository,
  ProjectRepository,
  ResultRepository,
} from '@crawl/db';
import type { Logger, Registry } from '@crawl/observability';
import type { QueueProducer } from '@crawl/queue';
import type { Redis } from '@crawl/redis';
import type { AuthFailureLimiter, TrustProxy } from './access/auth-failures';
import type { Directory } from './access/directory';
import type { RateLimiter } from './access/rate-limiter';
import type { SessionSettings } from './access/sessions';
import type { AccountDeps } from './accounts/account-deps';
import type { ExportGate } from './export/export-gate';

/** Settings the resources build their services with (from config.ts, passed through deps.ts). */
export interface GatewaySettings {
  /** Encrypts webhook secrets at rest (SECRETS_KEY). */
  secretsKey: string;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: tests and local receivers. */
  allowPrivateWebhookUrls: boolean;
  /** WEBHOOK_TIMEOUT_MS: a test delivery waits this long for the receiver, like the webhooks service. */
  webhookTimeoutMs: number;
  /** WEBHOOK_SECRET_ROTATION_GRACE_MS. */
  webhookRotationGraceMs: number;
  /** WEBHOOK_REPLAY_BUDGET_PER_HOUR: deliveries replays may re-arm per project per hour. */
  webhookReplayBudgetPerHour: number;
  /** CRAWL_ORG_WINDOW: a cancel refills the organization's release window at once. */
  crawlOrgWindow: number;
}

/**
 * The gateway's shared infrastructure, built once by deps.ts (main.ts, or the test harness) and
 * passed to `createApp`: pools, Redis, the producer, the repositories several rooms read, who-is-who
 * and the limits. No route service lives here: each resource builds its own in `service(ctx)`.
 */
export interface GatewayContext {
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
  rateLimiter: RateLimiter;
  authFailures: AuthFailureLimiter;
  /** Keys, sessions and projects as authentication sees them, cached and kept in step across gateways. */
  directory: Directory;
  sessionSettings: SessionSettings;
  /** Shared by the account API's services; mail goes out after answering. */
  accounts: AccountDeps;
  /** Express's `trust proxy`: which hops' X-Forwarded-For gives the client address (TRUST_PROXY). */
  trustProxy: TrustProxy;
  settings: GatewaySettings;
  log: Logger;
  metrics: Registry;
}
