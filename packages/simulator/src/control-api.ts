/**
 * HTTP control API under `/__sim/` for when the simulator runs as its own process (the chaos
 * run, demos): the same operations as the in-process Simulator methods. These calls are never
 * subject to faults and never appear in the request log, so controlling a run does not
 * disturb what it measures.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultEngine } from './fault-rules';
import type { RequestLog } from './request-log';
import type { ExitStats } from './types';

/** A setting replaced as a whole over PUT (validated by `set`, which throws TypeError) and turned off by DELETE. */
export interface Setting {
  get(): unknown;
  set(value: unknown): void;
}

export interface ControlDeps {
  faults: FaultEngine;
  log: RequestLog;
  latency: Setting;
  antiBot: Setting;
  pages: Setting;
  offersLayout: Setting;
  drift: Setting;
  exits: { list(): ExitStats[]; reset(): void };
  /** Sessions' chosen places (delivery-location.ts): list, expire, and the refused postal codes. */
  locations: { list(): unknown; expire(postalCode: string | null): number; refused: Setting };
  health(): Record<string, unknown>;
}

/** Fault lists are small; anything larger is a mistake, not a rule set. */
const MAX_BODY = 1024 * 1024;

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = status === 204 ? '' : JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(Object.assign(new Error('body too large'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw Object.assign(new Error('body is not valid JSON'), { status: 400 });
  }
}

async function faultsRoute(req: IncomingMessage, res: ServerResponse, deps: ControlDeps): Promise<void> {
  switch (req.method) {
    case 'GET':
      return sendJson(res, 200, deps.faults.list());
    case 'PUT': {
      const rules = await readJson(req);
      if (!Array.isArray(rules)) return sendError(res, 400, 'VALIDATION_ERROR', 'body must be a JSON array of fault rules');
      deps.faults.set(rules);
      return sendJson(res, 200, deps.faults.list());
    }
    case 'POST': {
      // One rule or an array, appended after the existing ones.
      const body = await readJson(req);
      const rules = Array.isArray(body) ? body : [body];
      const merged = [...deps.faults.list(), ...rules];
      deps.faults.set(merged); // validates everything first: a bad rule changes nothing
      return sendJson(res, 200, deps.faults.list());
    }
    case 'DELETE':
      deps.faults.clear();
      return sendJson(res, 204, null);
    default:
      return sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET, PUT, POST or DELETE');
  }
}

function requestsRoute(req: IncomingMessage, res: ServerResponse, deps: ControlDeps): void {
  if (req.method === 'GET') return sendJson(res, 200, deps.log.list());
  if (req.method === 'DELETE') {
    deps.log.reset();
    return sendJson(res, 204, null);
  }
  sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET or DELETE');
}

async function settingRoute(req: IncomingMessage, res: ServerResponse, setting: Setting): Promise<void> {
  switch (req.method) {
    case 'GET':
      return sendJson(res, 200, setting.get());
    case 'PUT':
      setting.set(await readJson(req));
      return sendJson(res, 200, setting.get());
    case 'DELETE':
      setting.set(null);
      return sendJson(res, 204, null);
    default:
      return sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET, PUT or DELETE');
  }
}

function exitsRoute(req: IncomingMessage, res: ServerResponse, deps: ControlDeps): void {
  if (req.method === 'GET') return sendJson(res, 200, deps.exits.list());
  if (req.method === 'DELETE') {
    deps.exits.reset();
    return sendJson(res, 204, null);
  }
  sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET or DELETE');
}

async function locationsRoute(req: IncomingMessage, res: ServerResponse, deps: ControlDeps, pathname: string): Promise<void> {
  if (pathname === '/__sim/locations/refused') return settingRoute(req, res, deps.locations.refused);
  if (pathname === '/__sim/locations/expire') {
    if (req.method !== 'POST') return sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use POST');
    const text = await readBody(req);
    let body: unknown = {};
    try {
      body = text.trim() ? (JSON.parse(text) as unknown) : {};
    } catch {
      return sendError(res, 400, 'VALIDATION_ERROR', 'body is not valid JSON');
    }
    const code = (body as { postalCode?: unknown } | null)?.postalCode ?? null;
    if (typeof body !== 'object' || body === null || (code !== null && (typeof code !== 'string' || !code.trim())))
      return sendError(res, 400, 'VALIDATION_ERROR', 'body must be {} or { "postalCode": "<code>" }');
    return sendJson(res, 200, { expired: deps.locations.expire(code) });
  }
  if (req.method === 'GET') return sendJson(res, 200, deps.locations.list());
  if (req.method === 'DELETE') {
    deps.locations.expire(null);
    return sendJson(res, 204, null);
  }
  sendError(res, 405, 'METHOD_NOT_ALLOWED', 'use GET or DELETE');
}

/** Handles a `/__sim/...` request; always answers (404 for unknown control paths). */
export function handleControl(req: IncomingMessage, res: ServerResponse, deps: ControlDeps): void {
  const pathname = (req.url ?? '/').split('?')[0]!.replace(/\/+$/, '');
  const run = async (): Promise<void> => {
    if (pathname === '/__sim/faults') return faultsRoute(req, res, deps);
    if (pathname === '/__sim/requests') return requestsRoute(req, res, deps);
    if (pathname === '/__sim/latency') return settingRoute(req, res, deps.latency);
    if (pathname === '/__sim/antibot') return settingRoute(req, res, deps.antiBot);
    if (pathname === '/__sim/pages') return settingRoute(req, res, deps.pages);
    if (pathname === '/__sim/offers-layout') return settingRoute(req, res, deps.offersLayout);
    if (pathname === '/__sim/drift') return settingRoute(req, res, deps.drift);
    if (pathname === '/__sim/exits') return exitsRoute(req, res, deps);
    if (pathname === '/__sim/locations' || pathname.startsWith('/__sim/locations/')) return locationsRoute(req, res, deps, pathname);
    if (pathname === '/__sim/health' && (req.method === 'GET' || req.method === 'HEAD')) return sendJson(res, 200, deps.health());
    sendError(res, 404, 'NOT_FOUND', `no control route ${req.method ?? ''} ${pathname}`);
  };
  run().catch((err: unknown) => {
    const status = (err as { status?: number }).status ?? (err instanceof TypeError ? 400 : 500);
    const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL';
    if (!res.headersSent && !res.destroyed) sendError(res, status, code, (err as Error).message);
  });
}
