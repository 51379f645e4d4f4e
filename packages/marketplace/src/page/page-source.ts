/**
 * A page as the parsers read it: its UTF-8 bytes held one per character (a Latin-1 string), not
 * the decoded text.
 *
 * Decoding a page's bytes as Latin-1 is a plain copy, where UTF-8 decoding reads every byte and,
 * as soon as one character falls outside Latin-1 (Amazon's pages all have some), makes a
 * two-byte string twice the page's size that every search and slice then crosses. The markup is
 * the same either way: every byte of a multi-byte UTF-8 character is above 127, so none of them
 * is a "<", a quote or any other character HTML's syntax turns on. What changes is every string
 * taken out of the page (a text, an attribute value, embedded JSON): it holds bytes and is
 * decoded with `utf8` on its way out. See docs/parsing.md.
 */

/** A page as the crawler got it: bytes (UTF-8, as marketplaces serve their pages) or text. */
export type PageBody = string | Uint8Array;

const NON_ASCII = /[^\x00-\x7f]/;

/** Whether a string has a character above 127 (a loop is cheaper than a regex call on short ones). */
function hasNonAscii(s: string): boolean {
  if (s.length > 64) return NON_ASCII.test(s);
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return true;
  return false;
}

/**
 * A slice of a page's source, decoded: the bytes it holds, read as UTF-8 (malformed sequences
 * become U+FFFD as a UTF-8 decoder makes them, and a U+FEFF inside the page stays).
 */
export function utf8(raw: string): string {
  return hasNonAscii(raw) ? Buffer.from(raw, 'latin1').toString('utf8') : raw;
}

export class PageSource {
  private constructor(
    /** The page's bytes, one per character. */
    readonly raw: string,
  ) {}

  /**
   * The source of a page given as bytes (a leading byte order mark dropped, as a UTF-8 decoder
   * does) or as text (its UTF-8 encoding); a source is its own.
   */
  static of(page: PageBody | PageSource): PageSource {
    if (page instanceof PageSource) return page;
    if (typeof page === 'string') return new PageSource(NON_ASCII.test(page) ? Buffer.from(page, 'utf8').toString('latin1') : page);
    const bom = page.length >= 3 && page[0] === 0xef && page[1] === 0xbb && page[2] === 0xbf ? 3 : 0;
    return new PageSource(Buffer.from(page.buffer, page.byteOffset + bom, page.byteLength - bom).toString('latin1'));
  }

  get length(): number {
    return this.raw.length;
  }

  /** The page's text from byte `from` to byte `to`, decoded. */
  text(from = 0, to = this.raw.length): string {
    return utf8(this.raw.slice(from, to));
  }
}

/** What the parsers accept: a page's body or its source. */
export type PageInput = PageBody | PageSource;
