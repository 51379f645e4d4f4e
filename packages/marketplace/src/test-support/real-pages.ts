/**
 * The marketplace tests' access to the real pages saved next to the checkout (docs/testing.md,
 * "Real marketplace pages"). Where the folder is, and whether it is there, is decided by
 * @crawl/testing alone; this module adds what the parser tests need on top: the list of saved
 * pages, their HTML, and the accuracy suites that run only where the pages are.
 *
 * A suite skipped for want of the pages carries the place they were looked for in its title;
 * scripts/real-pages-reporter.cjs counts those tests and says so in one line at the end of a run.
 */
import { describeOnRealPages, REAL_PAGES_DIR, REAL_PAGES_WANTED_AT, realPage } from '@crawl/testing';
import * as fs from 'fs';
import * as path from 'path';

/** True when this checkout has the saved real pages. */
export const HAS_REAL_PAGES = REAL_PAGES_DIR !== null;

/** The saved pages' file names that `accept` takes, sorted; none without the folder. */
export function realPageFiles(accept: (file: string) => boolean = () => true): string[] {
  if (!REAL_PAGES_DIR) return [];
  return fs
    .readdirSync(REAL_PAGES_DIR)
    .filter((file) => file.endsWith('.html') && accept(file))
    .sort();
}

/** A saved page's path, for tests that hand a file to another thread; throws without the folder. */
export function realPagePath(file: string): string {
  if (!REAL_PAGES_DIR) throw new Error(`no real pages: ${file} is read only by suites that run with them`);
  return path.join(REAL_PAGES_DIR, file);
}

/** A saved page's HTML; throws when it is absent (only the suites below read them, and they skip without the folder). */
export function readRealPage(file: string): string {
  const html = realPage(file);
  if (html === undefined) throw new Error(`real page ${file} not found in ${REAL_PAGES_DIR ?? REAL_PAGES_WANTED_AT}`);
  return html;
}

/** An accuracy suite on the saved real pages (@crawl/testing): skipped, and counted, without them. */
export { describeOnRealPages };
