/**
 * DOM/text helpers shared by the detail and search parsers.
 * Pages are parsed into htmlparser2's tree (by the page engine, ../page, which builds the same
 * tree much faster) and queried through cheerio. htmlparser2's rules parse <noscript> bodies as markup,
 * which is where several book layouts keep their description.
 */
import { type DomNode, type PageScripts, type PageSource, type Sel, utf8 } from '../page';

/** The main fields of an item that its page did not show (null): the item's `missingFields`, in the order given. */
export function nullFields<T extends object>(item: T, fields: readonly (keyof T & string)[]): string[] {
  return fields.filter((f) => item[f] === null);
}

/**
 * Collapses whitespace and removes invisible marks. Amazon's detail bullets
 * put U+200F/U+200E around the ":" separators, and prices use NBSP / narrow NBSP.
 */
export function clean(s: string | null | undefined): string {
  if (!s) return '';
  return s
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060\ufeff]/g, '')
    .replace(/[\s\u00a0\u2007\u202f]+/g, ' ')
    .trim();
}

const SKIP_TAGS = new Set(['script', 'style', 'template']);
const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
]);

function collect(node: DomNode, out: string[], blocks: boolean): void {
  if (node.type === 'text') {
    // Source newlines are formatting; in block mode only element boundaries break lines.
    const data = node.data ?? '';
    out.push(blocks ? data.replace(/[\r\n]+/g, ' ') : data);
    return;
  }
  if (node.type !== 'tag' && node.type !== 'root') return;
  const name: string | undefined = node.name;
  if (name && SKIP_TAGS.has(name)) return;
  const isBlock = blocks && name !== undefined && BLOCK_TAGS.has(name);
  if (isBlock) out.push('\n');
  const kids = node.children;
  if (kids) for (const k of kids) collect(k, out, blocks);
  if (isBlock) out.push('\n');
}

/** Visible text of the selection (script/style bodies excluded), cleaned. */
export function textOf(sel: Sel | null | undefined): string {
  if (!sel || sel.length === 0) return '';
  const out: string[] = [];
  for (let i = 0; i < sel.length; i++) collect(sel[i] as DomNode, out, false);
  return clean(out.join(''));
}

/** Text split into lines at block-level element boundaries (li, br, div, tr...). */
export function linesOf(sel: Sel | null | undefined): string[] {
  if (!sel || sel.length === 0) return [];
  const out: string[] = [];
  for (let i = 0; i < sel.length; i++) collect(sel[i] as DomNode, out, true);
  return out
    .join('')
    .split('\n')
    .map(clean)
    .filter((l) => l.length > 0);
}

export function normalizeOrigin(origin: string): string {
  return (origin || '').replace(/\/+$/, '');
}

/** Makes a URL absolute against the marketplace origin; drops javascript:/data: pseudo URLs. */
export function absUrl(href: string | null | undefined, origin: string): string | null {
  if (!href) return null;
  const h = href.trim();
  if (!h || /^(javascript|data|about):/i.test(h) || h === '#') return null;
  if (/^https?:\/\//i.test(h)) return h;
  if (h.startsWith('//')) return 'https:' + h;
  const o = normalizeOrigin(origin);
  return h.startsWith('/') ? o + h : o + '/' + h;
}

export const ASIN_RE = /^[A-Z0-9]{10}$/;

/** ASIN from a product URL path (/dp/X, /gp/product/X, /gp/aw/d/X, /d/X). */
export function asinFromUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  const m = /\/(?:dp|gp\/product|gp\/aw\/d|d|exec\/obidos\/ASIN)\/([A-Z0-9]{10})(?=[/?#&]|$)/.exec(url);
  return m ? m[1]! : null;
}

/**
 * Extracts the JSON value (object or array) that starts right after `marker` (ASCII) in the
 * page's source, by scanning balanced brackets (string-aware) instead of running a regex over a
 * multi-megabyte page; offsets are the source's. Returns undefined if absent/unparseable.
 */
export function jsonAfter(source: PageSource, marker: string, from = 0): { value: unknown; end: number } | undefined {
  const src = source.raw;
  const at = src.indexOf(marker, from);
  if (at < 0) return undefined;
  let i = at + marker.length;
  const gap = i;
  let wide = false;
  const limit = Math.min(src.length, i + 200);
  while (i < limit && src[i] !== '{' && src[i] !== '[') {
    // Only whitespace, ':' or '=' may separate the marker from the value (a byte above 127 is
    // part of a character outside ASCII, which may be a space: the gap is decoded to tell).
    if (src.charCodeAt(i) > 127) wide = true;
    else if (!/[\s:=]/.test(src[i]!)) return undefined;
    i++;
  }
  if (i >= limit || (wide && !/^[\s:=]*$/.test(utf8(src.slice(gap, i))))) return undefined;
  const start = i;
  let depth = 0;
  let inStr = false;
  let quote = '';
  for (; i < src.length; i++) {
    const c = src[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === quote) inStr = false;
      continue;
    }
    if (c === '"' || c === "'") {
      inStr = true;
      quote = c;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) {
        try {
          return { value: JSON.parse(utf8(src.slice(start, i + 1))), end: i + 1 };
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}

/** Tries every occurrence of `marker` in the page's scripts and returns the first value accepted by `accept`. */
export function findJson<T>(scripts: PageScripts, marker: string, accept: (v: unknown) => v is T, maxTries = 8, start = 0): T | undefined {
  let from = start;
  for (let n = 0; n < maxTries; n++) {
    const at = scripts.indexOf(marker, from);
    if (at < 0) return undefined;
    const r = jsonAfter(scripts.source, marker, at);
    if (r && accept(r.value)) return r.value;
    from = at + marker.length;
  }
  return undefined;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
