/**
 * Where the real marketplace pages saved next to the checkout are (docs/testing.md, "Real
 * marketplace pages"): `../shared/fixtures/amazon` from the repository root, or the folder
 * `CRAWL_REAL_PAGES_DIR` names; `CRAWL_REAL_PAGES_DIR=none` runs as a plain clone without them.
 * Only the accuracy suites on real pages skip when they are absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

function resolveRealPagesDir(): string | null {
  const chosen = process.env.CRAWL_REAL_PAGES_DIR;
  if (chosen === 'none') return null;
  const dir = chosen ? path.resolve(chosen) : path.resolve(REPO_ROOT, '../shared/fixtures/amazon');
  return existsSync(dir) ? dir : null;
}

/** The folder of saved real pages, or null when this checkout has none. */
export const REAL_PAGES_DIR: string | null = resolveRealPagesDir();

/** Where the real pages are looked for, for a skip message. */
export const REAL_PAGES_WANTED_AT = process.env.CRAWL_REAL_PAGES_DIR || path.resolve(REPO_ROOT, '../shared/fixtures/amazon');

/** A saved page's HTML by file name, or undefined when the folder or the file is absent. */
export function realPage(file: string): string | undefined {
  if (!REAL_PAGES_DIR) return undefined;
  const full = path.join(REAL_PAGES_DIR, file);
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}

/**
 * Why suites on the real pages skip, the end of a skipped suite's title: scripts/real-pages-reporter.cjs
 * counts the tests under such titles and says so in one line at the end of a run (keep the two in step).
 */
export const REAL_PAGES_SKIP_REASON =
  process.env.CRAWL_REAL_PAGES_DIR === 'none'
    ? 'real pages switched off (CRAWL_REAL_PAGES_DIR=none)'
    : `real pages not found at ${REAL_PAGES_WANTED_AT}`;

/** A suite on the saved real pages: run where they are, skipped (and counted by the reporter) where they are not. */
export function describeOnRealPages(title: string, body: () => void): void {
  // jest's global (this package is built without the test runner's types)
  const { describe } = globalThis as unknown as { describe: Describe };
  if (REAL_PAGES_DIR) describe(title, body);
  else describe.skip(`${title} (${REAL_PAGES_SKIP_REASON})`, body);
}

type Describe = ((title: string, body: () => void) => void) & { skip(title: string, body: () => void): void };
