/**
 * One parsed document plus an id index. css-select walks the whole tree for
 * every query, even "#id" (3-4 ms per query on a 1.5 MB detail page), so
 * queries whose first compound names an id are answered from the index and
 * only their remainder runs against the (small) matched subtree.
 */
import * as cheerio from 'cheerio';
import type { AnyNode } from 'domhandler';
import { type PageInput, PageSource } from './page-source';
import { PageQuery, selectorTest } from './page-query';
import { PageScripts } from './page-scripts';
import { buildPageTree, type TreeOptions } from './page-tree';

/** Minimal view of a domhandler node (what the parsers read of one). */
export interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
}
/** A cheerio selection of a page's nodes. */
export type Sel = cheerio.Cheerio<any>;

// "tag#id.extra[attr]" or "[id^=prefix]" as the first compound, then the rest of the selector.
const HEAD_ID_RE = /^([a-zA-Z][\w-]*)?#([\w-]+)([.[:][^\s>+~]*)?(?:\s+(.+))?$/;
const HEAD_PREFIX_RE = /^([a-zA-Z][\w-]*)?\[id\^=["']?([\w-]+)["']?\]([.[:][^\s>+~]*)?(?:\s+(.+))?$/;

/**
 * One cheerio for every page. `cheerio.load` makes a class and closures for each document, and
 * the inline caches of the code that calls them keep the last ones, and through them the last
 * page's whole tree, alive through V8's young-generation collections: each tree was copied,
 * promoted and left to the old generation's collector (docs/parsing.md "Garbage"). A page's
 * selections start from its own document instead (`Doc.$` passes it), and a query finds its
 * page's index on the document it walks up to.
 */
const PAGES = cheerio.load('', { xml: { xmlMode: false, decodeEntities: true } });

/**
 * The cheerio release the patch below was written against: it replaces `find`, `is`, `filter`
 * and `closest` on the selection prototype and makes results with cheerio's internal `_make`,
 * none of which is a promise of cheerio's across releases. package.json pins this version
 * exactly; cheerio-version.unit.test.ts fails when another one is installed.
 */
export const CHEERIO_PATCHED_FOR = '1.2.0';
/** Where a page's document keeps its PageQuery. */
const QUERY = Symbol('page query');

/** The PageQuery of the page `nodes` belong to (none for nodes of no page, e.g. clones). */
function queryOf(nodes: ArrayLike<AnyNode>): PageQuery | undefined {
  let node: AnyNode | null | undefined = nodes[0];
  while (node?.parent) node = node.parent;
  return (node as { [QUERY]?: PageQuery } | undefined)?.[QUERY];
}

{
  // `find` (and so `$(selector)`) through the page's element lists, handing what they cannot key
  // back to cheerio's own. cheerio compiles the selector of is/filter/closest again for every
  // element it tests (for closest, at every ancestor); a compiled test answers the same. Results
  // are made with `_make`, as cheerio's own traversals make them (`.end()` works).
  const fn = PAGES.prototype;
  const { find, is, filter, closest } = fn;
  fn.find = function (this: Sel, selector: unknown) {
    const nodes = this.toArray() as AnyNode[];
    const found = typeof selector === 'string' ? (queryOf(nodes)?.find(nodes, selector) ?? null) : null;
    return found ? this._make(found) : find.call(this, selector as string);
  } as typeof find;
  fn.is = function (this: Sel, selector: unknown) {
    const test = typeof selector === 'string' ? selectorTest(selector) : null;
    return test ? this.toArray().some(test) : is.call(this, selector as string);
  } as typeof is;
  fn.filter = function (this: Sel, selector: unknown) {
    const test = typeof selector === 'string' ? selectorTest(selector) : null;
    return test ? this._make(this.toArray().filter(test)) : filter.call(this, selector as never);
  } as typeof filter;
  fn.closest = function (this: Sel, selector: unknown) {
    const test = typeof selector === 'string' ? selectorTest(selector) : null;
    if (!test) return closest.call(this, selector as string);
    const found: AnyNode[] = [];
    for (const start of this.toArray() as AnyNode[]) {
      let node: AnyNode | null =
        start.type === 'root' || start.type === 'tag' || start.type === 'script' || start.type === 'style' ? start : start.parent;
      for (; node && (node.type === 'tag' || node.type === 'script' || node.type === 'style'); node = node.parent) {
        if (test(node)) {
          if (!found.includes(node)) found.push(node);
          break;
        }
      }
    }
    return this._make(found);
  } as typeof closest;
}

/** One parsed page: cheerio's `$` over its tree, an id index, and its source for scans of embedded JSON. */
export class Doc {
  /** The page's bytes (page-source.ts). */
  readonly source: PageSource;
  /** Its scripts' text, where embedded JSON is looked for. */
  readonly scripts: PageScripts;
  private readonly ids: Map<string, DomNode[]>;
  /** The page's document as a selection: where its selections start. */
  private readonly top: Sel;

  constructor(page: PageInput, options?: TreeOptions) {
    this.source = PageSource.of(page);
    const tree = buildPageTree(this.source, options);
    (tree.root as { [QUERY]?: PageQuery })[QUERY] = new PageQuery(tree);
    this.top = PAGES(tree.root);
    this.scripts = new PageScripts(this.source, tree.scripts);
    // The builder indexes ids as it goes, in document order.
    this.ids = tree.ids as unknown as Map<string, DomNode[]>;
  }

  /**
   * cheerio's `$` on this page: a selector (from the document, or under `context`), nodes, or a
   * selection. A method, not a function made for each page (see PAGES).
   */
  $(selector?: unknown, context?: unknown): Sel {
    return PAGES(selector as never, context as never, this.top as never);
  }

  /** The document, as cheerio's `$.root()`. */
  root(): Sel {
    return this.top;
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
