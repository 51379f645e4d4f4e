import { createHash } from 'node:crypto';
import { AppError } from '@crawl/core';
import { toJobResource } from '@crawl/jobs';
import type { Request, Response } from 'express';
import type { GatewayDeps } from '../../deps';

export interface HandlerResult {
  status: number;
  body: unknown;
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
 * Stripe's idempotency model for POSTs that create jobs. Only successful (2xx) responses are
 * stored and replayed: an error (validation, 402, 503) releases the key, so a client that fixes
 * the cause (e.g. tops up credits) can retry with the same key rather than be stuck with a
 * replayed error for 24 h.
 */
export async function withIdempotency(
  deps: Pick<GatewayDeps, 'idempotency' | 'jobs'>,
  req: Request,
  res: Response,
  handler: (idempotencyKey: string | undefined) => Promise<HandlerResult>,
): Promise<HandlerResult> {
  const key = req.get('idempotency-key');
  if (key === undefined) return handler(undefined);
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'Idempotency-Key must be 1-255 printable ASCII characters.', {
      details: [{ path: 'header.Idempotency-Key', message: 'must be 1-255 printable ASCII characters' }],
    });
  }
  const projectId = req.principal.projectId;
  const hash = createHash('sha256').update(`${req.method} ${req.baseUrl}${req.path}\n${canonical(req.body ?? null)}`).digest('hex');
  const claim = await deps.idempotency.claim(projectId, key, hash);
  switch (claim.kind) {
    case 'mismatch':
      throw new AppError('IDEMPOTENCY_MISMATCH', 'This Idempotency-Key was used with a different request.');
    case 'in_progress':
      res.setHeader('Retry-After', '1');
      throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress; retry shortly.');
    case 'recovered': {
      // The first request created the job, then lost its answer: answer with that job.
      const job = await deps.jobs.findInProject(claim.jobId, projectId);
      if (!job) throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still in progress; retry shortly.');
      const recovered = { status: 202, body: { data: toJobResource(job) } };
      await deps.idempotency.complete(projectId, key, recovered.status, recovered.body);
      res.setHeader('Idempotent-Replayed', 'true');
      return recovered;
    }
    case 'replay':
      res.setHeader('Idempotent-Replayed', 'true');
      return { status: claim.status, body: claim.body };
    case 'claimed':
      break;
  }
  let result: HandlerResult;
  try {
    result = await handler(key);
  } catch (err) {
    await deps.idempotency.release(projectId, key).catch(() => undefined);
    throw err;
  }
  if (result.status >= 200 && result.status < 300) await deps.idempotency.complete(projectId, key, result.status, result.body);
  else await deps.idempotency.release(projectId, key);
  return result;
}
