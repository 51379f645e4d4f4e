import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId: string;
    }
  }
}

/** Accepts a sane client-sent X-Request-Id (so clients can correlate), else generates one. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const sent = req.get('x-request-id');
  req.requestId = sent && CLIENT_ID.test(sent) ? sent : randomUUID();
  res.setHeader('X-Request-Id', req.requestId);
  next();
}
