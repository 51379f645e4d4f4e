/**
 * The SDK's automatic retries against real failures: a gateway with rate limiting ON (429 with
 * Retry-After from Redis fixed windows), a gateway whose Postgres is unreachable (real 503
 * UNAVAILABLE), and a port nobody listens on (network errors).
 */
import http from 'node:http';
import net from 'node:net';
import { CrawlApiError, CrawlClient, CrawlNetworkError } from '@crawl/client';
import {
  buildGatewayContext,
  closeGatewayContext,
  contextOptions,
  createApp,
  type GatewayContext,
  loadGatewayConfig,
} from '@crawl/gateway';
import { createLogger, createMetricsRegistry } from '@crawl/observability';
import { TEST_REDIS_URL } from '@crawl/testing';
import { type Stack, startStack } from './stack';

interface Call {
  method: string;
  path: string;
  startedAt: number;
  answeredAt?: number;
  status?: number;
  retryAfter?: string | null;
  error?: string;
}

function countingFetch() {
  const calls: Call[] = [];
  const wrapped: typeof fetch = async (input, init) => {
    const call: Call = { method: init?.method ?? 'GET', path: new URL(String(input)).pathname, startedAt: Date.now() };
    calls.push(call);
    try {
      const res = await fetch(input, init);
      Object.assign(call, { status: res.status, retryAfter: res.headers.get('retry-after'), answeredAt: Date.now() });
      return res;
    } catch (err) {
      call.error = (err as Error).message;
      throw err;
    }
  };
  return { calls, fetch: wrapped };
}

