import { CrawlApiError, CrawlNetworkError } from './errors';

export const SDK_VERSION = '0.1.0';

export interface RetryOptions {
  /** Retries after the first attempt (so `retries + 1` attempts at most). Default 4; 0 disables. */
  retries?: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseDelayMs * 2^(n-1))]. Default 500. */
  baseDelayMs?: number;
  /** Backoff ceiling. Default 10 000. A `Retry-After` from the server is honoured even when longer. */
  maxDelayMs?: number;
}

export interface TransportOptions {
  /** The headers that authenticate a request: a Bearer API key, or a console session's cookie and CSRF token. */
  credentials: (spec: RequestSpec) => Record<string, string>;
  baseUrl: string;
  fetch: typeof fetch;
  retry: Required<RetryOptions>;
  userAgent: string;
  timeoutMs: number;
}

export type QueryValue = string | number | boolean | Date | undefined | null;

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path under the base URL, starting with `/v1/key/` or `/v1/account/`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  idempotencyKey?: string;
  /**
   * Whether sending the request twice is harmless: GET, PATCH, DELETE and cancel always are;
   * a job-creating POST only with an Idempotency-Key (the server then replays the first answer).
   */
  retryable: boolean;
  /**
   * A 429 or 503 asking to wait longer than this is not waited for: it is thrown at once (with
   * `retryAfterSeconds`), e.g. a spent hourly budget the caller should hear about rather than
   * sleep through. Unset: any wait is honoured.
   */
  maxRetryAfterSeconds?: number;
  signal?: AbortSignal;
}

/** 429 (rate limited) and 503 (backing service down) mean "nothing was done, try later". */
const RETRYABLE_STATUS = new Set([429, 503]);

