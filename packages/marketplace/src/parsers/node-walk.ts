/**
 * Plain tree walks for parsers that inspect many small blocks (review cards, best-seller cards,
 * offer rows). A cheerio .find() costs ~0.4 ms per call whatever the subtree size (the selector
 * is compiled every time), so ten lookups in each of 50 cards cost more than building the whole
 * document. Walking a card's few dozen elements once and filtering them in JS costs microseconds.
 */
import { classOf, type DomNode, type Sel } from '../page';
import { textOf } from './text';

/** Element descendants of `root` in document order (root excluded). */
export function elementsUnder(root: DomNode): DomNode[] {
  const out: DomNode[] = [];
  const stack: DomNode[] = [];
  const kids = root.children ?? [];
  for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  while (stack.length) {
    const node = stack.pop() as DomNode;
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    out.push(node);
    const children = node.children;
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

/** True when the element's class list has `name` as a whole token. */
export function hasClass(node: DomNode, name: string): boolean {
  const cls = classOf(node);
  return !!cls && cls.includes(name) && cls.split(/\s+/).includes(name);
}

/** True when some class token contains `part` (hashed names: "_cDEzb_p13n-sc-price_3mJ9Z"). */
export function classContains(node: DomNode, part: string): boolean {
  return (classOf(node) ?? '').includes(part);
}

/** First element of `nodes` that `test` accepts, or null. */
export function firstOf(nodes: readonly DomNode[], test: (n: DomNode) => boolean): DomNode | null {
  for (const n of nodes) if (test(n)) return n;
  return null;
}

/** Nearest ancestor of `node` (not itself) accepted by `test`, stopping at `stop`. */
export function ancestorOf(node: DomNode, test: (n: DomNode) => boolean, stop?: DomNode): DomNode | null {
  for (let cur = node.parent ?? null; cur && cur !== stop; cur = cur.parent ?? null) if (cur.type === 'tag' && test(cur)) return cur;
  return null;
}

/** Elements of the whole tree grouped by their data-hook attribute, each list in document order. */
export function hookIndex(root: DomNode): Map<string, DomNode[]> {
  const index = new Map<string, DomNode[]>();
  for (const node of elementsUnder(root)) {
    const hook = node.attribs?.['data-hook'];
    if (!hook) continue;
    const list = index.get(hook);
    if (list) list.push(node);
    else index.set(hook, [node]);
  }
  return index;
}

/** Visible text of one element (textOf only reads the selection's indexed nodes). */
export function nodeText(node: DomNode | null | undefined): string {
  return node ? textOf([node] as unknown as Sel) : '';
}
