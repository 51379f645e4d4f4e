import type { components, paths } from '@crawl/client/openapi';
import createClient, { type Middleware } from 'openapi-fetch';

/**
 * The console's only way to the service: the public API, typed by the types generated from the
 * gateway's OpenAPI document, so a page cannot use a field or a route the API does not have.
 * The session cookie goes along by itself (same origin); writes carry the session's CSRF token.
 */
export type Schemas = components['schemas'];

let csrfToken: string | null = null;
export const setCsrfToken = (token: string | null) => {
  csrfToken = token;
};

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

const csrf: Middleware = {
  onRequest({ request }) {
    if (!READS.has(request.method) && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(csrf);

/** An error answer of the API, as the console shows it: the code, the message and the request id to quote. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly details: unknown,
  ) {
    super(message);
  }

  /** Field problems of a VALIDATION_ERROR, by field name (`body.targets.2` -> `targets`). */
  fieldErrors(): Record<string, string> {
    if (!Array.isArray(this.details)) return {};
    const out: Record<string, string> = {};
    for (const issue of this.details as Array<{ path?: string; message?: string }>) {
      const field = String(issue.path ?? '').split('.')[1] ?? '';
      if (field && !out[field]) out[field] = issue.message ?? 'is invalid';
    }
    return out;
  }
}

/** The field problems of an error of any kind: none unless it is the API's VALIDATION_ERROR. */
export const fieldErrorsOf = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fieldErrors() : {});

type Result<T> = { data?: T; error?: unknown; response: Response };

/** The data of an answer, or an ApiError: what pages and queries work with. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check your connection and try again.', null, null);
  }
  const { data, error, response } = result;
  if (response.ok) return data as T;
  const body = (error ?? {}) as { error?: { code?: string; message?: string; requestId?: string; details?: unknown } };
  throw new ApiError(
    response.status,
    body.error?.code ?? `HTTP_${response.status}`,
    body.error?.message ?? response.statusText,
    body.error?.requestId ?? response.headers.get('X-Request-Id'),
    body.error?.details ?? null,
  );
}
