import { AppError, type ErrorBody, ERROR_STATUS, type ErrorCode } from '@crawl/core';
import { isDbUnavailableError } from '@crawl/db';
import type { Logger } from '@crawl/observability';
import type { NextFunction, Request, Response } from 'express';

/** body-parser errors carry a `type`; each maps to a documented code, never to a 500. */
function fromBodyParser(err: { type?: string; status?: number; encoding?: unknown; charset?: unknown }): AppError | null {
  switch (err.type) {
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is larger than 1 MiB.');
    case 'entity.parse.failed':
      return new AppError('VALIDATION_ERROR', 'Request body is not valid JSON.');
    // A 400 naming what was sent (not a 415: the error codes are a closed set, and a client
    // fixes both the same way, by sending what the message names).
    case 'encoding.unsupported':
      return new AppError(
        'VALIDATION_ERROR',
        `Content-Encoding ${quoted(err.encoding)} is not supported; send the body uncompressed or with gzip, deflate or br.`,
        {
          details: [{ path: 'header.Content-Encoding', message: 'must be identity, gzip, deflate or br' }],
        },
      );
    case 'charset.unsupported':
      return new AppError('VALIDATION_ERROR', `Charset ${quoted(err.charset)} is not supported; the body must be UTF-8 JSON.`, {
        details: [{ path: 'header.Content-Type', message: 'charset must be utf-8' }],
      });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('VALIDATION_ERROR', 'Request body could not be read.');
    default:
      // A body whose Content-Encoding (gzip, deflate, br) does not match its bytes fails in
      // zlib: body-parser passes that on as a bare 400 without a `type`.
      if (err.status === 400)
        return new AppError('VALIDATION_ERROR', 'Request body could not be decoded: it does not match its Content-Encoding.');
      return null;
  }
}

/** A client-sent value in a message: quoted, printable, short. */
function quoted(value: unknown): string {
  return JSON.stringify(
    String(value ?? '')
      .replace(/[^\x20-\x7e]/g, '?')
      .slice(0, 40),
  );
}

/** ioredis errors meaning "Redis is not reachable right now". */
function isRedisUnavailable(err: unknown): boolean {
  const message = err instanceof Error ? err.message : '';
  return /Connection is closed|enableOfflineQueue|MaxRetriesPerRequest|Stream isn't writeable|ECONNREFUSED|timed out/i.test(message);
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  // express's router fails to decode a path parameter such as `%zz` or `%ff` (not UTF-8). Before
  // the body parser's errors: this one also carries status 400, and is about the path.
  if (err instanceof URIError) {
    return new AppError('VALIDATION_ERROR', 'The URL path is not valid percent-encoding (each %XX must encode UTF-8).', {
      details: [{ path: 'path', message: 'must be valid percent-encoded UTF-8' }],
    });
  }
  const parsed = err && typeof err === 'object' ? fromBodyParser(err as { type?: string }) : null;
  if (parsed) return parsed;
  // Safety net behind validation: Postgres refusing a value (SQLSTATE class 22, "data
  // exception": bad encoding, out-of-range number...) is the client's input, not our fault.
  if (err && typeof err === 'object' && /^22/.test(String((err as { code?: unknown }).code ?? ''))) {
    return new AppError('VALIDATION_ERROR', 'A value in the request cannot be stored (invalid text or number).', { cause: err });
  }
  // A deadlock or serialization failure is transient: the client's retry will go through.
  if (err && typeof err === 'object' && ['40P01', '40001'].includes(String((err as { code?: unknown }).code))) {
    return new AppError('UNAVAILABLE', 'The request conflicted with concurrent work; retry it.', { cause: err });
  }
  if (isDbUnavailableError(err) || isRedisUnavailable(err)) {
    return new AppError('UNAVAILABLE', 'A backing service is temporarily unavailable; retry with backoff.', { cause: err });
  }
  return new AppError('INTERNAL', 'Internal error.', { cause: err });
}

/**
 * The codes that tell a client when to retry, with the wait when the error names none. This is
 * the one place Retry-After is written: an error carries its wait as `details.retryAfterSeconds`.
 */
const RETRY_AFTER_DEFAULT: Partial<Record<ErrorCode, number | undefined>> = {
  RATE_LIMITED: undefined,
  UNAVAILABLE: 1,
  IDEMPOTENCY_IN_PROGRESS: undefined,
};

/** Codes whose details are for the header only: the Error schema documents no details for them. */
const HEADER_ONLY_DETAILS = new Set<ErrorCode>(['UNAVAILABLE', 'IDEMPOTENCY_IN_PROGRESS']);

export function sendError(res: Response, requestId: string, err: AppError): void {
  const status = ERROR_STATUS[err.code];
  if (err.code in RETRY_AFTER_DEFAULT) {
    const named = (err.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    const wait = typeof named === 'number' ? named : RETRY_AFTER_DEFAULT[err.code];
    if (wait !== undefined) res.setHeader('Retry-After', String(wait));
  }
  const details = HEADER_ONLY_DETAILS.has(err.code) ? undefined : err.details;
  const body = {
    error: {
      code: err.code,
      message: err.message,
      requestId,
      // `details` is unknown on AppError; errorBodySchema lists the shapes codes carry.
      ...(details !== undefined ? { details: details as NonNullable<ErrorBody['error']['details']> } : {}),
    },
  } satisfies ErrorBody;
  res.status(status).json(body);
}

/** Renders every error as `{error: {code, message, requestId, details?}}`; logs only 5xx. */
export function errorHandler(log: Logger) {
  // express recognizes error middleware by its four parameters
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const appError = toAppError(err);
    if (ERROR_STATUS[appError.code] >= 500) {
      log.error({ err: appError.cause ?? err, requestId: req.requestId, method: req.method, route: req.route?.path }, appError.message);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(res, req.requestId, appError);
  };
}

export function notFound(req: Request): never {
  throw new AppError('NOT_FOUND', `No route ${req.method} ${req.path}.`);
}

export type { ErrorCode };

/** A body sent with another Content-Type would be silently ignored by the JSON parser: refuse it. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && req.body === undefined) {
    throw new AppError('VALIDATION_ERROR', 'Request body must be JSON with "Content-Type: application/json".', {
      details: [{ path: 'header.Content-Type', message: 'must be application/json' }],
    });
  }
  next();
}
