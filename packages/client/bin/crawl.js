#!/usr/bin/env node
// The `crawl` bin. A committed file rather than dist/cli.js itself, so that package managers can
// link the bin at install time, before the first build (pnpm skips a bin whose file is missing).
require('../dist/cli.js');
