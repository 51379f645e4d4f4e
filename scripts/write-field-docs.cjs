#!/usr/bin/env node
// `pnpm docs:fields`: rewrites the README's result field tables from the item schemas
// (packages/core/src/field-docs.ts). Run after changing a result item schema; a test fails
// while the README is behind.
const fs = require('node:fs');
const path = require('node:path');
const { withFieldTables } = require('../packages/core/dist/index.js');

const readme = path.join(__dirname, '..', 'README.md');
const before = fs.readFileSync(readme, 'utf8');
const after = withFieldTables(before);
if (after !== before) fs.writeFileSync(readme, after);
console.log(after === before ? 'README field tables are current' : 'README field tables rewritten');
