#!/usr/bin/env node
// The `crawl` bin. A committed file rather than dist/cli.js itself, so that package managers can
// link the bin at install time, before the first build (pnpm skips a bin whose file is missing).
const fs = require('node:fs');
const path = require('node:path');

const cli = path.join(__dirname, '../dist/cli.js');
if (!fs.existsSync(cli)) {
  // Only in a checkout of the repository that was never built (a packed client ships dist/):
  // build it on first use, with one line on stderr, as `pnpm --silent admin` does.
  const launcher = path.join(__dirname, '../../../scripts/build-on-first-use.cjs');
  if (!fs.existsSync(launcher)) {
    process.stderr.write(`crawl: ${cli} is missing: reinstall the package, or run \`pnpm build\` in its repository\n`);
    process.exit(1);
  }
  require(launcher).launch(cli, process.argv.slice(2));
} else {
  require(cli);
}
