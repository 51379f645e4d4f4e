/**
 * `pnpm start`: every service in one process for development (DESIGN section 1). In
 * production each runs as its own process: `node services/<name>/dist/main.js`.
 * `pnpm start:sim` (`--simulator`) adds the marketplace simulator and crawls it.
 */
import { exitOnConfigError } from '@crawl/config';
import { createLogger, exitOnPortInUse, ShutdownRegistry } from '@crawl/observability';
import { createDemoProjectIfEmpty } from './demo';
import { ALL_USAGE, crawlingBannerLines, parseAllArgs, simulatorEnv, startLocalSimulator } from './simulator';
import { loadGatewayConfig, startGateway } from '@crawl/gateway';
import { loadSchedulerConfig, startScheduler } from '@crawl/scheduler';
import { loadWebhooksConfig, startWebhooks } from '@crawl/webhooks';
import { loadWorkerConfig, startWorker } from '@crawl/worker';

async function main(): Promise<void> {
  let options;
  try {
    options = parseAllArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${ALL_USAGE}\n`);
    process.exit(2);
  }
  if (options.help) {
    process.stdout.write(`${ALL_USAGE}\n`);
    return;
  }
  // Started first: the worker's config takes its origin as MARKETPLACE_ORIGIN_OVERRIDE.
  const simulator = options.simulator ? await startLocalSimulator(options.simulatorPort) : null;
  const { env, defaulted } = simulator ? simulatorEnv(process.env, simulator.url) : { env: process.env, defaulted: [] };
  let gatewayConfig;
  let workerConfig;
  let webhooksConfig;
  let schedulerConfig;
  try {
    schedulerConfig = loadSchedulerConfig(process.env);
    gatewayConfig = loadGatewayConfig(env);
    workerConfig = loadWorkerConfig(env);
    webhooksConfig = loadWebhooksConfig(env);
  } catch (err) {
    exitOnConfigError(err);
  }
  const log = createLogger({ level: gatewayConfig.LOG_LEVEL, service: 'all' });
  const shutdown = new ShutdownRegistry(log);
  shutdown.installSignalHandlers();
  // Closed last, after the workers stopped fetching from it.
  if (simulator) shutdown.add('connections', 'simulator', () => simulator.close());
  const { port } = await startGateway(gatewayConfig, shutdown);
  // In one process the worker and the webhooks service would both bind METRICS_PORT: the
  // worker takes it and the webhooks service the next port.
  const webhooksMetricsPort = webhooksConfig.METRICS_PORT ? webhooksConfig.METRICS_PORT + 1 : 0;
  await startWorker(workerConfig, shutdown);
  await startWebhooks({ ...webhooksConfig, METRICS_PORT: webhooksMetricsPort }, shutdown);
  await startScheduler(schedulerConfig, shutdown);
  const base = `http://localhost:${port}`;
  const demo = await createDemoProjectIfEmpty(gatewayConfig.DATABASE_URL);
  const lines = [
    '',
    `  API      ${base}/v1/key`,
    `  docs     ${base}/docs   (OpenAPI: ${base}/openapi.json)`,
    `  health   ${base}/healthz  ${base}/readyz`,
    `  metrics  ${base}/metrics${workerConfig.METRICS_PORT ? `  worker :${workerConfig.METRICS_PORT}/metrics  webhooks :${webhooksMetricsPort}/metrics` : ''}`,
    ...crawlingBannerLines({
      override: workerConfig.origins.override,
      simulator: simulator !== null,
      exitRps: workerConfig.CRAWL_EXIT_RPS,
      allowPrivateWebhooks: gatewayConfig.WEBHOOK_ALLOW_PRIVATE_URLS,
      defaulted,
    }),
  ];
  if (demo) {
    lines.push(
      '',
      `  demo project ${demo.projectId} (1,000 credits); its API key, shown once:`,
      `    ${demo.apiKey}`,
      '',
      '  first job:',
      `    curl -s -X POST ${base}/v1/key/projects/${demo.projectId}/jobs \\`,
      `      -H 'Authorization: Bearer ${demo.apiKey}' -H 'Content-Type: application/json' \\`,
      `      -d '{"type":"details","targets":["B0DR8G428S"]}'`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err) => {
  exitOnPortInUse(err); // PORT, METRICS_PORT or --simulator-port taken: one line, exit 1
  process.stderr.write(`start failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