function gatewayDeps(databaseUrl: string, prefix: string, rateLimitEnabled: boolean): GatewayContext {
  const config = loadGatewayConfig({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '4',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    RATE_LIMIT_ENABLED: String(rateLimitEnabled),
    AUTH_CACHE_TTL_MS: '0',
    SECRETS_KEY: 'c'.repeat(64),
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  return buildGatewayContext(
    contextOptions(config, createLogger({ level: 'silent', service: 'gateway-client-retry' }), createMetricsRegistry('gateway')),
  );
}

async function serve(deps: GatewayContext): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(createApp(deps));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A port that was free a moment ago and that nobody listens on. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Well-formed, so the gateway looks it up in Postgres (a malformed key is a 401 without a lookup). */
const SOME_KEY = `cds_00000000_${'A'.repeat(43)}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ workers: 0 });
});
afterAll(() => stack.close());

describe('429 RATE_LIMITED on a starter plan (20 requests per second, rate limiting on)', () => {
  let deps: GatewayContext;
  let gateway: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    deps = gatewayDeps(stack.database.url, stack.prefix, true);
    gateway = await serve(deps);
  });
  afterAll(async () => {
    await gateway.close();
    await closeGatewayContext(deps);
  });

  /**
   * Uses up the user's window with 25 concurrent requests right after a window starts (the
   * windows follow the wall clock), so that the call under test lands in the same window. A burst
   * that spread over two windows on a loaded machine (fewer than 5 refused) is sent again.
   */
  async function exhaustWindow(apiKey: string, projectId: string): Promise<void> {
    for (let round = 0; round < 10; round++) {
      const intoWindow = Date.now() % 1000;
      if (intoWindow > 50) await sleep(1000 - intoWindow + 5);
      const statuses = await Promise.all(
        Array.from({ length: 25 }, () =>
          fetch(`${gateway.url}/v1/key/projects/${projectId}/jobs?limit=1`, { headers: { Authorization: `Bearer ${apiKey}` } }).then(
            async (r) => {
              await r.arrayBuffer();
              return r.status;
            },
          ),
        ),
      );
      if (statuses.filter((s) => s === 429).length >= 5) return;
    }
    throw new Error('25 concurrent requests never used up one window in 10 tries');
  }

  it('an idempotent call is retried after Retry-After and succeeds in the next window', async () => {
    const tenant = await stack.tenant({ plan: 'starter' });
    // The window can roll over between exhausting it and the call under test (a slow machine):
    // then the first attempt succeeds and proves nothing, so try again.
    for (let round = 0; round < 3; round++) {
      const { calls, fetch: counting } = countingFetch();
      const client = new CrawlClient({
        apiKey: tenant.apiKey,
        baseUrl: gateway.url,
        fetch: counting,
        retry: { retries: 3, baseDelayMs: 50 },
      });
      await exhaustWindow(tenant.apiKey, tenant.projectId);
      const page = await client.jobs.list(tenant.projectId, { limit: 5 });
      expect(page.pagination.total).toBe(0);
      if (calls[0]!.status !== 429) continue;
      const retryAfter = Number(calls[0]!.retryAfter);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(calls.at(-1)!.status).toBe(200);
      // the SDK waited at least Retry-After seconds before sending again
      expect(calls[1]!.startedAt - calls[0]!.answeredAt!).toBeGreaterThanOrEqual(retryAfter * 1000 - 5);
      return;
    }
    throw new Error('never observed a 429 on the first attempt');
  });

  it('a job creation without an idempotency key is not retried: RATE_LIMITED with retryAfterSeconds', async () => {
    const tenant = await stack.tenant({ plan: 'starter' });
    for (let round = 0; round < 3; round++) {
      const { calls, fetch: counting } = countingFetch();
      const client = new CrawlClient({
        apiKey: tenant.apiKey,
        baseUrl: gateway.url,
        fetch: counting,
        retry: { retries: 3, baseDelayMs: 50 },
      });
      await exhaustWindow(tenant.apiKey, tenant.projectId);
      const result = await client.jobs.create(tenant.projectId, { type: 'details', targets: ['B0RATE0001'] }).catch((e: unknown) => e);
      if (!(result instanceof CrawlApiError)) continue;
      expect(result).toMatchObject({ status: 429, code: 'RATE_LIMITED', attempts: 1, retryAfterSeconds: expect.any(Number) });
      expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(result.details).toMatchObject({ limit: 20 });
      expect(calls).toHaveLength(1);
      return;
    }
    throw new Error('never observed a 429 on the first attempt');
  });

  it('the same creation with autoIdempotency is retried and creates exactly one job', async () => {
    const tenant = await stack.tenant({ plan: 'starter' });
    const { calls, fetch: counting } = countingFetch();
    const client = new CrawlClient({
      apiKey: tenant.apiKey,
      baseUrl: gateway.url,
      fetch: counting,
      retry: { retries: 3, baseDelayMs: 50 },
      autoIdempotency: true,
    });
    await exhaustWindow(tenant.apiKey, tenant.projectId);
    const job = await client.jobs.create(tenant.projectId, { type: 'details', targets: ['B0RATE0002'] });
    expect(job.status).toBe('queued');
    expect(calls.at(-1)!.status).toBe(202);
    await sleep(1000); // a fresh window for the check
    const all = await client.jobs.list(tenant.projectId);
    expect(all.data.map((j) => j.id)).toEqual([job.id]);
  });
});

describe('503 UNAVAILABLE from a gateway whose Postgres is unreachable', () => {
  let deps: GatewayContext;
  let gateway: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    deps = gatewayDeps(`postgres://postgres@127.0.0.1:${await closedPort()}/crawl`, stack.prefix, false);
    gateway = await serve(deps);
  });
  afterAll(async () => {
    await gateway.close();
    await closeGatewayContext(deps);
  });

  it('GET is retried (waiting Retry-After), then the 503 surfaces with its code', async () => {
    const { calls, fetch: counting } = countingFetch();
    const client = new CrawlClient({ apiKey: SOME_KEY, baseUrl: gateway.url, fetch: counting, retry: { retries: 2, baseDelayMs: 10 } });
    const err = await client.jobs.get('job_x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrawlApiError);
    expect(err).toMatchObject({ status: 503, code: 'UNAVAILABLE', attempts: 3, retryAfterSeconds: 1, requestId: expect.any(String) });
    expect(calls.map((c) => c.status)).toEqual([503, 503, 503]);
    for (let i = 1; i < calls.length; i++) expect(calls[i]!.startedAt - calls[i - 1]!.answeredAt!).toBeGreaterThanOrEqual(995);
  });

  it('POST /jobs is retried only with an idempotency key', async () => {
    const { calls, fetch: counting } = countingFetch();
    const client = new CrawlClient({ apiKey: SOME_KEY, baseUrl: gateway.url, fetch: counting, retry: { retries: 1, baseDelayMs: 10 } });
    await expect(client.jobs.create('prj_x', { type: 'details', targets: ['B0X0000001'] })).rejects.toMatchObject({
      status: 503,
      attempts: 1,
    });
    expect(calls).toHaveLength(1);
    await expect(client.jobs.create('prj_x', { type: 'details', targets: ['B0X0000001'] }, { idempotencyKey: 'k1' })).rejects.toMatchObject(
      { status: 503, attempts: 2 },
    );
    expect(calls).toHaveLength(3);
  });
});

