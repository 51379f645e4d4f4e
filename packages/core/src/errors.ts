/**
 * The closed set of error codes clients can rely on (docs/http-api.md). One table maps each
 * code to its HTTP status so that services never think in HTTP terms.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  /** A mail token (verification, reset, invitation) that is unknown, used or expired. */
  INVALID_TOKEN: 400,
  /** A storage destination's test write failed: `details.storageCode` is the storage's own code. */
  DESTINATION_UNREACHABLE: 400,
  UNAUTHORIZED: 401,
  /** Sign-in: the same answer for an unknown email and a wrong password. */
  INVALID_CREDENTIALS: 401,
  INSUFFICIENT_CREDITS: 402,
  FORBIDDEN: 403,
  EMAIL_NOT_VERIFIED: 403,
  /** A console session's write without its `X-CSRF-Token`, or a cross-site one. */
  CSRF_REQUIRED: 403,
  NOT_FOUND: 404,
  JOB_NOT_COMPLETE: 409,
  INVALID_STATE: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  IDEMPOTENCY_MISMATCH: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldIssue {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
