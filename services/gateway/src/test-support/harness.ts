import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, createMetricsRegistry } from '@crawl/observability';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase, uniquePrefix, withApiContract } from '@crawl/testing';
import supertest from 'supertest';
import { createApp } from '../app';
import { openApiDocument } from '../openapi/document';
import type { AccountOptions } from '../accounts/account-options';
import { loadGatewayConfig } from '../config';
import type { GatewayContext } from '../context';
import { buildGatewayContext, closeGatewayContext, contextOptions } from '../deps';
import type { ExportLimits } from '../export/export-gate';

export interface Harness {
  /** The gateway's shared infrastructure (the context `createApp` is given). */
  deps: GatewayContext;
  /** Where this gateway's account mail lands (a folder of its own). */
  outboxDir: string;
  database: TestDatabase;
  prefix: string;
  http: ReturnType<typeof supertest>;
  /** A client that keeps cookies, like a browser (console sessions). */
  agent(): ReturnType<typeof supertest.agent>;
  /** A second, independent gateway on the same database and Redis (like another replica). */
  replica(): Promise<{ url: string; close(): Promise<void> }>;
  listen(): Promise<{ url: string; close(): Promise<void> }>;
  close(): Promise<void>;
}

function template(): string {
  const name = process.env.CRAWL_TEST_TEMPLATE;
  if (!name) throw new Error('CRAWL_TEST_TEMPLATE unset: run tests through jest (globalSetup builds it)');
  return name;
}

export const TEST_SECRETS_KEY = 'c'.repeat(64);

function build(databaseUrl: string, prefix: string, options: HarnessOptions, outboxDir: string): GatewayContext {
  // The configuration's own defaults, as main.ts gets them; then what tests change.
  const config = loadGatewayConfig({ DATABASE_URL: databaseUrl, REDIS_URL: options.redisUrl ?? TEST_REDIS_URL, QUEUE_PREFIX: prefix });
  const base = contextOptions(config, createLogger({ level: 'silent', service: 'gateway-test' }), createMetricsRegistry('gateway'));
  return buildGatewayContext({
    ...base,
    databasePoolSize: 20,
    rateLimitEnabled: options.rateLimit ?? false,
    // Tests revoke keys and change plans, then expect the change at once.
    authCacheTtlMs: options.authCacheTtlMs ?? 0,
    // Suites send hundreds of bad keys from 127.0.0.1 on purpose; the limiter has its own tests.
    authFailuresPerMinute: options.authFailuresPerMinute ?? 0,
    trustProxy: options.trustProxy ?? base.trustProxy,
    exports: { ...base.exports, ...options.exports },
    settings: {
      ...base.settings,
      secretsKey: TEST_SECRETS_KEY,
      allowPrivateWebhookUrls: options.allowPrivateWebhookUrls ?? true,
      webhookReplayBudgetPerHour: options.webhookReplayBudgetPerHour ?? base.settings.webhookReplayBudgetPerHour,
    },
    accounts: {
      ...base.accounts,
      publicUrl: 'http://console.test',
      mailOutboxDir: outboxDir,
      logMailLinks: false,
      // Every suite signs up and signs in many users from 127.0.0.1 within seconds; the
      // service-wide and per-address limits have tests of their own that set them.
      signupsPerMinute: 10_000,
      signInFailuresPerAddress: 10_000,
      signInsPerUserPerMinute: 1_000,
      ...options.accounts,
    },
  });
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Every response a gateway test receives is checked against the published document (packages/testing). */
const checked = (app: ReturnType<typeof createApp>): Handler => withApiContract(openApiDocument(), app);

async function serve(app: Handler): Promise<{ url: string; close(): Promise<void>; server: Server }> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A gateway on a private database and Redis prefix, mounted in-process for supertest. */
export interface HarnessOptions {
  rateLimit?: boolean;
  redisUrl?: string;
  allowPrivateWebhookUrls?: boolean;
  authCacheTtlMs?: number;
  authFailuresPerMinute?: number;
  trustProxy?: GatewayContext['trustProxy'];
  /** Export limits (pool size, per-project cap, timeouts); unset fields keep the defaults. */
  exports?: Partial<ExportLimits>;
  /** Deliveries replays may re-arm per project per hour (default: the gateway's default). */
  webhookReplayBudgetPerHour?: number;
  /** Sign-up, sessions and mail settings; the outbox is the harness's own folder. */
  accounts?: Partial<AccountOptions>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const database = await createTestDatabase(template());
  const prefix = uniquePrefix('gw');
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'crawl-outbox-'));
  const deps = build(database.url, prefix, options, outboxDir);
  const app = checked(createApp(deps));
  const extras: { close(): Promise<void> }[] = [];
  return {
    deps,
    outboxDir,
    database,
    prefix,
    http: supertest(app),
    agent: () => supertest.agent(app),
    async replica() {
      const other = build(database.url, prefix, options, outboxDir);
      const served = await serve(checked(createApp(other)));
      const handle = {
        url: served.url,
        close: async () => {
          await served.close();
          await closeGatewayContext(other);
        },
      };
      extras.push(handle);
      return handle;
    },
    async listen() {
      const served = await serve(app);
      extras.push(served);
      return served;
    },
    async close() {
      for (const extra of extras.splice(0)) await extra.close().catch(() => undefined);
      await closeGatewayContext(deps);
      await database.drop();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}` });
