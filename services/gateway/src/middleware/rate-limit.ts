import { AppError, rateLimitPolicy } from '@crawl/core';
import type { NextFunction, Request, Response } from 'express';
import type { RateLimiter } from './rate-limiter';

/** Applies the organization plan's limit to the authenticated user and sets X-RateLimit-*. */
export function rateLimit(limiter: RateLimiter) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const { userId, plan, perMinuteLimit } = req.principal;
    const decision = await limiter.check(userId, rateLimitPolicy(plan, perMinuteLimit));
    if (decision) {
      res.setHeader('X-RateLimit-Limit', String(decision.limit));
      res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
      res.setHeader('X-RateLimit-Reset', String(decision.resetSeconds));
      if (!decision.allowed) {
        res.setHeader('Retry-After', String(decision.resetSeconds));
        throw new AppError(
          'RATE_LIMITED',
          `Rate limit of ${decision.limit} requests per window exceeded; retry after ${decision.resetSeconds} s.`,
          {
            details: { limit: decision.limit, retryAfterSeconds: decision.resetSeconds },
          },
        );
      }
    }
    next();
  };
}
