import type { ApiErrorCode, Job } from './types';

/**
 * The API answered with an error status. `code` is the API's UPPER_SNAKE code (or `HTTP_<status>`
 * when the body was not the API's error shape, e.g. from a proxy in between).
 */
export class CrawlApiError extends Error {
  override readonly name = 'CrawlApiError';
  readonly status: number;
  readonly code: ApiErrorCode | (string & {});
  /** VALIDATION_ERROR: `FieldIssue[]`; INSUFFICIENT_CREDITS: `{balance, cost}`; others vary. */
  readonly details: unknown;
  /** From the body or the `X-Request-Id` header; quote it when reporting a problem. */
  readonly requestId: string | null;
  /** From `Retry-After` (429, 503), whole seconds. */
  readonly retryAfterSeconds: number | null;
  /** HTTP attempts made for this call, retries included. */
  readonly attempts: number;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: unknown;
    requestId: string | null;
    retryAfterSeconds: number | null;
    attempts: number;
    method: string;
    url: string;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts;
    this.method = init.method;
    this.url = init.url;
  }
}

/**
 * No HTTP response: connection refused or reset, DNS failure, timeout, or a response that broke
 * off before its body was read. The request may or may not have reached the server.
 */
export class CrawlNetworkError extends Error {
  override readonly name = 'CrawlNetworkError';
  readonly code: 'NETWORK_ERROR' | 'TIMEOUT';
  readonly attempts: number;
  readonly method: string;
  readonly url: string;

  constructor(init: { message: string; code: 'NETWORK_ERROR' | 'TIMEOUT'; cause: unknown; attempts: number; method: string; url: string }) {
    super(init.message, { cause: init.cause });
    this.code = init.code;
    this.attempts = init.attempts;
    this.method = init.method;
    this.url = init.url;
  }
}

/** `jobs.waitFor` gave up before the job reached a terminal status; `job` is the last one seen. */
export class CrawlWaitTimeoutError extends Error {
  override readonly name = 'CrawlWaitTimeoutError';
  readonly code = 'WAIT_TIMEOUT';
  readonly job: Job;
  constructor(message: string, job: Job) {
    super(message);
    this.job = job;
  }
}

export function isCrawlApiError(err: unknown, code?: string): err is CrawlApiError {
  return err instanceof CrawlApiError && (code === undefined || err.code === code);
}
