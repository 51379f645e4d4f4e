import { createHash } from 'node:crypto';
import { AppError } from '@crawl/core';
import type { IdempotencyRepository } from '@crawl/db';
import type { Request } from 'express';
import type { HandlerResult } from '../handler-result';

/** A replayed or recovered answer says so; the route adds its own headers after. */
const REPLAYED = { 'Idempotent-Replayed': 'true' } as const;

/**
 * What the route's handler learns about the request's key. The handler passes `key` on to the
 * statement that creates its resource (e.g. `JobService.create`), which records the new row's id
 * on the key in the same transaction: a gateway killed between that commit and storing the
 * response then leaves a key that `recover` can answer from, instead of a second resource.
 */
export interface IdempotencyContext {
  /** The validated Idempotency-Key, or undefined when the request has none. */
  key: string | undefined;
}

export interface IdempotencyOptions<Status extends number = number> {
  /**
   * Rebuilds the 2xx answer for a resource the first request created but never answered
   * (its id was recorded on the key). Undefined when it is not visible yet: the client is told
   * to retry shortly.
   */
  recover(createdId: string, req: Request): Promise<HandlerResult<Status> | undefined>;
}

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Canonical JSON (sorted keys) so that key order in a client's body does not count as "different". */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Stripe's idempotency model, for any authenticated POST: keyed by (project, key) and bound to
 * the request (method, route path and canonical body hash). Only successful (2xx) responses are
 * stored and replayed: an error (validation, 402, 503) releases the key, so a client that fixes
 * the cause (e.g. tops up credits) can retry with the same key rather than be stuck with a
 * replayed error for 24 h.
 *
 * Called by the route after it has validated its input (so a malformed request never holds a
 * key), around the part that has effects. It knows nothing of what the route creates: the
 * route's `handler` gets the key through `IdempotencyContext`, and `recover` answers for a
 * resource created by a request that died before answering.
 */
export async function withIdempotency<Status extends number>(
  idempotency: IdempotencyRepository,
  req: Request,
  options: IdempotencyOptions<Status>,
  handler: (ctx: IdempotencyContext) => Promise<HandlerResult<Status>>,
): Promise<HandlerResult<Status>> {
  const key = req.get('idempotency-key');
  if (key === undefined) return handler({ key: undefined });
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1-255 printable ASCII characters.', {
      details: [{ path: 'header.Idempotency-Key', message: 'must be 1-255 printable ASCII characters' }],
    });
  }
  const projectId = req.principal.projectId;
  const hash = createHash('sha256')
    .update(`${req.method} ${req.baseUrl}${req.path}\n${canonical(req.body ?? null)}`)
    .digest('hex');
  const claim = await idempotency.claim(projectId, key, hash);
  switch (claim.kind) {
    case 'mismatch':
      throw new AppError('IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was used with a different request.');
    case 'in_progress':
      throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress; retry shortly.', {
        details: { retryAfterSeconds: 1 },
      });
    case 'recovered': {
      // The first request created its resource, then lost its answer: answer with that resource.
      const recovered = await options.recover(claim.createdId, req);
      if (!recovered)
        throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress; retry shortly.');
      await idempotency.complete(projectId, key, recovered.status, recovered.body);
      return { status: recovered.status, body: recovered.body, headers: REPLAYED };
    }
    case 'replay':
      // Stored from this route's own 2xx answer to the same request (the hash binds the route).
      return { status: claim.status as Status, body: claim.body, headers: REPLAYED };
    case 'claimed':
      break;
  }
  let result: HandlerResult<Status>;
  try {
    result = await handler({ key });
  } catch (err) {
    await idempotency.release(projectId, key).catch(() => undefined);
    throw err;
  }
  if (result.status >= 200 && result.status < 300) await idempotency.complete(projectId, key, result.status, result.body);
  else await idempotency.release(projectId, key);
  return result;
}
