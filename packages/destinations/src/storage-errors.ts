import { BLOCKED_CODE } from '@crawl/webhook-delivery';

/** A storage failure as a tenant may see it: the storage's own code and a message of its own. */
export interface StorageFailure {
  code: string;
  message: string;
}

/** A delivery that cannot be made for a reason of ours (its job gone, its secret unreadable), already in words. */
export class DeliveryFailure extends Error {
  constructor(readonly failure: StorageFailure) {
    super(failure.message);
  }
}

const NETWORK_CODES: Record<string, StorageFailure> = {
  ECONNREFUSED: { code: 'ConnectionRefused', message: 'the endpoint refused the connection' },
  ECONNRESET: { code: 'ConnectionReset', message: 'the endpoint closed the connection' },
  ENOTFOUND: { code: 'EndpointNotFound', message: 'the endpoint host does not resolve' },
  ETIMEDOUT: { code: 'Timeout', message: 'the endpoint did not answer in time' },
  TimeoutError: { code: 'Timeout', message: 'the endpoint did not answer in time' },
  [BLOCKED_CODE]: { code: 'EndpointNotAllowed', message: 'the endpoint does not resolve to an address destinations may write to' },
};

/**
 * What went wrong, in words safe to store and show: an S3 error keeps its code (`AccessDenied`,
 * `NoSuchBucket`, `SignatureDoesNotMatch`, ...) and message; a network failure becomes one
 * of a few fixed answers, never a stack trace, an address or the resolver's words (which would
 * map the operator's network for whoever can name an endpoint).
 */
export function storageFailure(err: unknown): StorageFailure {
  if (err instanceof DeliveryFailure) return err.failure;
  const e = err as { name?: unknown; code?: unknown; message?: unknown; $metadata?: { httpStatusCode?: number }; $fault?: unknown };
  const code = typeof e?.code === 'string' ? e.code : typeof e?.name === 'string' ? e.name : '';
  if (NETWORK_CODES[code]) return NETWORK_CODES[code];
  // the SDK wraps a socket error in one whose message only names its code
  const wrapped = typeof e?.message === 'string' ? /^AWS SDK error wrapper for .*?\b([A-Z][A-Z_]{3,})\b/.exec(e.message)?.[1] : undefined;
  if (wrapped && NETWORK_CODES[wrapped]) return NETWORK_CODES[wrapped];
  if (code === 'EndpointNotAllowed') return { code, message: String(e.message) };
  // an answer of the storage: its code is the SDK error's name
  if (e?.$metadata?.httpStatusCode && typeof e.name === 'string' && /^[A-Za-z.]{2,64}$/.test(e.name))
    return { code: e.name, message: typeof e.message === 'string' ? e.message.slice(0, 300) : e.name };
  return { code: 'StorageError', message: 'the storage could not be reached' };
}
