import {
  ConfigError,
  crawlWindowEnv,
  resolveSecretsKey,
  envBoolean,
  envInt,
  envNumber,
  logEnv,
  parseEnv,
  postgresEnv,
  redisEnv,
  webhookEnv,
} from '@crawl/config';
import { DEFAULT_WEBHOOK_REPLAY_BUDGET_PER_HOUR } from '@crawl/core';
import { z } from 'zod';
import { DEFAULT_AUTH_FAILURES_PER_MINUTE, type TrustProxy } from './access/auth-failures';
import { SIGNUP_MODES } from './accounts/account-deps';
import { DEFAULT_ACCOUNT_OPTIONS } from './accounts/account-options';
import { DEFAULT_EXPORT_LIMITS } from './export/export-gate';

const trustProxyEnv = z
  .string()
  .default('false')
  .transform((v): TrustProxy =>
    v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v.split(',').map((s) => s.trim()),
  )
  .refine(
    (v) => !Array.isArray(v) || v.every((s) => /^[0-9a-fA-F.:/]+$|^(loopback|linklocal|uniquelocal)$/.test(s)),
    'true, false, a hop count, or addresses/subnets separated by commas',
  );

/** `VAR=` (as docker-compose passes an unset `${VAR:-}`) means unset. */
const unsetWhenEmpty = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/** Sign-up, sessions and account mail (docs/accounts.md). */
export const accountVariables = {
  /** Where users reach the service: mail links start with it; `http:` drops the cookie's Secure flag. Default `http://localhost:{PORT}`. */
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:/.test(v), 'an http(s) URL')
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  /** `smtp://user:pass@host:587` or `smtps://...`; unset: mail is written to MAIL_OUTBOX_DIR. */
  SMTP_URL: unsetWhenEmpty(
    z
      .string()
      .url()
      .refine((v) => /^smtps?:/.test(v), 'an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_OUTBOX_DIR: unsetWhenEmpty(z.string().min(1).optional()),
  MAIL_FROM: z.string().min(3).default(DEFAULT_ACCOUNT_OPTIONS.mailFrom),
  /** `open` (anyone), `invite` (only invited users) or `off`. */
  SIGNUP_MODE: z.enum(SIGNUP_MODES).default('open'),
  /** Credits a new organization starts with. */
  SIGNUP_CREDITS: envInt(DEFAULT_ACCOUNT_OPTIONS.signupCredits, 0, 1_000_000),
  /** Sign-ups the whole service accepts per minute, from every address together (beyond: 429). */
  SIGNUPS_PER_MINUTE: envInt(DEFAULT_ACCOUNT_OPTIONS.signupsPerMinute, 1, 1_000_000),
  /** Organizations a day whose sign-up gets SIGNUP_CREDITS when its email is verified; the rest start at 0. */
  SIGNUP_CREDIT_GRANTS_PER_DAY: envInt(DEFAULT_ACCOUNT_OPTIONS.signupCreditGrantsPerDay, 0, 1_000_000),
  SESSION_IDLE_TIMEOUT_MINUTES: envInt(DEFAULT_ACCOUNT_OPTIONS.sessionIdleMinutes, 5, 60 * 24 * 30),
  SESSION_MAX_AGE_HOURS: envInt(DEFAULT_ACCOUNT_OPTIONS.sessionMaxAgeHours, 1, 24 * 90),
};

export const gatewayEnv = {
  ...accountVariables,
  ...postgresEnv,
  ...redisEnv,
  ...logEnv,
  ...webhookEnv,
  /** A cancel refills the organization's release window at once (the same value as the workers'). */
  ...crawlWindowEnv,
  PORT: envInt(8080, 0, 65535),
  /** Side port for /metrics and /healthz, never the API's PORT; unset = no metrics server. */
  METRICS_PORT: envInt(0, 0, 65535),
  RATE_LIMIT_ENABLED: envBoolean(true),
  /** How long a gateway trusts a looked-up API key (revocation delay); 0 disables. */
  AUTH_CACHE_TTL_MS: envInt(5_000, 0, 300_000),
  /** Failed authentications per client address per minute before its invalid keys get 429 (access/auth-failures.ts); 0 disables. */
  AUTH_FAILURES_PER_MINUTE: envInt(DEFAULT_AUTH_FAILURES_PER_MINUTE, 0, 1_000_000),
  /**
   * Which proxies' X-Forwarded-For to believe for the client address: `false` (default: the
   * TCP peer), `true` (any: only when nothing but your load balancer can reach the gateway),
   * a hop count (`1` behind one load balancer), or comma-separated addresses/subnets
   * (`10.0.0.0/8,loopback`). Behind a load balancer without it, every client shares the
   * balancer's address, and one client's failed logins would get every other client's
   * mistyped keys answered with 429 (valid keys are never refused).
   */
  TRUST_PROXY: trustProxyEnv,
  /**
   * Streamed exports (export/export-gate.ts). Each holds one Postgres connection for as long as
   * its client reads, so they get their own pool and limits:
   * - EXPORT_POOL_SIZE (4): exports one gateway streams at once, and the size of their pool, on
   *   top of DATABASE_POOL_SIZE; a download is network-bound, so a few connections serve many
   *   clients in turn, and replicas x (10 + 4) stays far below Postgres' 100 connections.
   * - EXPORT_MAX_PER_PROJECT (2): one project cannot take every gateway's export slots; two let
   *   a client fetch two formats at once. The SDK retries the 429 after Retry-After.
   * - EXPORT_MAX_PER_ORGANIZATION (4): the same across all projects of one organization, so
   *   that creating projects does not multiply the cap.
   * - EXPORT_ORGANIZATION_SHARE (0.5): the most of one gateway's EXPORT_POOL_SIZE that one
   *   organization may hold (at least one slot): with the pool of 4, one organization streams
   *   2 at most. Less while other organizations export, and one slot stays for an organization
   *   with none (export-gate.ts). Beyond it: 429, like the caps above.
   * - EXPORT_IDLE_TIMEOUT_MS (30 s): a client that accepted no byte for that long (kernel
   *   buffers full) has stalled or gone; a slow but live link drains within seconds.
   * - EXPORT_MAX_DURATION_MS (5 min): the largest job (~100 MB of json) needs under 2 min at
   *   1 MB/s. It is also the lease of a project slot in Redis: a gateway that dies mid-export
   *   holds the slot at most this long (plus 5 s).
   * - EXPORT_SHUTDOWN_GRACE_MS (10 s): running exports may finish before being cut, well below
   *   the 25 s shutdown deadline.
   */
  EXPORT_POOL_SIZE: envInt(DEFAULT_EXPORT_LIMITS.poolSize, 1, 100),
  EXPORT_MAX_PER_PROJECT: envInt(DEFAULT_EXPORT_LIMITS.maxPerProject, 1, 1_000),
  EXPORT_MAX_PER_ORGANIZATION: envInt(DEFAULT_EXPORT_LIMITS.maxPerOrganization, 1, 1_000),
  EXPORT_ORGANIZATION_SHARE: envNumber(DEFAULT_EXPORT_LIMITS.organizationShare, 0.01, 1),
  EXPORT_IDLE_TIMEOUT_MS: envInt(DEFAULT_EXPORT_LIMITS.idleTimeoutMs, 100, 600_000),
  EXPORT_MAX_DURATION_MS: envInt(DEFAULT_EXPORT_LIMITS.maxDurationMs, 1_000, 3_600_000),
  EXPORT_SHUTDOWN_GRACE_MS: envInt(DEFAULT_EXPORT_LIMITS.shutdownGraceMs, 0, 20_000),
  /**
   * Failed deliveries `POST .../webhooks/replay` may re-arm per project in any hour (2,000: two
   * full replay calls). Each re-armed delivery is one signed request to a receiver, so this bounds
   * what a replay loop can send; beyond it the replay answers 429 with Retry-After.
   */
  WEBHOOK_REPLAY_BUDGET_PER_HOUR: envInt(DEFAULT_WEBHOOK_REPLAY_BUDGET_PER_HOUR, 1, 1_000_000),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(env: Record<string, string | undefined>) {
  const config = parseEnv(gatewayEnv, env);
  return Object.freeze({ ...config, SECRETS_KEY: resolveSecretsKey(config), mail: mailSettings(config) });
}

/**
 * Fails closed: in production, account mail needs SMTP_URL, or an explicit MAIL_OUTBOX_DIR (an
 * operator who collects the files); outbox links, which carry tokens, are logged only outside it.
 */
function mailSettings(config: { NODE_ENV?: string; PORT: number; PUBLIC_URL?: string; SMTP_URL?: string; MAIL_OUTBOX_DIR?: string }) {
  const production = config.NODE_ENV === 'production';
  if (production && !config.SMTP_URL && !config.MAIL_OUTBOX_DIR) {
    throw new ConfigError([
      'SMTP_URL: production sends account mail over SMTP; set SMTP_URL (or MAIL_OUTBOX_DIR to collect .eml files yourself)',
    ]);
  }
  return {
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    mailOutboxDir: config.MAIL_OUTBOX_DIR ?? DEFAULT_ACCOUNT_OPTIONS.mailOutboxDir,
    logMailLinks: !production,
  };
}
