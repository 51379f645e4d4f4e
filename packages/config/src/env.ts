import { z } from 'zod';

/** Booleans are parsed explicitly: only "true"/"1" and "false"/"0" are accepted. */
export const envBoolean = (defaultValue: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(defaultValue ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

export const envInt = (defaultValue: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).default(defaultValue);

/** A decimal number (a rate such as 0.8 per second). */
export const envNumber = (defaultValue: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().min(min).max(max).default(defaultValue);

export const postgresEnv = {
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/crawl'),
  DATABASE_POOL_SIZE: envInt(10, 1, 200),
};

export const redisEnv = {
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_:.-]+$/)
    .default('crawl'),
};

export const logEnv = {
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/**
 * CRAWL_ORG_WINDOW (worker, scheduler; also the gateway when it refills windows on cancel):
 * the most crawl tasks one organization has in the queue at once, queued, in flight or in
 * retry backoff (packages/jobs/src/release-window.ts). Every process must use the same value.
 * Default 128: one organization alone can keep about 100 fetches in flight (about 100 pages/s
 * at 1 s per fetch, what 125 exits at CRAWL_EXIT_RPS 0.8 give), with room for retries in backoff
 * and the moment between a completion and its replacement being picked up. Larger: more Redis memory (about
 * 1 KB per task, per organization with work) and a longer wait for a new job behind its own
 * organization's queued tasks; smaller: one organization alone cannot use the whole fleet.
 */
export const DEFAULT_CRAWL_ORG_WINDOW = 128;

export const crawlWindowEnv = {
  CRAWL_ORG_WINDOW: envInt(DEFAULT_CRAWL_ORG_WINDOW, 1, 100_000),
};

/** Development key: encrypts nothing worth protecting. Refused in production, warned about elsewhere. */
export const DEV_SECRETS_KEY = '0000000000000000000000000000000000000000000000000000000000000000'.replace(/0/g, 'd');

export const secretsEnv = {
  /** `production` (the Dockerfile sets it) makes a missing or development SECRETS_KEY fatal. */
  NODE_ENV: z.string().optional(),
  SECRETS_KEY: z
    .string()
    .refine((v) => /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes: 64 hex characters or base64')
    .optional(),
};

/**
 * Fails closed: in production a service that stores or reads webhook secrets refuses to start
 * without a real key, because a published development key is no encryption at all. Elsewhere
 * (a laptop, tests) the development key is used and the services log a warning.
 */
export function resolveSecretsKey(env: { NODE_ENV?: string | undefined; SECRETS_KEY?: string | undefined }): string {
  if (env.SECRETS_KEY && env.SECRETS_KEY !== DEV_SECRETS_KEY) return env.SECRETS_KEY;
  if (env.NODE_ENV === 'production') {
    const problem = env.SECRETS_KEY ? 'is the published development key' : 'is not set';
    throw new ConfigError([`SECRETS_KEY: ${problem}; production needs a real one, e.g. SECRETS_KEY=$(openssl rand -hex 32)`]);
  }
  return DEV_SECRETS_KEY;
}

export const webhookEnv = {
  ...secretsEnv,
  /** Allow webhook URLs that resolve to loopback/private addresses (tests, local receivers). */
  WEBHOOK_ALLOW_PRIVATE_URLS: envBoolean(false),
  /**
   * After a PATCH changes the secret of a kept configuration, deliveries are signed with the
   * previous secret too (a second v1=) for this long, so receivers can switch without downtime.
   */
  WEBHOOK_SECRET_ROTATION_GRACE_MS: envInt(24 * 3_600_000, 0, 30 * 24 * 3_600_000),
  /**
   * A receiver that has not answered in this time counts as failed (spec: 10 s): the webhooks
   * service's deliveries and the gateway's test deliveries wait alike.
   */
  WEBHOOK_TIMEOUT_MS: envInt(10_000, 100, 60_000),
};

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration: ${issues.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses an environment with a zod object schema. Every issue names its variable so that a
 * bad deployment fails at start with one clear line per problem.
 */
export function parseEnv<T extends z.ZodRawShape>(shape: T, env: Record<string, string | undefined>) {
  const result = z.object(shape).safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  return Object.freeze(result.data);
}

/** Reads every MARKETPLACE_ORIGIN_<CODE> variable into a map of code -> origin. */
export function marketplaceOriginsFromEnv(env: Record<string, string | undefined>): {
  override: string | null;
  perCode: Record<string, string>;
} {
  const origin = z.string().url();
  const perCode: Record<string, string> = {};
  const issues: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    const m = /^MARKETPLACE_ORIGIN_([A-Z]{2})$/.exec(name);
    if (!m || value === undefined || value === '') continue;
    if (!origin.safeParse(value).success) issues.push(`${name}: must be a URL`);
    else perCode[m[1]!] = value.replace(/\/+$/, '');
  }
  const rawOverride = env.MARKETPLACE_ORIGIN_OVERRIDE;
  let override: string | null = null;
  if (rawOverride) {
    if (!origin.safeParse(rawOverride).success) issues.push('MARKETPLACE_ORIGIN_OVERRIDE: must be a URL');
    else override = rawOverride.replace(/\/+$/, '');
  }
  if (issues.length) throw new ConfigError(issues);
  return { override, perCode };
}

/** Prints a ConfigError as one line per variable and exits; other errors are rethrown. */
export function exitOnConfigError(err: unknown): never {
  if (err instanceof ConfigError) {
    for (const issue of err.issues) process.stderr.write(`config error: ${issue}\n`);
    process.exit(1);
  }
  throw err;
}

/** `parseEnv` for a one-shot command's main: a bad environment prints its lines and exits 1. */
export function parseEnvOrExit<T extends z.ZodRawShape>(shape: T, env: Record<string, string | undefined>) {
  try {
    return parseEnv(shape, env);
  } catch (err) {
    exitOnConfigError(err);
  }
}

const unsetWhenEmpty = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

/** Mail sent outside a request (the scheduler's alert mails: docs/alerts.md); read like the gateway's account mail settings. */
export const mailEnv = {
  /** Where users reach the console: mail links start with it. */
  PUBLIC_URL: z
    .string()
    .url()
    .refine((v) => /^https?:/.test(v), 'an http(s) URL')
    .transform((v) => v.replace(/\/+$/, ''))
    .default('http://localhost:8080'),
  /** `smtp://user:pass@host:587` or `smtps://...`; unset: mail is written to MAIL_OUTBOX_DIR. */
  SMTP_URL: unsetWhenEmpty(
    z
      .string()
      .url()
      .refine((v) => /^smtps?:/.test(v), 'an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_OUTBOX_DIR: unsetWhenEmpty(z.string().min(1).optional()),
  MAIL_FROM: z.string().min(3).default('Crawl Data Service <no-reply@localhost>'),
};
