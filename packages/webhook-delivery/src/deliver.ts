import * as http from 'node:http';
import * as https from 'node:https';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import got from 'got';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, WEBHOOK_ID_HEADER, sign } from '@crawl/client';
import { BLOCKED_CODE, guardedLookup } from './guarded-lookup';
import { staticCheck } from './url-check';

export interface DeliveryRequest {
  url: string;
  secret: string;
  /**
   * The secret being rotated out, while its grace period lasts: the request then carries two
   * `v1=` signatures, so a receiver still on the old secret keeps verifying.
   */
  previousSecret?: string | null;
  /** The exact JSON text; sent byte-for-byte (utf-8), never re-serialised. */
  body: string;
  /** X-Service-Event */
  event: string;
  /** X-Service-Delivery (stable across retries) */
  deliveryId: string;
  /** X-Service-Webhook-Id */
  webhookId: string;
  /** Whole request incl. DNS and connect; default 10 000. */
  timeoutMs?: number;
  allowPrivate: boolean;
  /** Unix seconds for the signature; default now. */
  timestamp?: number;
}

export interface DeliveryResult {
  /** 2xx only. */
  success: boolean;
  /** null when no response (timeout, refused, blocked by the SSRF guard). */
  statusCode: number | null;
  durationMs: number;
  /** null on success; e.g. 'HTTP 500', 'timeout after 10000 ms', 'ECONNREFUSED', 'blocked: ...'. */
  error: string | null;
  /**
   * The first SNIPPET_BYTES of the response body as text (null when there was no response), with
   * the signing secrets redacted should a receiver echo them, and NUL characters replaced.
   */
  responseBodySnippet: string | null;
}

export const USER_AGENT = 'CrawlDataService-Webhooks/1.0';
export const DEFAULT_TIMEOUT_MS = 10_000;
/** 1 KiB: enough for a receiver's error message, small enough to keep with every attempt. */
export const SNIPPET_BYTES = 1024;
/** Response bytes read (and discarded) to let the socket go back to the pool; beyond: close it. */
export const MAX_DRAIN_BYTES = 64 * 1024;
/**
 * Keep-alive pool: sockets per receiver origin and in all. Every socket of an origin may stay
 * free between attempts: the deliverer sends in waves (claim, send, log), and closing all but a
 * few sockets between two waves made each wave open most of its connections again. The total
 * bounds the pool; idle sockets close after FREE_SOCKET_TIMEOUT_MS.
 */
export const MAX_SOCKETS_PER_ORIGIN = 32;
export const MAX_TOTAL_SOCKETS = 1024;
export const MAX_FREE_SOCKETS_PER_ORIGIN = MAX_SOCKETS_PER_ORIGIN;
/** Idle keep-alive sockets are closed after this; below the 5 s default of Node servers. */
export const FREE_SOCKET_TIMEOUT_MS = 4_000;

// ---------------------------------------------------------------------------------------------
// Agents: one keep-alive pair per process and per guard mode. The modes never share a pool, so
// a socket opened to a private address for an allowPrivate delivery is never reused for a
// guarded delivery to the same host:port.

function withFreeSocketTimeout<T extends http.Agent>(agent: T): T {
  // The `timeout` agent option would also apply to sockets in use; only idle ones get it here.
  const keepSocketAlive = agent.keepSocketAlive.bind(agent) as (socket: Duplex) => boolean;
  const reuseSocket = agent.reuseSocket.bind(agent);
  agent.keepSocketAlive = ((socket: Duplex): boolean => {
    const keep = keepSocketAlive(socket);
    if (keep) (socket as import('node:net').Socket).setTimeout(FREE_SOCKET_TIMEOUT_MS);
    return keep;
  }) as unknown as http.Agent['keepSocketAlive'];
  agent.reuseSocket = (socket: Duplex, request: http.ClientRequest): void => {
    (socket as import('node:net').Socket).setTimeout(0);
    reuseSocket(socket, request);
  };
  return agent;
}

interface AgentPair {
  http: http.Agent;
  https: https.Agent;
}

function createAgents(): AgentPair {
  const options = {
    keepAlive: true,
    keepAliveMsecs: 1_000,
    maxSockets: MAX_SOCKETS_PER_ORIGIN,
    maxTotalSockets: MAX_TOTAL_SOCKETS,
    maxFreeSockets: MAX_FREE_SOCKETS_PER_ORIGIN,
    scheduling: 'lifo' as const,
  };
  return {
    http: withFreeSocketTimeout(new http.Agent(options)),
    https: withFreeSocketTimeout(new https.Agent(options)),
  };
}

let guardedAgents: AgentPair | undefined;
let openAgents: AgentPair | undefined;

function agentsFor(allowPrivate: boolean): AgentPair {
  if (allowPrivate) return (openAgents ??= createAgents());
  return (guardedAgents ??= createAgents());
}

