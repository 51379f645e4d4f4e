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

/** Bearer API key -> principal (key, project, user, organization plan). 401 for anything else. */
export function authenticate(deps: Pick<GatewayDeps, 'tenancy' | 'principalCache'>) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const header = req.get('authorization');
    if (!header) throw new AppError('UNAUTHORIZED', 'Missing Authorization header; send "Authorization: Bearer <API key>".');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match || !isWellFormedApiKey(match[1]!)) {
      throw new AppError('UNAUTHORIZED', 'Malformed Authorization header; send "Authorization: Bearer <API key>".');
    }
    const principal = await deps.principalCache.get(hashApiKey(match[1]!), (hash) => deps.tenancy.findPrincipalByKeyHash(hash));
    if (!principal) throw new AppError('UNAUTHORIZED', 'Unknown API key.');
    if (principal.revoked) throw new AppError('UNAUTHORIZED', 'This API key has been revoked.');
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
