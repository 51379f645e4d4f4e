/**
 * A saved details page re-targeted at any ASIN. The bench serves thousands of 1-1.5 MB pages
 * on two shared cores, so everything that varies is located once at start: every occurrence
 * of the template's own ASIN, of its product title and of its price. Each request is then a
 * few hundred small patches into a recycled copy of the page, never a regex or string replace
 * over the page, and (once warm) no 1.5 MB allocation or copy either.
 *
 * Title and price keep their byte length (the title is padded with spaces, which every parser
 * trims; the price keeps its digit count), so patching in place stays possible and a page for
 * another ASIN is exactly as long as the template.
 */
import { disjointSpans } from './patch-template';
import { fnv1a } from './prng';

/** A rendered page and the call that hands its buffer back once the socket is done with it. */
export interface RenderedPage {
  body: Buffer;
  release(): void;
}

type Slot = 'asin' | 'title' | 'price' | 'whole' | 'fraction';

interface Patch {
  at: number;
  length: number;
  slot: Slot;
}

const NOOP = (): void => {};
const TITLE_RE = /\bid\s*=\s*["']productTitle["'][^>]*>\s*([^<]*?)\s*</;
const PRICE_SPANS_RE =
  /<span class="a-price-whole">(\d{1,5})<span class="a-price-decimal">([.,])<\/span><\/span><span class="a-price-fraction">(\d\d)<\/span>/;
/** Shorter titles are not varied: too little room for a distinct one. */
const MIN_TITLE = 24;

const BRANDS = ['Acme', 'Zentro', 'Northwind', 'Globex', 'Voltura', 'Kestrel', 'Lumora', 'Brightline', 'Tidewell', 'Orbix'];
const ADJECTIVES = ['Portable', 'Compact', 'Wireless', 'Heavy-Duty', 'Foldable', 'Rechargeable', 'Stainless', 'Ultra-Slim'];
const NOUNS = ['Power Bank', 'Desk Lamp', 'Water Bottle', 'Bluetooth Speaker', 'Backpack', 'Kitchen Scale', 'Phone Stand', 'Travel Mug'];
const VARIANTS = ['2-Pack', 'Black', 'Large', 'with USB-C', 'Upgraded Version', 'Grey', 'Mini', 'Pro'];
const CENTS = ['99', '49', '95', '00', '89', '79', '29', '19'];

function pick<T>(list: readonly T[], hash: number, shift: number): T {
  return list[(hash >>> shift) % list.length]!;
}

/** Deterministic ASCII product title for `asin`, at most `max` bytes (cut at a word). */
export function productTitle(asin: string, max: number): string {
  const h = fnv1a(asin);
  const full = `${pick(BRANDS, h, 0)} ${pick(ADJECTIVES, h, 4)} ${pick(NOUNS, h, 8)}, ${pick(VARIANTS, h, 12)}, Model ${1000 + (fnv1a(`${asin}#m`) % 9000)}`;
  if (full.length <= max) return full;
  const cut = full.lastIndexOf(' ', max);
  return full.slice(0, cut > 0 ? cut : max);
}

/** Deterministic price for `asin` with `digits` digits before the decimal: [whole, cents]. */
export function productPrice(asin: string, digits: number): [string, string] {
  const h = fnv1a(`${asin}#price`);
  const low = digits <= 1 ? 1 : 10 ** (digits - 1);
  const high = 10 ** digits - 1;
  return [String(low + (h % (high - low + 1))), pick(CENTS, h, 16)];
}

function occurrences(page: Buffer, needle: Buffer, into: Patch[], slot: Slot, accept: (at: number) => boolean = () => true): void {
  if (needle.length === 0) return;
  for (let at = page.indexOf(needle); at !== -1; at = page.indexOf(needle, at + needle.length)) {
    if (accept(at)) into.push({ at, length: needle.length, slot });
  }
}

const isDigit = (byte: number | undefined): boolean => byte !== undefined && byte >= 0x30 && byte <= 0x39;

export class AsinTemplate {
  /** Byte offsets of every occurrence of the template's own ASIN, ascending, non-overlapping. */
  readonly offsets: readonly number[];
  private readonly own: Buffer;
  /** Every patch (ASIN, title, price), ascending and non-overlapping. */
  private readonly patches: Patch[];
  private readonly titleLength: number;
  private readonly priceDigits: number;
  private readonly decimal: string;
  /** Released copies of the page; each differs from `page` only at the patches. */
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
    const patches: Patch[] = [];
    occurrences(page, this.own, patches, 'asin');
    this.offsets = patches.map((p) => p.at);
    const html = page.toString('latin1'); // byte offsets = string offsets
    const title = TITLE_RE.exec(html)?.[1] ?? '';
    this.titleLength = title.length >= MIN_TITLE ? title.length : 0;
    if (this.titleLength > 0) occurrences(page, Buffer.from(title, 'latin1'), patches, 'title');
    const price = PRICE_SPANS_RE.exec(html);
    this.priceDigits = price ? price[1]!.length : 0;
    this.decimal = price ? price[2]! : '.';
    if (price) {
      const [spans, whole, decimal, fraction] = price as unknown as [string, string, string, string];
      const wholeAt = spans.indexOf(`>${whole}<`) + 1;
      const fractionAt = spans.lastIndexOf(`>${fraction}<`) + 1;
      const spanPatches: Patch[] = [];
      occurrences(page, Buffer.from(spans, 'latin1'), spanPatches, 'whole');
      for (const p of spanPatches) {
        patches.push({ at: p.at + wholeAt, length: whole.length, slot: 'whole' }, { at: p.at + fractionAt, length: 2, slot: 'fraction' });
      }
      // "35.99" as text or attribute value, but not inside "135.99" or "35.999".
      occurrences(
        page,
        Buffer.from(`${whole}${decimal}${fraction}`, 'latin1'),
        patches,
        'price',
        (at) => !isDigit(page[at - 1]) && !isDigit(page[at + whole.length + 3]),
      );
    }
    this.patches = AsinTemplate.disjoint(patches);
  }

  /** Sorted, dropping any patch that overlaps an earlier one (ASINs inside a title stay ASINs). */
  private static disjoint(patches: Patch[]): Patch[] {
    return disjointSpans(patches, (a) => (a.slot === 'asin' ? -1 : 1));
  }

  private values(asin: string): Record<Slot, Buffer> {
    const [whole, cents] = this.priceDigits > 0 ? productPrice(asin, this.priceDigits) : ['', ''];
    return {
      asin: Buffer.from(asin, 'utf8'),
      title: Buffer.from(this.titleLength > 0 ? productTitle(asin, this.titleLength).padEnd(this.titleLength, ' ') : '', 'latin1'),
      price: Buffer.from(`${whole}${this.decimal}${cents}`, 'latin1'),
      whole: Buffer.from(whole, 'latin1'),
      fraction: Buffer.from(cents, 'latin1'),
    };
  }

  /**
   * The page for `asin`: its ASIN everywhere the template had its own, plus that ASIN's title
   * and price. Returns the shared template buffer for the template's own ASIN: callers only
   * write it to sockets, never mutate it.
   */
  render(asin: string): Buffer {
    if (asin === this.ownAsin || this.patches.length === 0) return this.page;
    const values = this.values(asin);
    if (values.asin.length === this.own.length) return this.patchInto(Buffer.from(this.page), values);
    // Different length: stitch the unchanged segments around the new values.
    const parts: Buffer[] = [];
    let from = 0;
    for (const p of this.patches) {
      parts.push(this.page.subarray(from, p.at), values[p.slot]);
      from = p.at + p.length;
    }
    parts.push(this.page.subarray(from));
    return Buffer.concat(parts);
  }

  private patchInto(out: Buffer, values: Record<Slot, Buffer>): Buffer {
    for (const p of this.patches) out.set(values[p.slot], p.at);
    return out;
  }

  /**
   * Like render(), from a pool of copies. The caller must not call release() before the body
   * is fully written or abandoned (the response's 'close'), or a later request would patch
   * bytes still being sent. Releasing twice is harmless.
   */
  acquire(asin: string): RenderedPage {
    if (asin === this.ownAsin || this.patches.length === 0) return { body: this.page, release: NOOP };
    const values = this.values(asin);
    if (values.asin.length !== this.own.length) return { body: this.render(asin), release: NOOP };
    const out = this.patchInto(this.free.pop() ?? Buffer.from(this.page), values);
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
