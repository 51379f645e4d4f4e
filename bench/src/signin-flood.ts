/**
 * The sign-in flood of `pnpm bench signin`, run in a worker thread: its answers, hundreds or
 * thousands a second once the gateway refuses cheaply, are handled apart from the main thread
 * that times the legitimate clients, so the flood's client-side work does not show up as their
 * latency. autocannon, not fetch: fetch costs several times the CPU per request, and on a host
 * whose cores the gateway shares that would weaken the flood and slow the gateway alike.
 */
import { randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

export interface FloodOptions {
  url: string;
  /** The attacker's one client address, sent as X-Forwarded-For. */
  address: string;
  connections: number;
  durationMs: number;
  /** A bound on the requests, whatever the gateway's speed. */
  maxRequests: number;
  /** Each request's own limit: an answer slower than this counts as none. */
  timeoutMs: number;
}

export interface FloodResult {
  requests: number;
  /** Answers by HTTP status, and `error` for requests without one (reset, timed out). */
  statuses: Record<string, number>;
  elapsedMs: number;
}

/** `connections` keep-alive connections, each posting a fresh random email with a wrong password as soon as the last was answered. */
export async function flood(options: FloodOptions): Promise<FloodResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationMs / 1000,
    maxOverallRequests: options.maxRequests,
    timeout: options.timeoutMs / 1000,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': options.address },
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            email: `flood-${randomBytes(8).toString('hex')}@example.com`,
            password: randomBytes(12).toString('base64url'),
          }),
        }),
      },
    ],
  });
  const statuses: Record<string, number> = {};
  // counts come as strings in some autocannon versions
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statuses[status] = Number(count);
  if (result.errors) statuses.error = result.errors; // timeouts included
  const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
  return { requests, statuses, elapsedMs: result.duration * 1000 };
}

if (parentPort) {
  const port = parentPort;
  flood(workerData as FloodOptions).then(
    (result) => port.postMessage(result),
    (err: unknown) => port.postMessage({ error: String(err) }),
  );
}
