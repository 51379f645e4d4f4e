/**
 * A jest reporter that ends a run without the saved real marketplace pages with one line saying
 * how many tests skipped for that reason (docs/testing.md, "Real marketplace pages"), in place of
 * a warning from every test file that reads them.
 *
 * It counts the skipped tests under a suite whose title ends "(real pages not found at <path>)" (or
 * "(real pages switched off (CRAWL_REAL_PAGES_DIR=none))"), the title
 * packages/marketplace/src/test-support/real-pages.ts gives an accuracy suite it skips; the path is
 * the one @crawl/testing looked in, so the folder is resolved in one place only.
 */
const SKIPPED_SUITE = /\((real pages (?:not found at .+|switched off \(CRAWL_REAL_PAGES_DIR=none\)))\)$/;

class RealPagesReporter {
  onRunComplete(_contexts, results) {
    let skipped = 0;
    let reason = null;
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status !== 'pending' && test.status !== 'skipped') continue;
        const suite = test.ancestorTitles.map((title) => SKIPPED_SUITE.exec(title)).find(Boolean);
        if (!suite) continue;
        skipped++;
        reason = suite[1];
      }
    }
    if (skipped > 0) process.stderr.write(`${skipped} tests skipped: ${reason}; see docs/testing.md\n`);
  }
}

module.exports = RealPagesReporter;
