import * as dns from 'node:dns';
import { isPrivateAddress } from './address';
import { UNUSABLE_HOST_REASON } from './url-check';

/** The `code` of a connection the guard refused (a private address, or a name that gives none usable). */
export const BLOCKED_CODE = 'ERR_WEBHOOK_BLOCKED';

class BlockedError extends Error {
  readonly code = BLOCKED_CODE;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number) => void;

/**
 * Connection-time SSRF guard: the lookup a socket uses (an agent's or a request's `lookup`), for
 * every connection to a tenant-given host (webhooks, storage endpoints). The address connected
 * to is the one checked here, so DNS changes after config time (and DNS rebinding) cannot reach
 * a private address. Literal-IP hosts skip lookup in Node: callers check them before the
 * request (`staticCheck`).
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback): void {
  let cb: LookupCallback;
  let opts: dns.LookupOptions;
  if (typeof options === 'function') {
    cb = options;
    opts = {};
  } else {
    cb = callback as LookupCallback;
    opts = typeof options === 'number' ? { family: options } : { ...(options ?? {}) };
  }
  const wantAll = opts.all === true;
  dns.lookup(hostname, { ...opts, all: true }, (err, addresses) => {
    // No record, a failed lookup and a private address read the same in the attempt log: the
    // difference would tell a tenant which internal names exist.
    if (err || addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      cb(new BlockedError(UNUSABLE_HOST_REASON));
      return;
    }
    if (wantAll) cb(null, addresses);
    else cb(null, addresses[0]!.address, addresses[0]!.family); // non-empty: checked above
  });
}
