/**
 * Our own pages in Amazon's markup, in every clone (docs/testing.md, "Real marketplace pages"):
 * the parsers' parsers/test-pages/, one or more per layout the parsers read, and the page
 * engine's page/test-pages/, written for the tree builder's rules. Named like the saved pages:
 * `<kind>-<marketplace>-<what>.html` (the engine's `<kind>-<what>.html`).
 */
import * as fs from 'fs';
import * as path from 'path';

const DIRS = [path.resolve(__dirname, '../parsers/test-pages'), path.resolve(__dirname, '../page/test-pages')];

const where = new Map<string, string>();
for (const dir of DIRS)
  for (const file of fs.readdirSync(dir)) {
    if (!file.endsWith('.html')) continue;
    if (where.has(file)) throw new Error(`two own pages named ${file}`);
    where.set(file, path.join(dir, file));
  }

/** The own pages' file names that `accept` takes, sorted. */
export function ownPageFiles(accept: (file: string) => boolean = () => true): string[] {
  return [...where.keys()].filter(accept).sort();
}

/** An own page's path. */
export function ownPagePath(file: string): string {
  const full = where.get(file);
  if (!full) throw new Error(`no own page ${file}`);
  return full;
}

/** An own page's HTML. */
export function ownPage(file: string): string {
  return fs.readFileSync(ownPagePath(file), 'utf8');
}
