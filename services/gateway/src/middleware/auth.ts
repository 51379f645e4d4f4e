import { AppError, hashApiKey, isWellFormedApiKey } from '@crawl/core';
import type { KeyPrincipal } from '@crawl/db';
import type { NextFunction, Request, Response } from 'express';
import type { GatewayDeps } from '../deps';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal: KeyPrincipal;
    }
  }
}

const BEARER_HINT = 'send "Authorization: Bearer <API key>"';

/**
 * Bearer API key -> principal (key, project, user, organization plan). The key is always
 * checked first: a valid key is never refused for what its address did. Anything else is a
 * 401 counted against the client's address, or a 429 with Retry-After once the address is
 * over its failure limit (auth-failures.ts).
 */
export function authenticate(deps: Pick<GatewayDeps, 'tenancy' | 'principalCache' | 'authFailures'>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    // Node keeps only the first of repeated Authorization headers: a request with two is
    // ambiguous (which one did a proxy or the client mean?), so it is refused, not guessed.
    const headers = req.headersDistinct.authorization ?? [];
    if (headers.length > 1) {
      throw new AppError('VALIDATION_ERROR', `Send one Authorization header, not ${headers.length}; ${BEARER_HINT}.`, {
        details: [{ path: 'header.Authorization', message: 'must be sent once' }],
      });
    }
    const header = headers[0];
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const keyHash = match && isWellFormedApiKey(match[1]!) ? hashApiKey(match[1]!) : null;
    let failure = 'Invalid API key.';
    const outcome = await deps.authFailures.attempt({ address }, async () => {
      if (!header) failure = `Missing Authorization header; ${BEARER_HINT}.`;
      else if (!match) failure = `Malformed Authorization header; ${BEARER_HINT}.`;
      // A well-formed header whose key cannot be ours is an invalid key, not a malformed header.
      if (!keyHash) return undefined;
      const principal = await deps.principalCache.get(keyHash, (hash) => deps.tenancy.findPrincipalByKeyHash(hash));
      if (principal?.revoked) failure = 'This API key has been revoked.';
      return principal && !principal.revoked ? principal : undefined;
    });
    if (outcome.kind === 'limited') {
      const waitSeconds = outcome.retryAfterSeconds;
      res.setHeader('Retry-After', String(waitSeconds));
      throw new AppError('RATE_LIMITED', `Too many failed authentications from this address; retry after ${waitSeconds} s.`, {
        details: { retryAfterSeconds: waitSeconds },
      });
    }
    if (outcome.kind === 'rejected') throw new AppError('UNAUTHORIZED', failure);
    req.principal = outcome.value;
    next();
  };
}

/** Paths naming a project must name the key's own project (403 otherwise). */
export function requireOwnProject(req: Request, _res: Response, next: NextFunction): void {
  if (req.params.projectId !== req.principal.projectId) {
    throw new AppError('FORBIDDEN', 'This API key belongs to another project than the one in the path.');
  }
  next();
}
