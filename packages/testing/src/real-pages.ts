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
