import { AppError, effectiveKeyScope, hashApiKey, isWellFormedApiKey } from '@crawl/core';
import type { KeyRecord, ProjectPrincipal } from '@crawl/db';
import type { NextFunction, Request, Response } from 'express';
import type { AuthFailureLimiter } from './auth-failures';
import type { Directory } from './directory';
import { type AccountSession, isWrite, loadSession, refuseCrossSite, requireCsrf, type SessionSettings } from './sessions';
import type { AttemptOutcome } from './failure-limiter';
import { principalOf } from './principal';
import { applyRateLimit } from './rate-limit';
import type { RateLimiter } from './rate-limiter';
import { requireRole } from './roles';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Who a `/v1/key` request acts as, in which project (set by `authenticate`, or by `projectAccess` for a session). */
      principal: ProjectPrincipal;
      /** The API key of a key-authenticated request. */
      apiKey?: KeyRecord;
      /** The console session of a cookie-authenticated request. */
      account?: AccountSession;
    }
  }
}

const BEARER_HINT = 'send "Authorization: Bearer <API key>"';

interface AuthDeps {
  directory: Directory;
  authFailures: AuthFailureLimiter;
  sessionSettings: SessionSettings;
}

/**
 * Why the key is refused at `now`, or undefined when it may be used: revoked, expired, its owner
 * disabled by an operator, or its owner no longer a member of its organization (judged on every
 * request, cached entries included).
 */
function refusal(key: KeyRecord, now: Date): string | undefined {
  if (key.revokedAt && key.revokedAt <= now) return 'This API key has been revoked.';
  if (key.expiresAt && key.expiresAt <= now) return `This API key expired at ${key.expiresAt.toISOString()}.`;
  if (key.ownerDisabledAt) return "This API key's owner is disabled: an operator disabled the user who created it.";
  if (!effectiveKeyScope(key)) return "This API key's owner is no longer a member of its organization.";
  return undefined;
}

/** Every Authorization header of the request, as sent (what `req.headersDistinct` gives, without building it for every header). */
function authorizationHeaders(req: Request): string[] {
  const raw = req.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') values.push(raw[i + 1]!);
  }
  return values;
}

/**
 * `/v1/key`: a Bearer API key, or else a console session cookie (docs/accounts.md). A key is
 * always checked first: a valid key is never refused for what its address did. Anything else is
 * a 401 counted against the client's address, or a 429 with Retry-After once the address is
 * over its failure limit (auth-failures.ts). A session's project is only known from the path, so
 * its principal is set per route by `projectAccess`.
 */
