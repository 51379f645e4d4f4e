/**
 * CSS queries answered from a page's element lists instead of a walk of the tree.
 *
 * cheerio answers `card.find('.a-price')` by compiling the selector and testing every element
 * under the card; a search page asks about 25 such questions of each of 60 cards, and a details
 * page several of the whole document. Here a selector is compiled once per process, the
 * candidates are the elements carrying the class, id or tag of its last compound (the page-tree
 * lists, in document order), and the ones under a context element are found by binary search on
 * their open-tag offsets; css-select's compiled test then decides, so every answer is the one
 * cheerio gives. Selectors this cannot key (relative ones, `:scope`, cheerio's positional
 * pseudos such as `:first` or `:eq()`) are left to cheerio. See docs/parsing.md.
 */
import { compile } from 'css-select';
import { isTraversal, parse, type Selector } from 'css-what';
import type { AnyNode, Element } from 'domhandler';
import * as DomUtils from 'domutils';
import { attributeOf, PageElement, type PageTree } from './page-tree';

type Key = { kind: 'id' | 'class' | 'tag'; value: string } | null;

interface CompiledPart {
  key: Key;
  test: (element: Element) => boolean;
  /**
   * For a part with combinators (".a .b"): the test as cheerio makes it under an element, where
   * the whole selector must match inside that element (`:scope .a .b`). css-select reads the
   * scope from `SCOPE[0]` when the test runs, so one compiled test serves every context.
   */
  scoped: ((element: Element) => boolean) | null;
}

/**
 * css-select's own adapter, but a test reads only the attribute it tests of a page element,
 * without decoding the element's others (a query tests many elements for one attribute each).
 */
const adapter: typeof DomUtils = {
  ...DomUtils,
  getAttributeValue: (element, name) => attributeOf(element, name),
  hasAttrib: (element, name) =>
    element instanceof PageElement ? element.attribute(name) !== undefined : DomUtils.hasAttrib(element, name),
};

/** A stand-in element: what SCOPE holds while compiling and between queries. */
const NO_SCOPE = { type: 'tag', parent: { type: 'tag' } } as unknown as AnyNode;
/**
 * The context of the scoped test being run. It goes back to the stand-in after each query: a
 * page element left here would keep its whole tree reachable from this long-lived array, and V8
 * would then copy and promote each page's tree instead of collecting it young (docs/parsing.md
 * "Garbage").
 */
const SCOPE: AnyNode[] = [NO_SCOPE];

/** jQuery extensions cheerio-select handles itself: their meaning depends on the result list. */
const POSITIONAL = new Set(['first', 'last', 'eq', 'nth', 'gt', 'lt', 'even', 'odd']);

const compiled = new Map<string, CompiledPart[] | null>();

function keyOf(tokens: Selector[]): Key {
  let start = tokens.length;
  while (start > 0 && !isTraversal(tokens[start - 1]!)) start--;
  let key: Key = null;
  for (const t of tokens.slice(start)) {
    if (t.type === 'attribute' && t.name === 'id' && t.action === 'equals' && t.ignoreCase !== true) return { kind: 'id', value: t.value };
    if (t.type === 'attribute' && t.name === 'class' && t.action === 'element' && t.ignoreCase !== true)
      key = { kind: 'class', value: t.value };
    else if (t.type === 'tag' && key === null) key = { kind: 'tag', value: t.name };
  }
  return key;
}

function usesPseudo(tokens: Selector[], names: (name: string) => boolean): boolean {
  for (const t of tokens) {
    if (t.type !== 'pseudo') continue;
    if (names(t.name)) return true;
    if (Array.isArray(t.data) && t.data.some((inner) => usesPseudo(inner, names))) return true;
  }
  return false;
}

/** The selector's parts, compiled; null when cheerio must answer it. */
function compileSelector(selector: string): CompiledPart[] | null {
  let parts = compiled.get(selector);
  if (parts !== undefined) return parts;
  parts = null;
  try {
    const groups = parse(selector);
    const answerable = groups.every(
      (tokens) => tokens.length > 0 && !isTraversal(tokens[0]!) && !usesPseudo(tokens, (n) => n === 'scope' || POSITIONAL.has(n)),
    );
    if (answerable)
      parts = groups.map((tokens) => ({
        key: keyOf(tokens),
        // No result cache: css-select's would live as long as this compiled test, across pages.
        test: compile<AnyNode, Element>([tokens], { xmlMode: false, cacheResults: false, adapter }),
        scoped: tokens.some(isTraversal)
          ? compile<AnyNode, Element>([structuredClone(tokens)], { xmlMode: false, cacheResults: false, context: SCOPE, adapter })
          : null,
      }));
  } catch {
    parts = null; // an invalid selector: cheerio throws its own error
  }
  compiled.set(selector, parts);
  return parts;
}

/**
 * Whether an element matches `selector`, as cheerio's `is`, `filter` and `closest` decide it
 * (with no context: the whole page counts), or null when cheerio must answer.
 */
export function selectorTest(selector: string): ((element: AnyNode) => boolean) | null {
  const parts = compileSelector(selector);
  if (!parts) return null;
  if (parts.length === 1) {
    const test = parts[0]!.test;
    return (node) => isElement(node) && test(node);
  }
  return (node) => isElement(node) && parts.some((part) => part.test(node));
}

const isElement = (node: AnyNode): node is Element => node.type === 'tag' || node.type === 'script' || node.type === 'style';

