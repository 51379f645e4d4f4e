import { AppError, rateLimitPolicy } from '@crawl/core';
import type { NextFunction, Request, Response } from 'express';
import type { RateLimiter } from './rate-limiter';

/**
 * Applies the organization plan's limit to the principal's user and sets X-RateLimit-*. Rate
 * limits count per user, whether the user came with a key or a console session.
 */
export async function applyRateLimit(limiter: RateLimiter, req: Request, res: Response): Promise<void> {
  const { userId, plan, perMinuteLimit } = req.principal;
  const decision = await limiter.check(userId, rateLimitPolicy(plan, perMinuteLimit));
  if (!decision) return;
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
  if (!decision.allowed) {
    throw new AppError(
      'RATE_LIMITED',
      `Rate limit of ${decision.limit} requests per window exceeded; retry after ${decision.resetSeconds} s.`,
      {
        details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds },
      },
    );
  }
}

/**
 * `/v1/key` with an API key: the limit applies before anything else. A console session's
 * organization (and so its plan) is known once its project is, in `projectAccess`.
 */
export function rateLimit(limiter: RateLimiter) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (!req.account) await applyRateLimit(limiter, req, res);
    next();
  };
}
