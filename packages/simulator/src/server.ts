/**
 * The simulator's HTTP server: routes page requests, applies fault rules, logs requests and
 * hands `/__sim/` to the control API. node:http only, so it has no runtime dependencies and
 * nothing between the socket and the page buffer.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { handleControl, type ControlDeps } from './control-api';
import { NOT_FOUND_PAGE, statusPage } from './error-pages';
import { FaultEngine } from './fault-rules';
import { defaultFixturesDir, loadPageStore } from './page-store';
import { RequestLog } from './request-log';
import { resolvePage, type RouteOptions } from './routes';
import type { Fault, FaultRule, RequestLogEntry, Simulator, SimulatorOptions } from './types';

const DEFAULT_SEED = 1;
const EMPTY = Buffer.alloc(0);
const SESSION_COOKIE_RE = /(?:^|;)\s*session-id=/;

/**
 * Keep idle keep-alive sockets longer than typical client agents do: if the server closes an
 * idle socket just as a client reuses it, the client sees a spurious ECONNRESET that a bench
 * or chaos run would count as an injected fault.
 */
const KEEP_ALIVE_MS = 65_000;

/** Amazon-shaped session id (`123-1234567-1234567`), unique per simulator instance. */
function sessionIdFactory(): () => string {
  const prefix = 100 + Math.floor(Math.random() * 900);
  let n = Math.floor(Math.random() * 1e9);
  return () => {
    n += 1;
    return `${prefix}-${String(Math.floor(n / 1e7) % 1e7).padStart(7, '0')}-${String(n % 1e7).padStart(7, '0')}`;
  };
}

/** A real TCP RST where supported, so clients see ECONNRESET rather than a clean close. */
function resetSocket(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

function resolveFixturesDir(option: string | null | undefined): string | null {
  if (option === undefined) return defaultFixturesDir();
  if (option !== null && !existsSync(option)) throw new Error(`fixturesDir ${option} does not exist`);
  return option;
}

/**
 * Starts a simulator on 127.0.0.1 (random port by default) and resolves once it is listening.
 * Fixtures are read and indexed before the port opens, so the first request is as fast as the
 * thousandth.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const store = await loadPageStore(resolveFixturesDir(options.fixturesDir), options);
  const routeOptions: RouteOptions = { anyAsin: options.anyAsin ?? true, anyKeyword: options.anyKeyword ?? true };
  const faults = new FaultEngine(options.seed ?? DEFAULT_SEED);
  const log = new RequestLog(options.logLimit ?? 10_000);
  const timers = new Set<NodeJS.Timeout>();
  const nextSessionId = sessionIdFactory();

  const record = (req: IncomingMessage, at: number, status: RequestLogEntry['status']): void => {
    log.push({ method: req.method ?? 'GET', path: req.url ?? '/', status, at, headers: req.headers });
  };

  const send = (req: IncomingMessage, res: ServerResponse, at: number, status: number, body: Buffer, extra?: OutgoingHttpHeaders): void => {
    record(req, at, status);
    const headers: OutgoingHttpHeaders = { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, ...extra };
    // Amazon hands every new visitor a session cookie; a crawler's cookie jar should send it back.
    if (!SESSION_COOKIE_RE.test(req.headers.cookie ?? '')) {
      headers['set-cookie'] = `session-id=${nextSessionId()}; Path=/; Expires=${new Date(Date.now() + 365 * 864e5).toUTCString()}`;
    }
    res.writeHead(status, headers);
    res.end(body);
  };

  const servePage = (req: IncomingMessage, res: ServerResponse, at: number, replace?: [string, string][]): void => {
    const page = resolvePage(store, routeOptions, req.url ?? '/', req.headers);
    if (!page) return send(req, res, at, 404, NOT_FOUND_PAGE);
    if (replace) {
      // Rare (tests of changed products): copy the page once and rewrite the copy.
      let text = page.body.toString('utf8');
      page.release();
      for (const [from, to] of replace) text = text.split(from).join(to);
      return send(req, res, at, 200, Buffer.from(text, 'utf8'));
    }
    // 'close' follows 'finish' (body handed to the kernel) or an aborted connection: either way
    // the pooled buffer is no longer read and may be patched for the next request.
    res.once('close', page.release);
    send(req, res, at, 200, page.body);
  };

  const applyFault = (fault: Fault, req: IncomingMessage, res: ServerResponse, at: number): void => {
    switch (fault.kind) {
      case 'latency': {
        const timer = setTimeout(() => {
          timers.delete(timer);
          servePage(req, res, at);
        }, fault.ms);
        timers.add(timer);
        return;
      }
      case 'status': {
        const retry = fault.status === 429 || fault.status === 503 ? { 'retry-after': '1' } : undefined;
        return send(req, res, at, fault.status, statusPage(fault.status), retry);
      }
      case 'captcha':
        return send(req, res, at, 200, store.captcha);
      case 'not_found':
        return send(req, res, at, 404, NOT_FOUND_PAGE);
      case 'empty':
        return send(req, res, at, 200, EMPTY);
      case 'reset':
        record(req, at, 'reset');
        return resetSocket(req.socket);
      case 'hang':
        // Never answered; close() destroys the socket with every other connection.
        record(req, at, 'hang');
        return;
      case 'rewrite':
        return servePage(req, res, at, fault.replace);
      case 'redirect':
        return send(req, res, at, fault.status ?? 302, EMPTY, { location: fault.location });
    }
  };

  const control: ControlDeps = {
    faults,
    log,
    health: () => ({
      ok: true,
      fixturesDir: store.fixturesDir,
      detailsPages: store.details.size,
      searchKeys: store.searches.size,
      detailsTemplateAsin: store.detailsTemplate?.ownAsin ?? null,
      anyAsin: routeOptions.anyAsin,
      anyKeyword: routeOptions.anyKeyword,
      faults: faults.list().length,
      requests: log.size,
    }),
  };

  const server = createServer((req, res) => {
    const target = req.url ?? '/';
    if (target.startsWith('/__sim/')) return handleControl(req, res, control);
    const at = Date.now();
    const fault = faults.pick(target);
    if (fault) applyFault(fault, req, res, at);
    else servePage(req, res, at);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('simulator: unexpected server address');
  // A wildcard bind is reached through loopback; a URL with 0.0.0.0 is not portable.
  const bound = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  const host = bound.includes(':') ? `[${bound}]` : bound;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    setFaults: (rules: FaultRule[]) => faults.set(rules),
    addFault: (rule: FaultRule) => faults.add(rule),
    clearFaults: () => faults.clear(),
    requests: () => log.list(),
    resetLog: () => log.reset(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        // Hung, delayed and idle keep-alive sockets would otherwise keep close() waiting forever.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
