import { createServer, type Server } from 'node:http';
import { exitOnConfigError } from '@crawl/config';
import { createLogger } from './logger';
import type { Registry } from './metrics';
import { ShutdownRegistry } from './shutdown';

/**
 * The `node services/<name>/dist/main.js` entry of every service: parse the environment (one
 * line per bad variable, exit 1), install SIGTERM/SIGINT handling, start, and exit 1 if
 * starting fails.
 */
export function runServiceMain<C extends { LOG_LEVEL: string }>(
  service: string,
  load: (env: Record<string, string | undefined>) => C,
  start: (config: C, shutdown: ShutdownRegistry) => Promise<unknown>,
): void {
  let config: C;
  try {
    config = load(process.env);
  } catch (err) {
    exitOnConfigError(err);
  }
  const log = createLogger({ level: config.LOG_LEVEL, service });
  const shutdown = new ShutdownRegistry(log);
  shutdown.installSignalHandlers();
  start(config, shutdown).catch((err) => {
    log.fatal({ err }, `${service} failed to start`);
    process.exit(1);
  });
}

/** `/metrics` and `/healthz` on a side port, for services without an HTTP API of their own. */
export function serveMetrics(port: number, registry: Registry): Server {
  return createServer(async (req, res) => {
    if (req.url === '/metrics') {
      res.setHeader('content-type', registry.contentType);
      res.end(await registry.metrics());
    } else if (req.url === '/healthz') {
      res.setHeader('content-type', 'application/json');
      res.end('{"data":{"status":"ok"}}');
    } else {
      res.statusCode = 404;
      res.end();
    }
  }).listen(port);
}
