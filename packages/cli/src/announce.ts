/** A `Broadcast` (@crawl/redis) on `accountChangesChannel`: the channel every gateway's caches listen on. */
export interface ChangeBroadcast {
  publish(message: string): Promise<void>;
}

/** How a command tells the gateways of what it changed; without a broadcast they learn within AUTH_CACHE_TTL_MS. */
export interface Announcing {
  broadcast?: ChangeBroadcast;
  /** Where a failed broadcast is reported (stderr by default: stdout carries the command's JSON). */
  warn?: (message: string) => void;
}

/**
 * After a change is committed: every gateway forgets its cached entries with these tags
 * (`key:ID`, `user:ID`, `org:ID`; docs/accounts.md, "Caches and revocation"). A Redis that
 * cannot be reached does not fail the command: the change is made, the operator is warned, and
 * the gateways' caches expire within AUTH_CACHE_TTL_MS.
 */
export async function announce(deps: Announcing, tags: string[]): Promise<void> {
  if (!deps.broadcast || !tags.length) return;
  try {
    await deps.broadcast.publish(tags.join(' '));
  } catch (err) {
    const warn = deps.warn ?? ((message: string) => process.stderr.write(`${message}\n`));
    warn(
      `warning: the change is made, but could not tell the gateways (${err instanceof Error ? err.message : String(err)}); ` +
        'they keep what they cached for up to AUTH_CACHE_TTL_MS',
    );
  }
}
