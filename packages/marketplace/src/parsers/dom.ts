/**
 * One parsed document plus an id index. css-select walks the whole tree for
 * every query, even "#id" (3-4 ms per query on a 1.5 MB detail page), so
 * queries whose first compound names an id are answered from the index and
 * only their remainder runs against the (small) matched subtree.
 */
import type { CheerioAPI } from 'cheerio';
import { loadHtml, type DomNode, type Sel } from './text';

// "tag#id.extra[attr]" or "[id^=prefix]" as the first compound, then the rest of the selector.
const HEAD_ID_RE = /^([a-zA-Z][\w-]*)?#([\w-]+)([.[:][^\s>+~]*)?(?:\s+(.+))?$/;
const HEAD_PREFIX_RE = /^([a-zA-Z][\w-]*)?\[id\^=["']?([\w-]+)["']?\]([.[:][^\s>+~]*)?(?:\s+(.+))?$/;

export class Doc {
  readonly $: CheerioAPI;
  private readonly ids = new Map<string, DomNode[]>();

  constructor(readonly html: string) {
    this.$ = loadHtml(html);
    const stack: DomNode[] = [this.$.root()[0] as unknown as DomNode];
    // Iterative pre-order walk keeps document order in each id bucket.
    while (stack.length) {
      const node = stack.pop() as DomNode;
      const id = node.attribs?.id;
      if (id) {
        const bucket = this.ids.get(id);
        if (bucket) bucket.push(node);
        else this.ids.set(id, [node]);
      }
      const kids = node.children;
      if (kids)
        for (let i = kids.length - 1; i >= 0; i--) {
          const kid = kids[i]!;
          if (kid.type === 'tag' || kid.type === 'script' || kid.type === 'style' || kid.type === 'root') stack.push(kid);
        }
    }
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
