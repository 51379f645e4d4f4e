import { type RetryOptions, type RequestSpec, SDK_VERSION, Transport } from './transport';

/** How to reach the API: shared by the API-key client and the console-session account client. */
export interface ConnectionOptions {
  /** API origin, without `/v1/key`. Default `http://localhost:8080`. */
  baseUrl?: string;
  /** A fetch implementation (to instrument or proxy requests). Default: Node's global fetch. */
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /** Prepended to the SDK's own User-Agent, e.g. `price-monitor/2.1`. */
  userAgent?: string;
  /** Per attempt: until the response headers (exports) or the whole JSON body. Default 30 000. */
  timeoutMs?: number;
}

/** Validates the options and builds the transport that sends `credentials` with every request. */
export function openTransport(options: ConnectionOptions, credentials: (spec: RequestSpec) => Record<string, string>): Transport {
  const baseUrl = (options.baseUrl ?? 'http://localhost:8080').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(baseUrl)) throw new TypeError(`baseUrl must be an http(s) URL, got ${JSON.stringify(options.baseUrl)}`);
  const retry = { retries: 4, baseDelayMs: 500, maxDelayMs: 10_000, ...stripUndefined(options.retry ?? {}) };
  if (!(retry.retries >= 0) || !(retry.baseDelayMs >= 0) || !(retry.maxDelayMs >= 0))
    throw new TypeError('retry options must be non-negative numbers');
  const sdkAgent = `crawl-client-js/${SDK_VERSION} node/${process.version}`;
  return new Transport({
    credentials,
    baseUrl,
    fetch: options.fetch ?? globalThis.fetch,
    retry,
    userAgent: options.userAgent ? `${options.userAgent} ${sdkAgent}` : sdkAgent,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
