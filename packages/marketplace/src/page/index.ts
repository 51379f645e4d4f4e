/**
 * The page engine: a page's bytes (page-source.ts), the tree htmlparser2 would build of them
 * (page-tree.ts, by htmlparser2's rules in html-syntax.ts), cheerio over that tree with queries
 * answered from its element lists (dom.ts, page-query.ts), and its scripts' text (page-scripts.ts).
 * What the parsers may use of it is named here; they import nothing else from this folder
 * (page/boundary.repo.test.ts). See docs/parsing.md.
 */
import * as pageSource from './page-source';
import * as pageTree from './page-tree';

export { Doc, type DomNode, type Sel } from './dom';
export { type PageBody, type PageInput, PageSource } from './page-source';
export type { PageScripts } from './page-scripts';
export type { LeaveOut, TreeOptions } from './page-tree';

// The functions the parsers call per element or per string are bound here, not re-exported with
// `export { x } from`: TypeScript's CommonJS output makes a re-export a getter, which every one of
// those calls would then go through (search pages, whose cards ask classOf and attributeOf of
// every element, parsed measurably slower). The classes above are used once per page.
export const attributeOf = pageTree.attributeOf;
export const classOf = pageTree.classOf;
export const utf8 = pageSource.utf8;
