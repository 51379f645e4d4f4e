/**
 * Forward-proxy exits: each is its own listening port and its own client identity, the way a
 * crawler sees a pool of proxy IPs. An exit accepts both proxy request forms clients use:
 *
 * - absolute-form (`GET http://127.0.0.1:<simPort>/dp/...`), what hpagent's HttpProxyAgent
 *   sends for http targets;
 * - `CONNECT 127.0.0.1:<simPort>` tunnels, what HttpsProxyAgent and real proxies use. The
 *   tunnel is not piped to the main port (the identity would be lost there): the exit answers
 *   `200 Connection Established` and hands the socket to an in-memory http.Server of its own,
 *   so the tunnelled requests are served knowing which exit they came through.
 *
 * Only the simulator itself is served. A request or tunnel for any other host or port gets
 * 403, so an exit can never be used as an open proxy into the machine or the network.
 */
import { hostname } from 'node:os';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Identity } from './anti-bot';

export type ExitHandler = (req: IncomingMessage, res: ServerResponse, identity: Identity) => void;

export interface ExitOptions {
  count: number;
  host: string;
  /** 0: random free ports; otherwise exit i listens on portBase + i. */
  portBase: number;
  simPort: number;
  /** Host names the main server is reached by (IP literals without brackets). */
  simHosts: readonly string[];
  keepAliveMs: number;
  handle: ExitHandler;
}

export interface ExitPool {
  identities: Identity[];
  close(): void;
}

const FORBIDDEN = Buffer.from('403 Forbidden: this exit only serves the simulator\n');
const CONNECT_FORBIDDEN =
  'HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: 51\r\nconnection: close\r\n\r\n403 Forbidden: this exit only serves the simulator\n';

/** Every name a client may use for the simulator on this machine. */
export function simulatorHosts(bound: string, configured: string | undefined): string[] {
  const hosts = new Set(['127.0.0.1', 'localhost', '::1', bound.toLowerCase()]);
  if (configured && configured !== '0.0.0.0' && configured !== '::') hosts.add(configured.toLowerCase());
  // A wildcard bind (own container) is also reached by the machine's name.
  if (configured === '0.0.0.0' || configured === '::') hosts.add(hostname().toLowerCase());
  return [...hosts];
}

/** `host:port` of a CONNECT target, or null when malformed. IPv6 literals come bracketed. */
function splitAuthority(authority: string): { host: string; port: number } | null {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(authority);
  if (!m) return null;
  return { host: (m[1] ?? m[2]!).toLowerCase(), port: Number(m[3]) };
}

function startExit(index: number, options: ExitOptions, sockets: Set<Socket>): Promise<{ identity: Identity; server: Server }> {
  const allowed = new Set(options.simHosts);
  const isSimulator = (host: string, port: number): boolean => port === options.simPort && allowed.has(host);
  let identity: Identity | null = null;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const target = req.url ?? '/';
    if (!target.startsWith('/')) {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        res.writeHead(400, { 'content-length': 0, connection: 'close' }).end();
        return;
      }
      const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
      const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
      if (url.protocol !== 'http:' || !isSimulator(host, port)) {
        res.writeHead(403, { 'content-type': 'text/plain', 'content-length': FORBIDDEN.length }).end(FORBIDDEN);
        return;
      }
      // From here on the request looks like one made to the site itself: faults match paths.
      req.url = `${url.pathname}${url.search}`;
    }
    // Origin-form: a tunnelled request, or a client pointed at the exit port as if it were the site.
    options.handle(req, res, identity!); // set before the port accepts connections
  };

  // Tunnels are parsed by a server that never listens: it only receives sockets from CONNECT.
  const tunnels = createServer(onRequest);
  tunnels.keepAliveTimeout = options.keepAliveMs;
  const server = createServer(onRequest);
  server.keepAliveTimeout = options.keepAliveMs;
  server.headersTimeout = options.keepAliveMs + 5_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const target = splitAuthority(req.url ?? '');
    if (!target || !isSimulator(target.host, target.port)) {
      socket.end(CONNECT_FORBIDDEN);
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) socket.unshift(head);
    tunnels.emit('connection', socket);
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.portBase === 0 ? 0 : options.portBase + index, options.host, () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('exit: unexpected server address'));
      const bound = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
      const host = bound.includes(':') ? `[${bound}]` : bound;
      identity = new Identity(index, address.port, `http://${host}:${address.port}`);
      resolve({ identity, server });
    });
  });
}

/** Opens the exits' ports; on a failure (port taken) the ones already open are closed again. */
export async function startExits(options: ExitOptions): Promise<ExitPool> {
  const sockets = new Set<Socket>();
  const started = await Promise.allSettled(Array.from({ length: options.count }, (_, i) => startExit(i, options, sockets)));
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.server] : []));
  const close = (): void => {
    for (const server of servers) server.close();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    close();
    throw failed.reason;
  }
  return { identities: started.map((s) => (s as PromiseFulfilledResult<{ identity: Identity }>).value.identity), close };
}
