/**
 * A saved details page re-targeted at any ASIN. The bench serves thousands of 1-1.5 MB pages
 * on two shared cores, so the template's own ASIN is located once at start; each request is
 * then one buffer copy plus a few hundred 10-byte patches, never a regex or string replace
 * over the page.
 */
export class AsinTemplate {
  /** Byte offsets of every occurrence of the template's own ASIN, ascending, non-overlapping. */
  readonly offsets: readonly number[];
  private readonly own: Buffer;

  constructor(
    readonly page: Buffer,
    readonly ownAsin: string,
  ) {
    this.own = Buffer.from(ownAsin, 'utf8');
    const offsets: number[] = [];
    if (this.own.length > 0) {
      for (let at = page.indexOf(this.own); at !== -1; at = page.indexOf(this.own, at + this.own.length)) offsets.push(at);
    }
    this.offsets = offsets;
  }

  /**
   * The page with every occurrence of the template's ASIN replaced by `asin`. Returns the shared
   * template buffer for the template's own ASIN: callers only write it to sockets, never mutate it.
   */
  render(asin: string): Buffer {
    if (asin === this.ownAsin || this.offsets.length === 0) return this.page;
    const value = Buffer.from(asin, 'utf8');
    if (value.length === this.own.length) {
      // Same length (the normal case: ASINs are 10 ASCII chars): patch a copy in place.
      const out = Buffer.allocUnsafe(this.page.length);
      this.page.copy(out);
      for (const at of this.offsets) value.copy(out, at);
      return out;
    }
    // Different length: stitch the unchanged segments around the new value.
    const delta = value.length - this.own.length;
    const out = Buffer.allocUnsafe(this.page.length + delta * this.offsets.length);
    let from = 0;
    let to = 0;
    for (const at of this.offsets) {
      to += this.page.copy(out, to, from, at);
      to += value.copy(out, to);
      from = at + this.own.length;
    }
    this.page.copy(out, to, from);
    return out;
  }
}