describe('network errors (nobody listens on the port)', () => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = `http://127.0.0.1:${await closedPort()}`;
  });

  it('idempotent calls are retried with backoff, then CrawlNetworkError', async () => {
    const { calls, fetch: counting } = countingFetch();
    const client = new CrawlClient({
      apiKey: 'cds_anykey',
      baseUrl,
      fetch: counting,
      retry: { retries: 4, baseDelayMs: 5, maxDelayMs: 40 },
    });
    for (const call of [
      () => client.jobs.get('job_x'),
      () => client.schedules.delete('sch_x'),
      () => client.jobs.cancel('job_x'),
      () => client.jobs.export('job_x', 'csv'),
    ]) {
      calls.length = 0;
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CrawlNetworkError);
      expect(err).toMatchObject({ code: 'NETWORK_ERROR', attempts: 5 });
      expect((err as Error).message).toMatch(/ECONNREFUSED/);
      expect(calls).toHaveLength(5);
      expect(calls.every((c) => c.error !== undefined)).toBe(true);
    }
  });

  it('job creation and retry without a key are sent once; with autoIdempotency they are retried under one key', async () => {
    const { calls, fetch: counting } = countingFetch();
    const plain = new CrawlClient({ apiKey: 'cds_anykey', baseUrl, fetch: counting, retry: { retries: 4, baseDelayMs: 5 } });
    await expect(plain.jobs.create('prj_x', { type: 'search', targets: ['tv'] })).rejects.toMatchObject({
      name: 'CrawlNetworkError',
      attempts: 1,
    });
    await expect(plain.jobs.retry('job_x')).rejects.toMatchObject({ name: 'CrawlNetworkError', attempts: 1 });
    expect(calls).toHaveLength(2);

    const keys: string[] = [];
    const auto = new CrawlClient({
      apiKey: 'cds_anykey',
      baseUrl,
      autoIdempotency: true,
      retry: { retries: 2, baseDelayMs: 5 },
      fetch: (input, init) => {
        keys.push((init?.headers as Record<string, string>)['Idempotency-Key']!);
        return fetch(input, init);
      },
    });
    await expect(auto.jobs.create('prj_x', { type: 'search', targets: ['tv'] })).rejects.toMatchObject({
      name: 'CrawlNetworkError',
      attempts: 3,
    });
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });

  it('a hung server is a TIMEOUT network error', async () => {
    const sockets: net.Socket[] = [];
    const hung = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const client = new CrawlClient({
        apiKey: 'cds_anykey',
        baseUrl: `http://127.0.0.1:${(hung.address() as net.AddressInfo).port}`,
        timeoutMs: 200,
        retry: { retries: 1, baseDelayMs: 5 },
      });
      await expect(client.jobs.get('job_x')).rejects.toMatchObject({ name: 'CrawlNetworkError', code: 'TIMEOUT', attempts: 2 });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => hung.close(resolve));
    }
  });
});
