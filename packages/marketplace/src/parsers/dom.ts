/**
 * One parsed document plus an id index. css-select walks the whole tree for
 * every query, even "#id" (3-4 ms per query on a 1.5 MB detail page), so
 * queries whose first compound names an id are answered from the index and
 * only their remainder runs against the (small) matched subtree.
 */
import type { CheerioAPI } from 'cheerio';
import { type PageInput, PageSource } from './page-source';
import { buildPageTree, type TreeOptions } from './page-tree';
import { loadTree, type DomNode, type Sel } from './text';

// "tag#id.extra[attr]" or "[id^=prefix]" as the first compound, then the rest of the selector.
const HEAD_ID_RE = /^([a-zA-Z][\w-]*)?#([\w-]+)([.[:][^\s>+~]*)?(?:\s+(.+))?$/;
const HEAD_PREFIX_RE = /^([a-zA-Z][\w-]*)?\[id\^=["']?([\w-]+)["']?\]([.[:][^\s>+~]*)?(?:\s+(.+))?$/;

export class Doc {
  readonly $: CheerioAPI;
  /** The page's bytes, for the scans of embedded JSON (page-source.ts). */
  readonly source: PageSource;
  private readonly ids: Map<string, DomNode[]>;

  constructor(page: PageInput, options?: TreeOptions) {
    this.source = PageSource.of(page);
    const tree = buildPageTree(this.source, options);
    this.$ = loadTree(tree);
    // The builder indexes ids as it goes, in document order.
    this.ids = tree.ids as unknown as Map<string, DomNode[]>;
  }

  /** All elements carrying this id, in document order (Amazon repeats some ids). */
  byId(id: string): Sel {
    return this.$((this.ids.get(id) ?? []) as never);
  }

  /** Query a comma-separated selector list; parts are concatenated in list order. */
  q(selector: string): Sel {
    const parts = splitTopLevel(selector);
    if (parts.length === 1) return this.one(parts[0]!);
    const nodes: unknown[] = [];
    const seen = new Set<unknown>();
    for (const p of parts) {
      const sel = this.one(p);
      for (let i = 0; i < sel.length; i++) {
        if (!seen.has(sel[i])) {
          seen.add(sel[i]);
          nodes.push(sel[i]);
        }
      }
    }
    return this.$(nodes as never);
  }

  private one(part: string): Sel {
    const m = HEAD_ID_RE.exec(part);
    if (m) return this.narrow(this.ids.get(m[2]!) ?? [], m[1], m[3], m[4]);
    const p = HEAD_PREFIX_RE.exec(part);
    if (p) {
      const nodes: DomNode[] = [];
      for (const [id, bucket] of this.ids) if (id.startsWith(p[2]!)) nodes.push(...bucket);
      return this.narrow(nodes, p[1], p[3], p[4]);
    }
    return this.$(part);
  }

  private narrow(nodes: DomNode[], tag: string | undefined, extra: string | undefined, rest: string | undefined): Sel {
    let sel: Sel = this.$(nodes as never);
    if (sel.length === 0) return sel;
    const compound = (tag ?? '') + (extra ?? '');
    if (compound) sel = sel.filter(compound);
    return rest ? sel.find(rest) : sel;
  }
}

function splitTopLevel(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of selector) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
