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
 * Bearer API key -> principal (key, project, user, organization plan). 401 for anything else,
 * counted against the client's address; an address over its failure limit gets 429 before
 * its key is looked up (auth-failures.ts).
 */
export function authenticate(deps: Pick<GatewayDeps, 'tenancy' | 'principalCache' | 'authFailures'>) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const refuse = async (message: string): Promise<never> => {
      await deps.authFailures.recordFailure(address);
      throw new AppError('UNAUTHORIZED', message);
    };
    const header = req.get('authorization');
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const keyHash = match && isWellFormedApiKey(match[1]!) ? hashApiKey(match[1]!) : null;
    const known = keyHash ? deps.principalCache.peek(keyHash) : undefined;
    if (!known) {
      const waitSeconds = await deps.authFailures.blockedFor(address);
      if (waitSeconds !== null) {
        res.setHeader('Retry-After', String(waitSeconds));
        throw new AppError('RATE_LIMITED', `Too many failed authentications from this address; retry after ${waitSeconds} s.`, {
          details: { retryAfterSeconds: waitSeconds },
        });
      }
    }
    if (!header) return refuse(`Missing Authorization header; ${BEARER_HINT}.`);
    if (!match) return refuse(`Malformed Authorization header; ${BEARER_HINT}.`);
    // A well-formed header whose key cannot be ours is an invalid key, not a malformed header.
    if (!keyHash) return refuse('Invalid API key.');
    const principal = known ?? (await deps.principalCache.get(keyHash, (hash) => deps.tenancy.findPrincipalByKeyHash(hash)));
    if (!principal) return refuse('Invalid API key.');
    if (principal.revoked) return refuse('This API key has been revoked.');
    req.principal = principal;
    next();
  };
}

/** Paths naming a project must name the key's own project (spec 5 rule 3). */
export function requireOwnProject(req: Request, _res: Response, next: NextFunction): void {
  if (req.params.projectId !== req.principal.projectId) {
    throw new AppError('FORBIDDEN', 'This API key belongs to another project than the one in the path.');
  }
  next();
}
