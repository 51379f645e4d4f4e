import type { Response } from 'express';

/** Headers of an answer; a list is one header line per value (Set-Cookie). */
export type ResultHeaders = Readonly<Record<string, string | readonly string[]>>;

/**
 * What a route's handler answers; routes/route.ts writes it, so a handler never touches the
 * response. The body is sent as JSON, or as it is with `type` (`'html'`) as its Content-Type,
 * and a 204 has none. The idempotency middleware stores the status and body of a 2xx answer and
 * replays them; headers are the route's to rebuild on every answer (Location, X-Credits-Remaining).
 */
export interface HandlerResult<Status extends number = number> {
  status: Status;
  body?: unknown;
  headers?: ResultHeaders;
  type?: string;
}

/**
 * An answer the handler writes itself because it streams (the job export): the one kind that
 * gets the response, so writing to it anywhere else is a type error, not a second write.
 */
export interface StreamResult {
  stream(res: Response): Promise<void>;
}

export type RouteResult<Status extends number = number> = HandlerResult<Status> | StreamResult;

/**
 * Writes a handler's answer. Headers are appended: one a middleware set before (Set-Cookie) keeps
 * its lines.
 */
export async function writeResult(res: Response, result: RouteResult): Promise<void> {
  if ('stream' in result) return result.stream(res);
  for (const [name, value] of Object.entries(result.headers ?? {})) res.append(name, typeof value === 'string' ? value : [...value]);
  res.status(result.status);
  if (result.status === 204) res.end();
  else if (result.type !== undefined) res.type(result.type).send(result.body);
  else res.json(result.body);
}