/** Index of the first element in `list` whose open tag comes after `offset`. */
function firstAfter(list: Element[], offset: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.startIndex! <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many class names queries may key on before every class of the page is indexed. */
const NAMES_BEFORE_FULL_INDEX = 12;

export class PageQuery {
  /** Elements by class name, each list made on the first query that needs it (or all at once). */
  private readonly classes = new Map<string, Element[]>();
  private allClasses = false;
  /** Elements by tag name, the same way. */
  private readonly tags = new Map<string, Element[]>();
  /** Every class name queries have keyed on. */
  private readonly classNamesAsked = new Set<string>();

  constructor(private readonly tree: PageTree) {}

  /**
   * Whether `node` is this page's own (a copy made with `.clone()` has the same offsets but is
   * not in the lists: cheerio answers for it). Text and comments have no descendants either way.
   */
  private holds(node: AnyNode): boolean {
    if (node.type === 'root') return node === this.tree.root;
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') return true;
    const list = this.tree.elements;
    const at = firstAfter(list, node.startIndex ?? -1) - 1;
    // No two elements open at the same offset.
    return at >= 0 && list[at] === node;
  }

  /**
   * The elements whose class list has `name` (a superset: the compiled test decides). The first
   * few names are found by a substring search of each class attribute (a product page asks about
   * a handful); a page that asks about more (a search page, per card) gets every class indexed
   * in one pass instead.
   */
  private byClass(name: string): Element[] {
    const known = this.classes.get(name);
    if (known) return known;
    if (this.allClasses) return [];
    if (this.classNamesAsked.size >= NAMES_BEFORE_FULL_INDEX) {
      this.indexAllClasses();
      return this.classes.get(name) ?? [];
    }
    const found: Element[] = [];
    for (const element of this.tree.elements) {
      const list = element.classAttribute;
      if (list !== undefined && list.includes(name)) found.push(element);
    }
    this.classes.set(name, found);
    return found;
  }

  private indexAllClasses(): void {
    this.classes.clear();
    for (const element of this.tree.elements) {
      const list = element.classAttribute;
      if (!list) continue;
      // Split at ASCII whitespace by hand (no array of tokens); a list with any other character
      // is split again by \s as css-select's class test has it (NBSP separates there too), and
      // the names already added are not added twice.
      let from = -1;
      for (let k = 0; k <= list.length; k++) {
        const c = k < list.length ? list.charCodeAt(k) : 32;
        if (c > 127) {
          for (const token of list.split(/\s+/)) if (token) this.addClass(token, element);
          break;
        }
        if (c === 32 || (c >= 9 && c <= 13)) {
          if (from >= 0) this.addClass(list.slice(from, k), element);
          from = -1;
        } else if (from < 0) from = k;
      }
    }
    this.allClasses = true;
  }

  private addClass(name: string, element: Element): void {
    const bucket = this.classes.get(name);
    if (!bucket) this.classes.set(name, [element]);
    else if (bucket[bucket.length - 1] !== element) bucket.push(element);
  }

  private byTag(name: string): Element[] {
    let found = this.tags.get(name);
    if (!found) {
      found = this.tree.elements.filter((element) => element.name === name);
      this.tags.set(name, found);
    }
    return found;
  }

  /** The elements to test for `key` between two offsets (those of the whole list when `lo` is 0). */
  private candidates(key: Key, size: number): Element[] {
    if (key === null) return this.tree.elements;
    if (key.kind === 'id') return this.tree.ids.get(key.value) ?? [];
    if (key.kind === 'class') {
      this.classNamesAsked.add(key.value);
      if (this.allClasses || this.classes.has(key.value) || this.classNamesAsked.size >= NAMES_BEFORE_FULL_INDEX)
        return this.byClass(key.value);
    } else if (this.tags.has(key.value)) return this.byTag(key.value);
    // A small region is cheaper to test element by element than to list the name page-wide.
    if (size * 8 < this.tree.elements.length) return this.tree.elements;
    return key.kind === 'class' ? this.byClass(key.value) : this.byTag(key.value);
  }

  /**
   * The elements under `contexts` matching `selector`, in document order per context (as
   * cheerio's `find`), or null when the selector is one cheerio must answer.
   */
  find(contexts: ArrayLike<AnyNode>, selector: string): Element[] | null {
    const parts = compileSelector(selector);
    if (!parts) return null;
    for (let c = 0; c < contexts.length; c++) if (!this.holds(contexts[c]!)) return null;
    const out: Element[] = [];
    for (let c = 0; c < contexts.length; c++) {
      const context = contexts[c]!;
      // Only elements and the document have descendants to find.
      if (context.type !== 'tag' && context.type !== 'script' && context.type !== 'style' && context.type !== 'root') continue;
      const root = context.type === 'root';
      const from = root ? -1 : context.startIndex!;
      const to = root ? Infinity : context.endIndex!;
      const all = this.tree.elements;
      const size = root ? all.length : firstAfter(all, to - 1) - firstAfter(all, from);
      const before = out.length;
      // Under an element (not the document or its top element), cheerio matches the whole
      // selector inside it: ".a .b" needs its ".a" there too.
      const inside = context.parent?.type === 'tag';
      if (inside) SCOPE[0] = context;
      try {
        for (const part of parts) {
          const test = inside && part.scoped ? part.scoped : part.test;
          const list = this.candidates(part.key, size);
          for (let i = root ? 0 : firstAfter(list, from); i < list.length; i++) {
            const element = list[i]!;
            if (element.startIndex! >= to) break;
            if (test(element)) out.push(element);
          }
        }
      } finally {
        SCOPE[0] = NO_SCOPE;
      }
      if (parts.length > 1 && out.length - before > 1) {
        const mine = out.splice(before).sort((a, b) => a.startIndex! - b.startIndex!);
        for (let i = 0; i < mine.length; i++) if (i === 0 || mine[i] !== mine[i - 1]) out.push(mine[i]!);
      }
    }
    return contexts.length > 1 ? [...new Set(out)] : out;
  }
}
