import { createLogger, ShutdownRegistry } from '@crawl/observability';
import { createTenant, createTestDatabase, freePort, TEST_REDIS_URL, type TestDatabase, uniquePrefix } from '@crawl/testing';
import { loadGatewayConfig } from '../config';
import { startGateway } from '../main';
import { bearer } from '../test-support/harness';

/**
 * Prometheus metrics are served on METRICS_PORT only: on the public API port they exposed
 * platform-wide counts to anyone, and scrapes competed with API requests.
 */
let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase(process.env.CRAWL_TEST_TEMPLATE!);
});
afterAll(() => database.drop());

async function start(metricsPort: number) {
  const config = loadGatewayConfig({
    DATABASE_URL: database.url,
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: uniquePrefix('gw-metrics'),
    PORT: '0',
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: 'silent',
  });
  const shutdown = new ShutdownRegistry(createLogger({ level: 'silent', service: 'test' }), 600_000);
  const { port, deps } = await startGateway(config, shutdown);
  return { api: `http://127.0.0.1:${port}`, deps, stop: () => shutdown.run('test') };
}

it('answers 404 for /metrics on the API port and serves the gateway series on METRICS_PORT', async () => {
  const metricsPort = await freePort();
  const gateway = await start(metricsPort);
  try {
    const tenant = await createTenant(gateway.deps.db);
    expect((await fetch(`${gateway.api}/v1/key/projects/${tenant.projectId}/jobs`, { headers: bearer(tenant.apiKey) })).status).toBe(200);

    const onApi = await fetch(`${gateway.api}/metrics`);
    expect(onApi.status).toBe(404);
    expect(await onApi.text()).not.toContain('http_requests_total');
    expect((await fetch(`${gateway.api}/metrics?format=text`)).status).toBe(404);

    const side = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(side.status).toBe(200);
    expect(side.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await side.text();
    expect(text).toMatch(
      /^http_requests_total\{method="GET",route="\/v1\/key\/projects\/:projectId\/jobs",status="200",service="gateway"\} [1-9]/m,
    );
    expect(text).toMatch(/^# TYPE queue_jobs gauge$/m);
    expect(text).toMatch(/^# TYPE exports_in_flight gauge$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="gateway"\}/m);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(200);
    // The side port serves nothing of the API.
    expect(
      (await fetch(`http://127.0.0.1:${metricsPort}/v1/key/projects/${tenant.projectId}/jobs`, { headers: bearer(tenant.apiKey) })).status,
    ).toBe(404);
  } finally {
    await gateway.stop();
  }
});

it('serves no metrics at all without METRICS_PORT', async () => {
  const gateway = await start(0);
  try {
    expect((await fetch(`${gateway.api}/metrics`)).status).toBe(404);
    expect((await fetch(`${gateway.api}/healthz`)).status).toBe(200);
  } finally {
    await gateway.stop();
  }
});
