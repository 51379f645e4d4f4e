import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/** A local HTTP server that records what it is asked for: request targets, and `CONNECT host:port`. */
export interface RecordingServer {
  url: string;
  port: number;
  hits: string[];
  close(): Promise<void>;
}

export type ConnectHandler = (target: string, socket: Duplex) => void;

const refuseConnect: ConnectHandler = (_target, socket) => void socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');

/** A CONNECT proxy's behaviour: tunnels to whatever host:port it is asked for, as a real one does. */
export const tunnelConnect: ConnectHandler = (target, socket) => {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const upstream = net.connect(port, host, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  socket.on('close', () => upstream.destroy());
};

const internalPage = (_req: http.IncomingMessage, res: http.ServerResponse) =>
  void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>internal page</body></html>');

/**
 * Listens on 127.0.0.1 (a canary, a fake marketplace or a proxy in egress tests). By default it
 * answers an "internal page" and refuses CONNECT; `onConnect` makes it a proxy.
 */
export async function startRecordingServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = internalPage,
  onConnect: ConnectHandler = refuseConnect,
): Promise<RecordingServer> {
  const hits: string[] = [];
  const tunnels = new Set<Duplex>();
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    hits.push(`CONNECT ${req.url}`);
    tunnels.add(socket);
    socket.on('error', () => undefined);
    onConnect(req.url ?? '', socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        // Tunnelled sockets are no longer the server's: closeAllConnections does not see them.
        for (const socket of tunnels) socket.destroy();
      }),
  };
}
