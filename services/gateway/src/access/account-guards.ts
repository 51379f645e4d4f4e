import { AppError, rateLimitPolicy } from '@crawl/core';
import type { NextFunction, Request, Response } from 'express';
import type { Directory } from './directory';
import type { RateLimiter } from './rate-limiter';
import { type AccountSession, isWrite, loadSession, refuseCrossSite, requireCsrf, type SessionSettings } from './sessions';

/**
 * `/v1/account`, before its routes: a cross-site request is refused, and a session cookie, when
 * present and live, becomes `req.account`. Routes that need it are guarded by `requireSession`.
 */
export function accountSession(deps: { directory: Directory; sessionSettings: SessionSettings }) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    refuseCrossSite(req);
    const session = await loadSession(deps, req);
    if (session) req.account = session;
    next();
  };
}

/**
 * The account API's own rate limit per user (the starter plan's 20 requests a second, whatever the
 * organizations' plans): a counter apart from the project API's, so a busy integration never locks
 * its owner out of the console, and a console script cannot create keys or projects unbounded.
 */
const ACCOUNT_RATE_LIMIT = rateLimitPolicy('starter', null);

/** A `session` route: signed in, within its rate limit, and a write carries the session's CSRF token. */
export function requireSession(deps: { rateLimiter: RateLimiter }) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const session = req.account;
    if (!session) throw new AppError('UNAUTHORIZED', 'Sign in first: POST /v1/account/sessions sets the session cookie.');
    if (isWrite(req)) requireCsrf(req, session);
    const decision = await deps.rateLimiter.check(`${session.userId}:account`, ACCOUNT_RATE_LIMIT);
    if (decision && !decision.allowed) {
      throw new AppError('RATE_LIMITED', `Too many account requests; retry after ${decision.resetSeconds} s.`, {
        details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds },
      });
    }
    next();
  };
}

/** The signed-in user of a `session` route. */
export function sessionOf(req: Request): AccountSession {
  if (!req.account) throw new AppError('UNAUTHORIZED', 'Sign in first.');
  return req.account;
}

/** The client address recorded in the audit log. */
export const clientAddress = (req: Request): string | null => req.ip ?? req.socket.remoteAddress ?? null;
