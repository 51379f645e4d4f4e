import { createServer } from 'node:http';
import { DEV_SECRETS_KEY } from '@crawl/config';
import { createLogger, createMetricsRegistry, listenOn, serveMetrics, ShutdownRegistry, runServiceMain } from '@crawl/observability';
import { createApp } from './app';
import { type GatewayConfig, loadGatewayConfig } from './config';
import { buildGatewayContext, closeGatewayContext, contextOptions } from './deps';

/** Starts the gateway; returns once it listens. Used by `node dist/main.js` and `pnpm start`. */
export async function startGateway(config: GatewayConfig, shutdown?: ShutdownRegistry) {
  const log = createLogger({ level: config.LOG_LEVEL, service: 'gateway' });
  const registry = shutdown ?? new ShutdownRegistry(log);
  const deps = buildGatewayContext(contextOptions(config, log, createMetricsRegistry('gateway')));
  if (config.SECRETS_KEY === DEV_SECRETS_KEY)
    log.warn('SECRETS_KEY is the development key: set a real one before storing real webhook secrets');
  const server = createServer(createApp(deps));
  // Keep-alive longer than typical load balancers' idle timeout avoids 502s on reused sockets.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;

  registry.add('intake', 'http server', () => {
    return new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  });
  // server.close waits for every open response: exports (which a stalled client could keep
  // open forever) get a grace period, then are cut; their connections then close at once.
  registry.add('intake', 'exports', async () => {
    await deps.exportGate.shutdown();
    server.closeIdleConnections();
  });
  registry.add('connections', 'gateway pools', () => closeGatewayContext(deps));
  // Metrics on their own port (never the API's): unset, none (`pnpm start` serves every
  // service's metrics together on its METRICS_PORT).
  const side = config.METRICS_PORT ? serveMetrics(config.METRICS_PORT, deps.metrics) : null;
  if (side) registry.add('intake', 'metrics server', () => new Promise<void>((resolve) => side.close(() => resolve())));

  // Jobs accepted before Redis is connected would all wait for the reconciler: give it a moment.
  await Promise.race([
    new Promise((resolve) => (deps.redis.status === 'ready' ? resolve(null) : deps.redis.once('ready', resolve))),
    new Promise((resolve) => setTimeout(resolve, 3_000).unref()),
  ]);
  // A taken port rejects with one line naming PORT (printed by runServiceMain or `pnpm start`).
  await listenOn(server, config.PORT, 'PORT');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  log.info({ port }, 'gateway listening');
  return { server, port, deps };
}

if (require.main === module) runServiceMain('gateway', loadGatewayConfig, startGateway);
