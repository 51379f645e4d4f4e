/**
 * The pages the page tree and its queries are compared with htmlparser2's and cheerio's on
 * (page-tree.unit.test.ts, page-query.unit.test.ts): our own small pages in Amazon's markup (test-pages/,
 * in every clone), and the real marketplace pages saved next to the checkout when that folder is
 * there (../shared/fixtures/amazon, docs/testing.md), which add size and variety.
 */
import * as fs from 'fs';
import * as path from 'path';

export interface ComparisonPage {
  /** How a test names it: `test-pages/<file>` for ours, the file name for a saved page. */
  name: string;
  file: string;
}

const OWN = path.resolve(__dirname, '../test-pages');
const SAVED = path.resolve(__dirname, '../../../../../../shared/fixtures/amazon');

/** Our pages, then the saved ones whose file name `saved` accepts (none when the folder is absent). */
export function comparisonPages(saved: (file: string) => boolean): ComparisonPage[] {
  const own = fs
    .readdirSync(OWN)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => ({ name: `test-pages/${f}`, file: path.join(OWN, f) }));
  if (own.length === 0) throw new Error(`no pages in ${OWN}`);
  const real = fs.existsSync(SAVED)
    ? fs
        .readdirSync(SAVED)
        .filter((f) => f.endsWith('.html') && saved(f))
        .sort()
        .map((f) => ({ name: f, file: path.join(SAVED, f) }))
    : [];
  return [...own, ...real];
}