/** Close all pooled sockets (for tests and graceful shutdown); agents are recreated on demand. */
export function closeDeliveryAgents(): void {
  for (const pair of [guardedAgents, openAgents]) {
    pair?.http.destroy();
    pair?.https.destroy();
  }
  guardedAgents = undefined;
  openAgents = undefined;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

function failure(started: number, error: string): DeliveryResult {
  return { success: false, statusCode: null, durationMs: elapsed(started), error, responseBodySnippet: null };
}

function describeError(err: unknown, timeoutMs: number): string {
  const e = err as { code?: unknown; message?: unknown; name?: unknown } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = typeof e?.message === 'string' ? e.message : String(err);
  if (code === BLOCKED_CODE) return `blocked: ${message}`;
  if (e?.name === 'TimeoutError' || code === 'ETIMEDOUT') return `timeout after ${timeoutMs} ms`;
  if (code !== undefined && code !== 'ERR_GOT_REQUEST_ERROR') return code;
  return message;
}

function decodeSnippet(chunks: Buffer[], secrets: string[]): string {
  const bytes = Buffer.concat(chunks);
  // A multi-byte character cut at the byte limit is dropped, not decoded as U+FFFD.
  let end = bytes.length;
  if (end === SNIPPET_BYTES) {
    let start = end - 1;
    while (start > 0 && start > end - 4 && (bytes[start]! & 0xc0) === 0x80) start--;
    const lead = bytes[start]!;
    const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (start + size > end) end = start;
  }
  let text = bytes
    .subarray(0, end)
    .toString('utf8')
    .replace(/\u0000/g, '\ufffd'); // Postgres text holds no NUL
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return text;
}

function resultForStatus(statusCode: number, started: number, snippet: string): DeliveryResult {
  let error: string | null = null;
  if (statusCode >= 300 && statusCode < 400) error = `redirect not followed (HTTP ${statusCode})`;
  else if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
  return { success: error === null, statusCode, durationMs: elapsed(started), error, responseBodySnippet: snippet };
}

/**
 * One signed POST attempt. Never throws: every failure is a result.
 *
 * Success is decided by the status line (2xx). The response body is then read and discarded
 * (its first SNIPPET_BYTES are kept) so the keep-alive socket returns to the pool; a body over
 * 64 KB is not read further and its connection is closed instead. If the body fails or times
 * out after the status arrived, the result still follows the status.
 */
export async function deliverWebhook(req: DeliveryRequest): Promise<DeliveryResult> {
  const started = performance.now();
  const timeoutMs =
    typeof req?.timeoutMs === 'number' && Number.isFinite(req.timeoutMs) && req.timeoutMs > 0
      ? Math.ceil(req.timeoutMs)
      : DEFAULT_TIMEOUT_MS;
  try {
    const allowPrivate = req.allowPrivate === true;
    const checked = staticCheck(req.url, allowPrivate);
    if (!checked.ok) return failure(started, `blocked: ${checked.reason}`);
    if (typeof req.body !== 'string') return failure(started, 'invalid request: body must be a string');

    const body = Buffer.from(req.body, 'utf8');
    const timestamp = req.timestamp ?? Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      [SIGNATURE_HEADER]: sign(req.previousSecret ? [req.secret, req.previousSecret] : req.secret, body, timestamp),
      [EVENT_HEADER]: req.event,
      [DELIVERY_HEADER]: req.deliveryId,
      [WEBHOOK_ID_HEADER]: req.webhookId,
    };

    const stream = got.stream(checked.target.url.toString(), {
      method: 'POST',
      body,
      headers,
      timeout: { request: timeoutMs },
      retry: 0,
      throwHttpErrors: false,
      followRedirect: false,
      decompress: false, // no accept-encoding: no decompression work or bombs
      http2: false,
      agent: agentsFor(allowPrivate),
      // got 11 passes `lookup` to http.request (got 12+ calls it `dnsLookup`).
      ...(allowPrivate ? {} : { lookup: guardedLookup as never }),
    });

    return await new Promise<DeliveryResult>((resolve) => {
      let statusCode: number | null = null;
      const chunks: Buffer[] = [];
      let kept = 0;
      let total = 0;
      let done = false;
      const finish = (err: unknown): void => {
        if (done) return;
        done = true;
        if (statusCode === null) resolve(failure(started, describeError(err, timeoutMs)));
        else resolve(resultForStatus(statusCode, started, decodeSnippet(chunks, [req.secret, req.previousSecret ?? ''])));
      };
      stream.on('response', (res: http.IncomingMessage) => {
        statusCode = res.statusCode ?? null;
      });
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (kept < SNIPPET_BYTES) {
          const part = Buffer.from(chunk.subarray(0, SNIPPET_BYTES - kept));
          chunks.push(part);
          kept += part.length;
        }
        if (total > MAX_DRAIN_BYTES && !done) {
          finish(null);
          stream.destroy(); // do not read an oversized body: drop this connection instead
        }
      });
      stream.on('end', () => finish(null));
      stream.on('error', (err: unknown) => finish(err));
    });
  } catch (err) {
    // Programmer errors: bad secret/timestamp (sign), invalid header characters, ...
    const message = err instanceof Error ? err.message : String(err);
    return failure(started, `invalid request: ${message}`);
  }
}
