import { createServer, type Server } from 'node:http';
import { exitOnConfigError } from '@crawl/config';
import { exitOnPortInUse, listenOn } from './listen';
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
    exitOnPortInUse(err); // one line naming the variable, not a stack
    log.fatal({ err }, `${service} failed to start`);
    process.exit(1);
  });
}

/**
 * `/metrics` and `/healthz` on a side port, for services without an HTTP API of their own.
 * Returns at once (callers start it alongside their consumers); a port that cannot be bound
 * prints one line naming `variable` and exits 1, like a bad environment variable, rather than
 * leaving a service running that Prometheus and the orchestrator's probe cannot reach.
 */
export function serveMetrics(port: number, registry: Registry, variable = 'METRICS_PORT'): Server {
  const server = createServer((req, res) => {
    if (req.url === '/metrics') {
      // A collector that throws (e.g. a queue gauge while Redis is down) answers 500 to this
      // scrape; an unhandled rejection here would take the whole worker down with it.
      registry.metrics().then(
        (body) => {
          res.setHeader('content-type', registry.contentType);
          res.end(body);
        },
        (err: unknown) => {
          res.statusCode = 500;
          res.end(`metrics collection failed: ${err instanceof Error ? err.message : String(err)}\n`);
        },
      );
    } else if (req.url === '/healthz') {
      res.setHeader('content-type', 'application/json');
      res.end('{"data":{"status":"ok"}}');
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  listenOn(server, port, variable).catch((err: unknown) => {
    if (!exitOnPortInUse(err)) throw err;
  });
  return server;
}
