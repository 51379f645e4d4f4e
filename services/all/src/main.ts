/**
 * `pnpm start`: every service in one process for development (docs/architecture.md). In
 * production each runs as its own process: `node services/<name>/dist/main.js`.
 * `pnpm start:sim` (`--simulator`) adds the marketplace simulator and crawls it.
 */
import { exitOnConfigError } from '@crawl/config';
import { createServer } from 'node:http';
import {
  createLogger,
  exitOnPortInUse,
  listenOn,
  type MetricsSource,
  metricsRequestHandler,
  PortInUseError,
  ShutdownRegistry,
} from '@crawl/observability';
import { createDemoProjectIfEmpty } from './demo';
import { ALL_USAGE, crawlingBannerLines, parseAllArgs, simulatorEnv, startLocalSimulator } from './simulator';
import { loadGatewayConfig, startGateway } from '@crawl/gateway';
import { loadSchedulerConfig, startScheduler } from '@crawl/scheduler';
import { loadWebhooksConfig, startWebhooks } from '@crawl/webhooks';
import { loadWorkerConfig, startWorker } from '@crawl/worker';

/** METRICS_PORT when the environment does not set it (the Kubernetes and compose port too). */
const DEFAULT_METRICS_PORT = 9464;

/**
 * Serves every service's metrics on METRICS_PORT (9464 when unset; 0 or empty turns it off). An explicit
 * port that is taken stops the start with one line, like PORT; the default one only turns
 * metrics off with a warning, so that two local stacks (or tests) can run side by side.
 */
async function serveAllMetrics(configured: number, sources: MetricsSource[], shutdown: ShutdownRegistry): Promise<number> {
  const explicit = process.env.METRICS_PORT !== undefined;
  const port = explicit ? configured : DEFAULT_METRICS_PORT;
  if (!port) return 0;
  const server = createServer(metricsRequestHandler(sources));
  try {
    await listenOn(server, port, 'METRICS_PORT');
  } catch (err) {
    if (explicit || !(err instanceof PortInUseError)) throw err;
    process.stderr.write(`METRICS_PORT: port ${port} is in use, serving no metrics; set METRICS_PORT to a free port (0: none)\n`);
    return 0;
  }
  shutdown.add('intake', 'metrics server', () => new Promise<void>((resolve) => server.close(() => resolve())));
  return port;
}

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
  // Started by `pnpm start`'s launcher (services/all/launch.mjs), in a process group of its own:
  // if the launcher dies without passing a signal on, stop as if it had sent SIGTERM.
  if (process.channel) {
    process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
    process.channel.unref();
  }
  // Closed last, after the workers stopped fetching from it.
  if (simulator) shutdown.add('connections', 'simulator', () => simulator.close());
  // One /metrics for every service, on METRICS_PORT, never on the API's PORT: each service's
  // own side server stays off, and one server here serves their series together.
  const { port, deps: gateway } = await startGateway({ ...gatewayConfig, METRICS_PORT: 0 }, shutdown);
  const worker = await startWorker({ ...workerConfig, METRICS_PORT: 0 }, shutdown);
  const webhooks = await startWebhooks({ ...webhooksConfig, METRICS_PORT: 0 }, shutdown);
  const metricsPort = await serveAllMetrics(gatewayConfig.METRICS_PORT, [gateway.metrics, worker.metrics, webhooks.metrics], shutdown);
  await startScheduler(schedulerConfig, shutdown);
  const base = `http://localhost:${port}`;
  const demo = await createDemoProjectIfEmpty(gatewayConfig.DATABASE_URL);
  // The console first: it is where a newcomer signs up, makes keys and follows jobs.
  const lines = [
    '',
    `  console  ${base}/console   (sign up there, make keys, follow jobs)`,
    `  API      ${base}/v1/key`,
    `  docs     ${base}/docs   (OpenAPI: ${base}/openapi.json)`,
    `  health   ${base}/healthz  ${base}/readyz`,
    `  metrics  ${metricsPort ? `http://localhost:${metricsPort}/metrics   (every service; METRICS_PORT)` : `off (METRICS_PORT=0, or port ${DEFAULT_METRICS_PORT} in use)`}`,
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
      // the real marketplaces are crawled only by a choice the newcomer made: say so next to the curl
      simulator || workerConfig.origins.override
        ? '  first job:'
        : '  first job (this crawls the real www.amazon.com; `pnpm start:sim` crawls a local simulator):',
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
