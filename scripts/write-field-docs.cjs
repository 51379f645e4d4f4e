#!/usr/bin/env node
// `pnpm docs:fields`: rewrites the result field tables of docs/results.md from the item schemas
// (packages/core/src/field-docs.ts). Run after changing a result item schema; a test fails
// while the page is behind.
const fs = require('node:fs');
const path = require('node:path');
const { withFieldTables } = require('../packages/core/dist/index.js');

const page = path.join(__dirname, '..', 'docs', 'results.md');
const before = fs.readFileSync(page, 'utf8');
const after = withFieldTables(before);
if (after !== before) fs.writeFileSync(page, after);
console.log(after === before ? 'docs/results.md field tables are current' : 'docs/results.md field tables rewritten');
