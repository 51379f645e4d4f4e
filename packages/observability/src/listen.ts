import type { Server } from 'node:http';

/**
 * A port that cannot be bound. Its message is the one line an operator needs: which variable
 * holds the port and what to do; the service mains print only that line (no stack) and exit 1.
 */
export class PortInUseError extends Error {
  constructor(
    readonly variable: string,
    readonly port: number,
    readonly code: string,
  ) {
    super(
      code === 'EADDRINUSE'
        ? `${variable}: port ${port} is already in use (another process, or another copy of this service, listens on it); stop it or set ${variable} to a free port`
        : `${variable}: cannot listen on port ${port} (${code}); set ${variable} to another port`,
    );
    this.name = 'PortInUseError';
  }
}

const isListenError = (err: unknown): err is NodeJS.ErrnoException & { code: string } =>
  err instanceof Error && ['EADDRINUSE', 'EACCES', 'EADDRNOTAVAIL'].includes((err as NodeJS.ErrnoException).code ?? '');

/**
 * `server.listen(port)` as a promise that rejects with {@link PortInUseError} naming `variable`
 * (`PORT`, `METRICS_PORT`, ...) when the port cannot be bound, instead of an 'error' event that
 * nobody listens to (a bare Node stack trace). Other errors reject as they are.
 */
export function listenOn(server: Server, port: number, variable: string, host?: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (err: unknown) => reject(isListenError(err) ? new PortInUseError(variable, port, err.code) : err);
    server.once('error', onError);
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    if (host === undefined) server.listen(port, onListening);
    else server.listen(port, host, onListening);
  });
}

/** Prints the one line of a {@link PortInUseError} and exits 1; false for any other error. */
export function exitOnPortInUse(err: unknown): boolean {
  if (!(err instanceof PortInUseError)) return false;
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
}
