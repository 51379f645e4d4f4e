/**
 * A saved details page re-targeted at any ASIN. The bench serves thousands of 1-1.5 MB pages
 * on two shared cores, so the template's own ASIN is located once at start; each request is
 * then a few hundred 10-byte patches into a recycled copy of the page, never a regex or
 * string replace over the page, and (once warm) no 1.5 MB allocation or copy either.
 */

/** A rendered page and the call that hands its buffer back once the socket is done with it. */
export interface RenderedPage {
  body: Buffer;
  release(): void;
}

const NOOP = (): void => {};

export class AsinTemplate {
  /** Byte offsets of every occurrence of the template's own ASIN, ascending, non-overlapping. */
  readonly offsets: readonly number[];
  private readonly own: Buffer;
  /** Released copies of the page; each differs from `page` only at `offsets`. */
  private readonly free: Buffer[] = [];

  /**
   * @param poolSize copies kept for reuse. A copy is in use from render until its response
   * closes, so this only needs to cover the requests in flight at once (bench: ~8-32).
   */
  constructor(
    readonly page: Buffer,
    readonly ownAsin: string,
    private readonly poolSize = 16,
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

  /**
   * Like render(), from a pool of copies. The caller must not call release() before the body
   * is fully written or abandoned (the response's 'close'), or a later request would patch
   * bytes still being sent. Releasing twice is harmless.
   */
  acquire(asin: string): RenderedPage {
    const value = Buffer.from(asin, 'utf8');
    if (asin === this.ownAsin || this.offsets.length === 0) return { body: this.page, release: NOOP };
    if (value.length !== this.own.length) return { body: this.render(asin), release: NOOP };
    const out = this.free.pop() ?? Buffer.from(this.page);
    for (const at of this.offsets) out.set(value, at);
    let released = false;
    return {
      body: out,
      release: () => {
        if (released) return;
        released = true;
        if (this.free.length < this.poolSize) this.free.push(out);
      },
    };
  }
}