export function parseRetryAfter(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export { sleep };

/**
 * "fetch failed: ECONNREFUSED". Duck-typed, not `instanceof Error`: fetch's errors can come from
 * another realm (jest sandboxes, vm contexts) where that check is false.
 */
function describe(err: unknown): string {
  const message = (e: unknown) =>
    e && typeof e === 'object' && typeof (e as Error).message === 'string' ? (e as Error).message : String(e);
  const cause = err && typeof err === 'object' ? (err as { cause?: unknown }).cause : undefined;
  const detail = cause && typeof cause === 'object' ? ((cause as { code?: string }).code ?? message(cause)) : undefined;
  return detail && !message(err).includes(detail) ? `${message(err)}: ${detail}` : message(err);
}

/**
 * One HTTP exchange with retries. Retries only what is safe to send again (`spec.retryable`)
 * and only on 429, 503 and network failures: any other 4xx is the caller's to fix, and a 402
 * in particular must never be retried automatically (the API contract says so). Waits `Retry-After` when
 * the server sends it (plus a little jitter, so clients refused in the same window do not all
 * come back at the same instant), else exponential backoff with full jitter.
 */
export class Transport {
  constructor(readonly options: TransportOptions) {}

  url(path: string, query?: Record<string, QueryValue>): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      params.append(key, value instanceof Date ? value.toISOString() : String(value));
    }
    const qs = params.toString();
    return `${this.options.baseUrl}${path}${qs ? `?${qs}` : ''}`;
  }

  /** Sends the request and parses the JSON body (`undefined` for 204). */
  async json<T>(spec: RequestSpec): Promise<T> {
    return this.exchange(spec, true, async (res) => {
      if (res.status === 204) return undefined as T;
      const text = await res.text();
      return (text ? JSON.parse(text) : undefined) as T;
    });
  }

  /** Like `json`, with the response headers (sign-in reads its Set-Cookie). */
  async jsonWithHeaders<T>(spec: RequestSpec): Promise<{ body: T; headers: Headers }> {
    return this.exchange(spec, true, async (res) => {
      const text = res.status === 204 ? '' : await res.text();
      return { body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
    });
  }

  /** Sends the request and hands back the response once its headers arrived (for streaming bodies). */
  async stream(spec: RequestSpec): Promise<Response> {
    return this.exchange(spec, false, async (res) => res);
  }

  private async exchange<T>(spec: RequestSpec, timeBody: boolean, consume: (res: Response) => Promise<T>): Promise<T> {
    const url = this.url(spec.path, spec.query);
    const { retries } = this.options.retry;
    for (let attempt = 1; ; attempt++) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      const mayRetry = spec.retryable && attempt <= retries;
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort(new Error(`no answer within ${this.options.timeoutMs} ms`));
      }, this.options.timeoutMs);
      const onAbort = () => controller.abort(spec.signal!.reason);
      spec.signal?.addEventListener('abort', onAbort, { once: true });
      // A streamed body is read after we return: the caller's signal must still reach it.
      let keepListener = false;
      try {
        let res: Response;
        try {
          res = await this.options.fetch(url, this.init(spec, controller.signal));
          if (!timeBody) clearTimeout(timer);
          if (res.ok) {
            keepListener = !timeBody;
            return await consume(res);
          }
        } catch (err) {
          if (spec.signal?.aborted) throw spec.signal.reason;
          if (err instanceof CrawlApiError || err instanceof SyntaxError) throw err;
          if (mayRetry) {
            await sleep(this.backoff(attempt), spec.signal);
            continue;
          }
          throw new CrawlNetworkError({
            message: `${spec.method} ${url} failed after ${attempt} attempt(s): ${timedOut ? `no answer within ${this.options.timeoutMs} ms` : describe(err)}`,
            code: timedOut ? 'TIMEOUT' : 'NETWORK_ERROR',
            cause: err,
            attempts: attempt,
            method: spec.method,
            url,
          });
        }
        const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
        const waitTooLong = retryAfter !== null && spec.maxRetryAfterSeconds !== undefined && retryAfter > spec.maxRetryAfterSeconds;
        if (mayRetry && RETRYABLE_STATUS.has(res.status) && !waitTooLong) {
          await res.body?.cancel().catch(() => undefined);
          const jitter = Math.random() * Math.min(this.options.retry.baseDelayMs, 1000);
          await sleep(retryAfter !== null ? retryAfter * 1000 + jitter : this.backoff(attempt), spec.signal);
          continue;
        }
        throw await this.apiError(res, spec, url, attempt, retryAfter);
      } finally {
        clearTimeout(timer);
        if (!keepListener) spec.signal?.removeEventListener('abort', onAbort);
      }
    }
  }

  private init(spec: RequestSpec, signal: AbortSignal): RequestInit {
    const headers: Record<string, string> = {
      ...this.options.credentials(spec),
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
    if (spec.idempotencyKey !== undefined) headers['Idempotency-Key'] = spec.idempotencyKey;
    const init: RequestInit = { method: spec.method, headers, signal };
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    return init;
  }

  /** Full jitter (AWS architecture blog): spreads retries of many clients evenly over the window. */
  private backoff(attempt: number): number {
    const { baseDelayMs, maxDelayMs } = this.options.retry;
    return Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  }

  private async apiError(
    res: Response,
    spec: RequestSpec,
    url: string,
    attempts: number,
    retryAfter: number | null,
  ): Promise<CrawlApiError> {
    const text = await res.text().catch(() => '');
    let body: { error?: { code?: unknown; message?: unknown; requestId?: unknown; details?: unknown } } | undefined;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const error = body && typeof body === 'object' && body.error && typeof body.error === 'object' ? body.error : undefined;
    const code = typeof error?.code === 'string' ? error.code : `HTTP_${res.status}`;
    const message =
      typeof error?.message === 'string'
        ? error.message
        : `${spec.method} ${url} answered ${res.status} ${res.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`;
    const details = error?.details;
    const fromDetails = details && typeof details === 'object' ? (details as { retryAfterSeconds?: unknown }).retryAfterSeconds : undefined;
    return new CrawlApiError({
      status: res.status,
      code,
      message,
      details,
      requestId: typeof error?.requestId === 'string' ? error.requestId : res.headers.get('x-request-id'),
      retryAfterSeconds: retryAfter ?? (typeof fromDetails === 'number' ? fromDetails : null),
      attempts,
      method: spec.method,
      url,
    });
  }
}
