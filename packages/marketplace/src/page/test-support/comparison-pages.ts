/**
 * The pages the page tree and its queries are compared with htmlparser2's and cheerio's on
 * (page-tree.unit.test.ts, page-query.unit.test.ts): our own small pages in Amazon's markup (the
 * engine's test-pages/ and the parsers' parsers/test-pages/, in every clone), and the real
 * marketplace pages saved next to the checkout when that folder is there (found by
 * @crawl/testing, docs/testing.md), which add size and variety.
 */
import { REAL_PAGES_DIR } from '@crawl/testing';
import * as fs from 'fs';
import * as path from 'path';

export interface ComparisonPage {
  /** How a test names it: `test-pages/<file>` or `parsers/test-pages/<file>` for ours, the file name for a saved page. */
  name: string;
  file: string;
}

const OWN: [string, string][] = [
  ['test-pages', path.resolve(__dirname, '../test-pages')],
  ['parsers/test-pages', path.resolve(__dirname, '../../parsers/test-pages')],
];

function htmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort();
}

/** Our pages, then the saved ones whose file name `saved` accepts (none when the folder is absent). */
export function comparisonPages(saved: (file: string) => boolean): ComparisonPage[] {
  const own = OWN.flatMap(([name, dir]) => htmlFiles(dir).map((f) => ({ name: `${name}/${f}`, file: path.join(dir, f) })));
  if (own.length === 0) throw new Error(`no pages in ${OWN.map(([, dir]) => dir).join(', ')}`);
  const real = REAL_PAGES_DIR
    ? htmlFiles(REAL_PAGES_DIR)
        .filter(saved)
        .map((f) => ({ name: f, file: path.join(REAL_PAGES_DIR!, f) }))
    : [];
  return [...own, ...real];
}
