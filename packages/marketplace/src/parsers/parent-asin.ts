/**
 * The variation family's parent ASIN as the page's own data states it. It appears as a JSON key
 * ("parentAsin":"B0…" in the twister, dp-state and image-block data, "parent_asin" in the twister
 * init, HTML-escaped inside data attributes), as a hidden input (name/id "parentASIN") and as a
 * parentASIN= parameter of the page's share links. A standalone product names itself.
 *
 * One regex pass over the page's source finds every spelling (a document-wide DOM query costs
 * more), and each hit is read by the form it takes. Everything looked for is ASCII, so the
 * source's bytes are searched as they are (page/page-source.ts). Keys that merely contain the word are other things:
 * "tasParentAsin" (the media-format family), "batchInfo.parentAsin" (a series bundle).
 */
import type { PageSource } from '../page';
import { ASIN_RE } from './text';

/** Hits examined at most: real pages carry a few dozen (media pages repeat "tasParentAsin" per format). */
const MAX_HITS = 200;

/** The product ASINs an object or URL names beside its parent ("mediaAsin", "productAsin", "asin="). */
const NAMED_ASIN_RE =
  /"(?:asin|mediaAsin|productAsin|landingAsin|currentAsin|current_asin)"\s*:\s*"([A-Z0-9]{10})"|[?&]asin=([A-Z0-9]{10})\b/g;

function unescapeQuotes(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/\\"/g, '"')
    .replace(/&amp;/g, '&');
}

/**
 * The JSON object (from its last "{") or the URL (from its opening quote) around a hit, bounded so
 * a hit inside a huge blob stays cheap.
 */
function contextOf(html: string, start: number, end: number, json: boolean): string {
  const before = html.slice(Math.max(0, start - 600), start);
  const after = html.slice(end, end + 600);
  const open = json ? before.lastIndexOf('{') : Math.max(before.lastIndexOf('"'), before.lastIndexOf("'"));
  const close = json ? after.indexOf('}') : after.search(/["']/);
  return unescapeQuotes(before.slice(Math.max(open, 0)) + html.slice(start, end) + (close >= 0 ? after.slice(0, close + 1) : after));
}

/**
 * True when the object or URL around the hit describes the page's product: it names no other
 * product, or names the page's ASIN, or its parent is the page's ASIN. Carousels of other products
 * carry their own parent ASINs.
 */
function describesPage(context: string, parent: string, asin: string | null): boolean {
  if (!asin || parent === asin) return true;
  let other = false;
  for (const m of context.matchAll(NAMED_ASIN_RE)) {
    const named = m[1] ?? m[2];
    if (named === asin) return true;
    other = true;
  }
  return !other;
}

/** The value a hit at `start` (the "p" of parentAsin) carries, by its syntactic form. */
function valueAt(html: string, start: number, end: number): { value: string; json: boolean } | null {
  const before = html.slice(Math.max(0, start - 8), start);
  const after = html.slice(end, end + 40);
  let m: RegExpExecArray | null;
  // JSON key, plain or escaped: "parentAsin":"X", &quot;parentAsin&quot;:&quot;X, \"parentAsin\":\"X
  if (/(?:"|&quot;|\\")$/.test(before) && (m = /^(?:"|&quot;|\\")\s*:\s*(?:"|&quot;|\\")([A-Z0-9]{10})(?:"|&|\\)/.exec(after)))
    return { value: m[1]!, json: true };
  // URL parameter of the share links: ?parentASIN=X / &amp;parentASIN=X
  if (/[?&;]$/.test(before) && (m = /^=([A-Z0-9]{10})(?![A-Z0-9])/.exec(after))) return { value: m[1]!, json: false };
  // Hidden input or element: name="parentASIN" / id="parentASIN"
  if (/(?:name|id)=["']$/.test(before) && /^["']/.test(after)) {
    const tagStart = html.lastIndexOf('<', start);
    const tagEnd = html.indexOf('>', end);
    if (tagStart < 0 || tagEnd < 0) return null;
    const tag = html.slice(tagStart, tagEnd);
    const attr = /\svalue=["']\s*([A-Z0-9]{10})\s*["']/.exec(tag);
    const text = attr ? null : /^>\s*([A-Z0-9]{10})\s*</.exec(html.slice(tagEnd, tagEnd + 40));
    const value = attr?.[1] ?? text?.[1];
    return value ? { value, json: false } : null;
  }
  return null;
}

/**
 * The parent ASIN the page's data states, or null when it states none (never guessed from the
 * variants or the URL). `asin` is the page's own ASIN, used to tell its data from other products'.
 */
export function extractParentAsin(source: PageSource, asin: string | null): string | null {
  const html = source.raw;
  // A bare literal alternation scans about twice as fast as the full key pattern; the key is checked per hit.
  const hits = /arentA|arent_a/g;
  let hit: RegExpExecArray | null;
  for (let n = 0; n < MAX_HITS && (hit = hits.exec(html)); n++) {
    const key = /^arent(?:Asin|ASIN|_asin)/.exec(html.slice(hit.index, hit.index + 10));
    const start = hit.index - 1;
    const first = html[start];
    // "parentAsin" and "ParentAsin" only as a whole key: not "tasParentAsin", not "batchInfo.parentAsin".
    if (!key || (first !== 'p' && first !== 'P') || /[\p{L}\d_.$]/u.test(html[start - 1] ?? '')) continue;
    const end = hit.index + key[0].length;
    const found = valueAt(html, start, end);
    if (!found || !ASIN_RE.test(found.value)) continue;
    if (describesPage(contextOf(html, start, end, found.json), found.value, asin)) return found.value;
  }
  return null;
}
