import type { KeyPrincipal } from '@crawl/db';

/**
 * Principals by key hash, for `ttlMs`. Authentication is on every request, and the key ->
 * project -> organization join would otherwise be a Postgres round trip each time.
 * Trade-off: a revoked key or a plan change takes effect within `ttlMs` on each gateway
 * replica (5 s by default, AUTH_CACHE_TTL_MS; 0 disables the cache). Unknown keys are not
 * cached, so a key is usable as soon as it is created.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: KeyPrincipal; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached principal, if any and still fresh; never loads. */
  peek(keyHash: string): KeyPrincipal | undefined {
    const hit = this.entries.get(keyHash);
    return hit && hit.expiresAt > this.now() ? hit.principal : undefined;
  }

  async get(keyHash: string, load: (keyHash: string) => Promise<KeyPrincipal | undefined>): Promise<KeyPrincipal | undefined> {
    if (this.ttlMs <= 0) return load(keyHash);
    const hit = this.entries.get(keyHash);
    if (hit && hit.expiresAt > this.now()) return hit.principal;
    const principal = await load(keyHash);
    this.entries.delete(keyHash);
    if (principal) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(keyHash, { principal, expiresAt: this.now() + this.ttlMs });
    }
    return principal;
  }
}
