/**
 * The comparison of the page tree with htmlparser2's (page-tree.unit.test.ts, generated-markup.unit.test.ts):
 * node by node, each node's type, tag name, text or comment data and attributes (names, values and
 * their order), and the number and order of its children.
 */
import type { AnyNode } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** htmlparser2's tree of a page's text, as cheerio's fast parser builds it. */
export const reference = (html: string) => parseDocument(html, { xmlMode: false, decodeEntities: true });

/** The first difference between two trees, as a path, or null. */
export function difference(a: AnyNode, b: AnyNode, at = ''): string | null {
  const na = a as AnyNode & { name?: string; data?: string; attribs?: Record<string, string>; children?: AnyNode[] };
  const nb = b as typeof na;
  if (na.type !== nb.type || na.name !== nb.name) return `${at}: ${na.type} ${na.name} vs ${nb.type} ${nb.name}`;
  if (na.data !== nb.data) return `${at}: data ${JSON.stringify(na.data)} vs ${JSON.stringify(nb.data)}`;
  if (JSON.stringify(na.attribs) !== JSON.stringify(nb.attribs))
    return `${at}: attribs ${JSON.stringify(na.attribs)} vs ${JSON.stringify(nb.attribs)}`;
  const ca = na.children ?? [];
  const cb = nb.children ?? [];
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    const d = difference(ca[i]!, cb[i]!, `${at}/${(ca[i] as { name?: string }).name ?? ca[i]!.type}[${i}]`);
    if (d) return d;
  }
  return ca.length === cb.length ? null : `${at}: ${ca.length} vs ${cb.length} children`;
}
