/**
 * The page engine: a page's bytes (page-source.ts), the tree htmlparser2 would build of them
 * (page-tree.ts, by htmlparser2's rules in html-syntax.ts), cheerio over that tree with queries
 * answered from its element lists (dom.ts, page-query.ts), and its scripts' text (page-scripts.ts).
 * What the parsers may use of it is named here; they import nothing else from this folder
 * (page/boundary.test.ts). See docs/parsing.md.
 */
export { Doc, type DomNode, type Sel } from './dom';
export { type PageBody, type PageInput, PageSource, utf8 } from './page-source';
export type { PageScripts } from './page-scripts';
export { attributeOf, classOf, type LeaveOut, type TreeOptions } from './page-tree';
