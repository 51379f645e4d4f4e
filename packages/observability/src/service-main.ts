import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

/** Where a `/metrics` answer comes from: a registry, or a function giving Prometheus text. */
export type MetricsSource = Registry | (() => Promise<string>);

const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Several services' Prometheus texts as one exposition: a metric family that more than one
 * of them exports (the process metrics every registry collects, each with its own `service`
 * label) gets its HELP and TYPE once, followed by every service's samples. Scrapers refuse a
 * family declared twice.
 */
export function combineMetricsText(texts: string[]): string {
  const families = new Map<string, { header: string[]; samples: string[] }>();
  for (const text of texts) {
    let current: { header: string[]; samples: string[] } | undefined;
    for (const line of text.split('\n')) {
      if (!line) continue;
      const declared = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (declared) {
        const name = declared[2]!;
        current = families.get(name);
        if (!current) families.set(name, (current = { header: [], samples: [] }));
        if (!current.header.some((h) => h.startsWith(`# ${declared[1]} `))) current.header.push(line);
        continue;
      }
      if (current) current.samples.push(line);
    }
  }
  return [...families.values()].map((f) => [...f.header, ...f.samples].join('\n')).join('\n') + '\n';
}

/** The handler of a metrics side server: `/metrics` (every source, combined) and `/healthz`. */
export function metricsRequestHandler(sources: MetricsSource[]) {
  const collect = async (): Promise<string> => {
    const texts = await Promise.all(sources.map((s) => (typeof s === 'function' ? s() : s.metrics())));
    return texts.length === 1 ? texts[0]! : combineMetricsText(texts);
  };
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.url === '/metrics') {
      // A collector that throws (e.g. a queue gauge while Redis is down) answers 500 to this
      // scrape; an unhandled rejection here would take the whole process down with it.
      collect().then(
        (body) => {
          res.setHeader('content-type', PROMETHEUS_CONTENT_TYPE);
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
  };
}

/**
 * `/metrics` and `/healthz` on a side port (METRICS_PORT), never on a public API port: the
 * metrics show platform-wide counts, and scrapes must not compete with API requests. Returns
 * at once (callers start it alongside their consumers); a port that cannot be bound prints one
 * line naming `variable` and exits 1, like a bad environment variable, rather than leaving a
 * service running that Prometheus and the orchestrator's probe cannot reach. Several sources
 * (`pnpm start`, every service in one process) are served as one exposition.
 */
export function serveMetrics(port: number, sources: MetricsSource | MetricsSource[], variable = 'METRICS_PORT'): Server {
  const server = createServer(metricsRequestHandler(Array.isArray(sources) ? sources : [sources]));
  listenOn(server, port, variable).catch((err: unknown) => {
    if (!exitOnPortInUse(err)) throw err;
  });
  return server;
}
