import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { type ContractChecker, createContractChecker, type HeaderValues } from './openapi-contract';

/** Bodies above this are not buffered or validated (exports can stream far more). */
export const MAX_CAPTURED_BODY = 8 * 1024 * 1024;

export type ContractMiddleware = (
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

type WriteArgs = [chunk?: unknown, encoding?: unknown, callback?: unknown];

const CHARSETS: Record<string, BufferEncoding> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
  'us-ascii': 'ascii',
  ascii: 'ascii',
  'utf-16le': 'utf16le',
};

function charsetOf(contentType: string | undefined): BufferEncoding {
  const charset = /;\s*charset="?([^";]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  return (charset && CHARSETS[charset]) || 'utf8';
}

/** Headers passed to `writeHead` directly are not readable through `getHeaders()`. */
function headersOf(passed: unknown): OutgoingHttpHeaders {
  if (Array.isArray(passed)) {
    const out: OutgoingHttpHeaders = {};
    for (let i = 0; i + 1 < passed.length; i += 2) out[String(passed[i]).toLowerCase()] = passed[i + 1] as string;
    return out;
  }
  if (typeof passed !== 'object' || passed === null) return {};
  return Object.fromEntries(Object.entries(passed).map(([k, v]) => [k.toLowerCase(), v as string]));
}

/**
 * Express-compatible middleware that checks every response the app sends against the contract
 * and hands any problems to `onProblems` (e.g. `recordContractProblems`). It wraps `write`/`end`
 * to copy chunks, passing every call through unchanged, so the client gets the same bytes.
 * Checks run on 'finish' only: an aborted stream never finished, so its partial body proves
 * nothing. Compressed bodies and bodies over MAX_CAPTURED_BODY get status and Content-Type
 * checks only. A checker that throws is reported as a problem, never as a server error.
 */
export function contractRecorder(checker: ContractChecker, onProblems: (problems: string[]) => void): ContractMiddleware {
  return (req, res, next) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    let passedHeaders: OutgoingHttpHeaders = {};
    const capture = (chunk: unknown, encoding: unknown) => {
      if (overflow || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk)
            : undefined;
      if (!buffer) return;
      size += buffer.length;
      if (size > MAX_CAPTURED_BODY) {
        overflow = true;
        chunks.length = 0;
      } else chunks.push(buffer);
    };
    const { write, end, writeHead } = res;
    res.write = function (this: ServerResponse, ...args: WriteArgs) {
      capture(args[0], args[1]);
      return (write as (...a: WriteArgs) => boolean).apply(this, args);
    } as typeof res.write;
    res.end = function (this: ServerResponse, ...args: WriteArgs) {
      capture(args[0], args[1]);
      return (end as (...a: WriteArgs) => ServerResponse).apply(this, args);
    } as typeof res.end;
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      passedHeaders = { ...passedHeaders, ...headersOf(typeof args[1] === 'string' ? args[2] : args[1]) };
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.writeHead;

    res.on('finish', () => {
      try {
        const headers = { ...res.getHeaders(), ...passedHeaders } as HeaderValues;
        const contentType = headers['content-type'] === undefined ? undefined : String(headers['content-type']);
        const encoding = headers['content-encoding'];
        const readable = !overflow && (encoding === undefined || String(encoding).toLowerCase() === 'identity');
        const body = readable ? Buffer.concat(chunks).toString(charsetOf(contentType)) : undefined;
        const problems = checker.checkResponse({
          method: req.method ?? 'GET',
          path: req.originalUrl ?? req.url ?? '/',
          status: res.statusCode,
          contentType,
          headers,
          body,
        });
        if (problems.length > 0) onProblems(problems);
      } catch (err) {
        onProblems([
          `contract check of ${req.method} ${req.originalUrl ?? req.url} failed: ${err instanceof Error ? err.message : String(err)}`,
        ]);
      }
    });
    next();
  };
}

/**
 * Problems recorded since the last take. Kept on globalThis under a registered symbol, so the
 * jest setup file and a test that loads this package from another path (src vs dist) share one
 * list; jest gives every test file its own global object, so lists never cross files.
 */
const REGISTRY = Symbol.for('@crawl/testing/contract-problems');
const registry = (): string[] => ((globalThis as Record<symbol, string[] | undefined>)[REGISTRY] ??= []);

/** Records problems for the current test; contract-setup.ts fails the test with them. */
export function recordContractProblems(problems: string[]): void {
  registry().push(...problems);
}

/** The problems recorded since the last call, clearing the list. */
export function takeContractProblems(): string[] {
  return registry().splice(0);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

const apiCheckers = new WeakMap<object, ContractChecker>();

/**
 * The gateway's request handler behind a contract recorder (gateway harness and e2e stack): every
 * response a test receives is checked against `document` (the gateway's `openApiDocument()`),
 * and a problem fails the test that received it (contract-setup.ts). An unknown URL (the hostile
 * and fuzz suites send many) must still get a documented error: 404, what authentication and
 * rate limiting answer before routing (401, 429), or 400 for a path that is not valid
 * percent-encoding. The /docs assets, the console's files and the root's redirect to it are
 * outside the API contract.
 */
export function withApiContract(document: object, app: Handler): Handler {
  let checker = apiCheckers.get(document);
  if (!checker) {
    checker = createContractChecker(document, { unknownPaths: { statuses: [400, 401, 404, 429], schema: 'Error' } });
    apiCheckers.set(document, checker);
  }
  const record = contractRecorder(checker, recordContractProblems);
  return (req, res) => {
    if (req.url === '/' || req.url?.startsWith('/docs/assets/') || /^\/console(\/|\?|$)/.test(req.url ?? '')) return app(req, res);
    record(req, res, () => app(req, res));
  };
}
