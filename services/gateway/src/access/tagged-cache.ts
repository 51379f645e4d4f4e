/**
 * A small TTL cache whose entries carry tags (`key:<id>`, `user:<id>`, `org:<id>`), so that one
 * change forgets every entry it affects: a revoked key, a removed member, an archived project.
 * Authentication runs on every request; this is what keeps it off Postgres (docs/accounts.md,
 * "Caches and revocation"). Misses are not cached: a new key or session works at once.
 */
export class TaggedCache<V> {
  private readonly entries = new Map<string, { value: V; tags: string[]; expiresAt: number }>();
  private readonly byTag = new Map<string, Set<string>>();
  /** Bumped by every forget: a load that started before one is not stored. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  peek(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.expiresAt > this.now() ? hit.value : undefined;
  }

  async get(key: string, load: () => Promise<V | undefined>, tagsOf: (value: V) => string[]): Promise<V | undefined> {
    if (this.ttlMs <= 0) return load();
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    // A forget() while loading must win over the value loaded before it.
    const generation = this.generation;
    const value = await load();
    this.delete(key);
    if (value !== undefined && generation === this.generation) this.set(key, value, tagsOf(value));
    return value;
  }

  /** Forgets every entry tagged `tag`. */
  forget(tag: string): void {
    this.generation++;
    for (const key of this.byTag.get(tag) ?? []) this.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.byTag.clear();
  }

  private set(key: string, value: V, tags: string[]): void {
    if (this.entries.size >= this.maxEntries) this.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, tags, expiresAt: this.now() + this.ttlMs });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
