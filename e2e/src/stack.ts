import {
  buildGatewayContext,
  closeGatewayContext,
  contextOptions,
  createApp,
  type GatewayContext,
  loadGatewayConfig,
  openApiDocument,
} from '@crawl/gateway';
import { createLogger, createMetricsRegistry } from '@crawl/observability';
import { type SimulatorOptions, startSimulator, type Simulator } from '@crawl/simulator';
import {
  createTenant,
  createTestDatabase,
  TEST_REDIS_URL,
  type TestDatabase,
  type TestTenant,
  uniquePrefix,
  withApiContract,
} from '@crawl/testing';
import { loadWorkerConfig, startWorker, type WorkerHandle } from '@crawl/worker';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import supertest from 'supertest';

/**
 * A whole stack for one test file: private database and queue prefix, the marketplace
 * simulator, the gateway (in-process, driven with supertest) and crawl workers.
 */
export interface Stack {
  db: GatewayContext['db'];
  /** Where the gateway writes account mail (a folder of its own; `readOutbox` from @crawl/mail reads it). */
  outboxDir: string;
  /** A supertest agent on the gateway that keeps cookies, like a browser (console sessions). */
  agent(): ReturnType<typeof supertest.agent>;
  gateway: GatewayContext;
  http: ReturnType<typeof supertest>;
  simulator: Simulator;
  database: TestDatabase;
  prefix: string;
  workers: WorkerHandle[];
  workerEnv: Record<string, string>;
  startWorker(overrides?: Record<string, string>): Promise<WorkerHandle>;
  tenant(options?: Parameters<typeof createTenant>[1]): Promise<TestTenant>;
  createJob(tenant: TestTenant, body: object): Promise<string>;
  waitForJob(jobId: string, timeoutMs?: number, until?: (job: any) => boolean): Promise<any>;
  close(): Promise<void>;
}

export async function startStack(
  options: { workerEnv?: Record<string, string>; workers?: number; simulator?: SimulatorOptions } = {},
): Promise<Stack> {
  const database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
  const prefix = uniquePrefix('e2e');
  const simulator = await startSimulator({ seed: 7, ...options.simulator });
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'crawl-e2e-outbox-'));
  const config = loadGatewayConfig({
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    RATE_LIMIT_ENABLED: 'false',
    AUTH_CACHE_TTL_MS: '0',
    AUTH_FAILURES_PER_MINUTE: '0',
    // The gateway refills a cancelled job's organization window: the same size as the workers'.
    CRAWL_ORG_WINDOW: options.workerEnv?.CRAWL_ORG_WINDOW,
    SECRETS_KEY: 'c'.repeat(64),
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    PUBLIC_URL: 'http://console.test',
    MAIL_OUTBOX_DIR: outboxDir,
  });
  const base = contextOptions(config, createLogger({ level: 'silent', service: 'gateway-e2e' }), createMetricsRegistry('gateway'));
  const gateway = buildGatewayContext({ ...base, accounts: { ...base.accounts, logMailLinks: false } });
  // every response the e2e suites receive is checked against the published document
  const app = withApiContract(openApiDocument(), createApp(gateway));
  const http = supertest(app);
  const workerEnv: Record<string, string> = {
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    MARKETPLACE_ORIGIN_OVERRIDE: simulator.url,
    CRAWL_EXIT_RPS: '10000',
    CRAWL_EXIT_COOLDOWN_MS: '50',
    CRAWL_RETRY_BASE_MS: '50',
    FETCH_TIMEOUT_MS: '1500',
    CRAWL_CONCURRENCY: '4',
    LOG_LEVEL: 'silent',
    ...options.workerEnv,
  };
  const stack: Stack = {
    db: gateway.db,
    outboxDir,
    agent: () => supertest.agent(app),
    gateway,
    http,
    simulator,
    database,
    prefix,
    workers: [],
    workerEnv,
    async startWorker(overrides = {}) {
      const handle = await startWorker(loadWorkerConfig({ ...workerEnv, ...overrides }));
      stack.workers.push(handle);
      return handle;
    },
    tenant: (opts) => createTenant(gateway.db, { credits: 100_000, ...opts }),
    async createJob(tenant, body) {
      const res = await http.post(`/v1/key/projects/${tenant.projectId}/jobs`).set('Authorization', `Bearer ${tenant.apiKey}`).send(body);
      if (res.status !== 202) throw new Error(`job creation answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.data.id as string;
    },
    async waitForJob(jobId, timeoutMs = 30_000, until = (job) => ['completed', 'failed', 'cancelled'].includes(job.status)) {
      const deadline = Date.now() + timeoutMs;
      let last;
      while (Date.now() < deadline) {
        const row = await gateway.jobs.findById(jobId);
        last = row;
        if (row) {
          const { toJobResource } = await import('@crawl/jobs');
          const job = toJobResource(row);
          if (until(job)) return job;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`job ${jobId} did not reach the expected state: ${JSON.stringify(last)}`);
    },
    async close() {
      for (const w of stack.workers.splice(0)) await w.close();
      await closeGatewayContext(gateway);
      await simulator.close();
      await database.drop();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
  for (let i = 0; i < (options.workers ?? 1); i++) await stack.startWorker();
  return stack;
}

export const auth = (tenant: TestTenant) => ({ Authorization: `Bearer ${tenant.apiKey}` });
