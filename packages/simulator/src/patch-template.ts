/**
 * A saved page with named slots: every occurrence of some strings (its own ASIN, review ids,
 * the "next page" link) is located once at start, and a request only concatenates the page's
 * segments with the values of its slots. Never a regex or string replace over the page per
 * request.
 */

export interface Needle<S> {
  /** Exact text as it is written in the page (ASCII, or UTF-8 bytes read as latin1). */
  text: string;
  slot: S;
  /** Only occurrences lying within [from, to) of the page's latin1 view. */
  from?: number;
  to?: number;
}

/** A run of a page's bytes to replace: where it starts and how long it is. */
export interface Span {
  at: number;
  length: number;
}

/**
 * `spans` sorted by start (ties by `tie`), dropping any that overlaps an earlier one: the one
 * rule by which every template of the simulator resolves overlapping slots. Sorts in place.
 */
export function disjointSpans<T extends Span>(spans: T[], tie: (a: T, b: T) => number): T[] {
  spans.sort((a, b) => a.at - b.at || tie(a, b));
  const out: T[] = [];
  let end = 0;
  for (const s of spans) {
    if (s.at < end) continue;
    out.push(s);
    end = s.at + s.length;
  }
  return out;
}

interface Patch<S> extends Span {
  slot: S;
}

export class PatchTemplate<S> {
  private readonly patches: Patch<S>[];

  /** `needles` may overlap; an overlap keeps the earlier, then the longer occurrence. */
  constructor(
    readonly page: Buffer,
    needles: Needle<S>[],
  ) {
    const html = page.toString('latin1'); // byte offsets = string offsets
    const found: Patch<S>[] = [];
    for (const { text, slot, from = 0, to = html.length } of needles) {
      if (!text) continue;
      for (let at = html.indexOf(text, from); at !== -1 && at + text.length <= to; at = html.indexOf(text, at + text.length)) {
        found.push({ at, length: text.length, slot });
      }
    }
    this.patches = disjointSpans(found, (a, b) => b.length - a.length);
  }

  /** Slots that occur in the page (after overlaps were resolved). */
  has(slot: S): boolean {
    return this.patches.some((p) => p.slot === slot);
  }

  /** The page with each slot replaced by `value(slot)` (called once per occurrence; cache in the caller if costly). */
  render(value: (slot: S) => Buffer): Buffer {
    const parts: Buffer[] = [];
    let from = 0;
    for (const p of this.patches) {
      parts.push(this.page.subarray(from, p.at), value(p.slot));
      from = p.at + p.length;
    }
    parts.push(this.page.subarray(from));
    return Buffer.concat(parts);
  }
}

/**
 * The "next page" item of Amazon's a-pagination list on review, offer and best-seller pages:
 * `<li class="a-last"><a href=…>Next page…</a></li>`, or on a last page the disabled
 * `<li class="a-disabled a-last">Next page…</li>`. Its text as written and its label; null
 * when the page has none.
 */
export function nextPageItem(html: string): { text: string; label: string } | null {
  const open = Math.max(html.indexOf('<li class="a-last">'), html.indexOf('<li class="a-disabled a-last">'));
  if (open === -1) return null;
  const close = html.indexOf('</li>', open);
  if (close === -1) return null;
  const text = html.slice(open, close + '</li>'.length);
  const label = /<li\b[^>]*>(?:<a\b[^>]*>)?([^<]*)/.exec(text)?.[1]?.trim() || 'Next page';
  return { text, label };
}
