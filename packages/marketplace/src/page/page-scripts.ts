/**
 * The text of a page's <script> elements, where its embedded JSON is: image lists, variation
 * data. A search for a key that a page does not have reads only these texts, a quarter to two
 * fifths of a product page, not the whole 1-2 MB of it (and nothing at all of a page saved
 * without its scripts). docs/parsing.md "Embedded JSON".
 */
import type { PageSource } from './page-source';

export class PageScripts {
  /**
   * `ranges`: where each script's text is in `source`, as [start, end) pairs in document order
   * (the page tree records them, left-out regions included).
   */
  constructor(
    readonly source: PageSource,
    private readonly ranges: readonly number[],
  ) {}

  /** Where `marker` first occurs in a script's text at or after `from` (an index into the source), or -1. */
  indexOf(marker: string, from = 0): number {
    const raw = this.source.raw;
    const ranges = this.ranges;
    for (let k = 0; k < ranges.length; k += 2) {
      const end = ranges[k + 1]!;
      const start = Math.max(ranges[k]!, from);
      if (end - start < marker.length) continue;
      // A slice is a view on the source, not a copy: indexOf reads only this script's text.
      const at = raw.slice(start, end).indexOf(marker);
      if (at >= 0) return start + at;
    }
    return -1;
  }

  /** Whether any script's text holds `marker`. */
  includes(marker: string): boolean {
    return this.indexOf(marker) >= 0;
  }
}