export function authenticate(deps: AuthDeps) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // Node keeps only the first of repeated Authorization headers: a request with two is
    // ambiguous (which one did a proxy or the client mean?), so it is refused, not guessed.
    const headers = authorizationHeaders(req);
    if (headers.length > 1) {
      throw new AppError('VALIDATION_ERROR', `Send one Authorization header, not ${headers.length}; ${BEARER_HINT}.`, {
        details: [{ path: 'header.Authorization', message: 'must be sent once' }],
      });
    }
    const header = headers[0];
    if (!header) {
      const session = await loadSession(deps, req);
      if (session) {
        refuseCrossSite(req);
        if (isWrite(req)) requireCsrf(req, session);
        req.account = session;
        return next();
      }
    }
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const keyHash = match && isWellFormedApiKey(match[1]!) ? hashApiKey(match[1]!) : null;
    let failure = 'Invalid API key.';
    const now = new Date();
    // A valid key is never refused for its address's failures (auth-failures.ts): one the
    // directory has cached is accepted without the failure limiter, as the limiter would.
    const cached = keyHash ? deps.directory.cachedKey(keyHash) : undefined;
    // Each key's liveness is judged once: a cached key's verdict is kept for the attempt below.
    const cachedRefusal = cached && refusal(cached, now);
    const outcome: AttemptOutcome<KeyRecord, 'address'> =
      cached && !cachedRefusal
        ? { kind: 'accepted', value: cached }
        : await deps.authFailures.attempt({ address: req.ip ?? req.socket.remoteAddress ?? 'unknown' }, async () => {
            if (!header) failure = `Missing Authorization header (or the console session has ended); ${BEARER_HINT}.`;
            else if (!match) failure = `Malformed Authorization header; ${BEARER_HINT}.`;
            // A well-formed header whose key cannot be ours is an invalid key, not a malformed header.
            if (!keyHash) return undefined;
            const key = cached ?? (await deps.directory.key(keyHash));
            const refused = cached ? cachedRefusal : key && refusal(key, now);
            if (!refused) return key;
            failure = refused;
            return undefined;
          });
    if (outcome.kind === 'limited') {
      const waitSeconds = outcome.retryAfterSeconds;
      throw new AppError('RATE_LIMITED', `Too many failed authentications from this address; retry after ${waitSeconds} s.`, {
        details: { retryAfterSeconds: waitSeconds },
      });
    }
    if (outcome.kind === 'rejected') throw new AppError('UNAUTHORIZED', failure);
    const key = outcome.value;
    // the lesser of the key's scope and its owner's current role (a demoted developer's key reads only)
    const principal = principalOf({ via: 'key', key });
    if (!principal.canWrite && isWrite(req)) {
      throw new AppError(
        'FORBIDDEN',
        key.scope === 'read'
          ? `This API key has the read scope: it may only make GET requests, not ${req.method}.`
          : `This API key may only make GET requests, not ${req.method}: the key's owner is now a ${key.ownerRole} in this organization.`,
      );
    }
    deps.directory.keyUse.seen(key.keyId);
    req.apiKey = key;
    req.principal = principal;
    next();
  };
}

/** The path parameter that tells which project a `/v1/key` route acts in, if any. */
export type ProjectParam = 'projectId' | 'jobId' | 'scheduleId' | 'ruleId' | 'destinationId';

const NOT_FOUND: Record<ProjectParam, string> = {
  projectId: 'Project',
  jobId: 'Job',
  scheduleId: 'Schedule',
  ruleId: 'Alert rule',
  destinationId: 'Destination',
};

/** The project of the job, schedule, alert rule or destination a path names. */
function projectOfResource(directory: Directory, param: Exclude<ProjectParam, 'projectId'>, id: string): Promise<string | undefined> {
  if (param === 'jobId') return directory.projectOfJob(id);
  if (param === 'scheduleId') return directory.projectOfSchedule(id);
  if (param === 'destinationId') return directory.projectOfDestination(id);
  return directory.projectOfAlertRule(id);
}

/**
 * Before every `/v1/key` route. A key: a path naming a project must name the key's own (403).
 * A session: the project comes from the path (the project itself, or the job or schedule it
 * names), must belong to one of the user's organizations (404 otherwise, as for anything of
 * another tenant), and the user's role there decides whether writes are allowed.
 */
export function projectAccess(deps: { directory: Directory; rateLimiter: RateLimiter }, param: ProjectParam | undefined) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const session = req.account;
    if (!session) {
      if (param === 'projectId' && req.params.projectId !== req.principal.projectId) {
        throw new AppError('FORBIDDEN', 'This API key belongs to another project than the one in the path.');
      }
      return next();
    }
    if (!param) throw new AppError('FORBIDDEN', 'This operation describes an API key: call it with the key as a Bearer token.');
    const id = String(req.params[param]);
    const projectId = param === 'projectId' ? id : await projectOfResource(deps.directory, param, id);
    const project = projectId ? await deps.directory.project(projectId) : undefined;
    const what = `${NOT_FOUND[param]} ${id}`;
    if (!project) throw new AppError('NOT_FOUND', `${what} not found.`);
    const role = requireRole(session, project.organizationId, null, what);
    req.principal = principalOf({ via: 'session', userId: session.userId, project, role });
    // limited before the role is judged: a viewer's writes count against their limit too
    await applyRateLimit(deps.rateLimiter, req, res);
    if (isWrite(req)) requireRole(session, project.organizationId, 'data.write', what);
    if (isWrite(req) && project.archivedAt)
      throw new AppError('INVALID_STATE', 'This project is archived: its data can be read, not changed.');
    next();
  };
}
