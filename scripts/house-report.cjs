#!/usr/bin/env node
/**
 * The house in figures: production lines per package, the largest files and the largest functions
 * (TypeScript AST), tests, generated files and test helpers left out. Usage: node scripts/house-report.cjs [tree]
 * (default: this checkout; any checkout of the repo, e.g. a worktree of an older commit, for a before/after).
 */
const ts = require('typescript');
const { execSync } = require('child_process');
const fs = require('fs');
const root = process.argv[2] ?? require('path').resolve(__dirname, '..');
const files = execSync('git ls-files', { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /^(packages|services)\/.*\/src\/.*\.ts$/.test(f) && !/\.test\.ts$|generated|test-support|testing\//.test(f));
const sizes = [];
const fns = [];
for (const f of files) {
  const text = fs.readFileSync(`${root}/${f}`, 'utf8');
  sizes.push([text.split('\n').length, f]);
  const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
  const visit = (n) => {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n)) {
      const a = sf.getLineAndCharacterOfPosition(n.getStart()).line,
        b = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      let name = n.name ? n.name.getText() : n.parent && n.parent.name ? n.parent.name.getText() : '(anonymous)';
      fns.push([b - a + 1, `${f}:${a + 1} ${name}`]);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
}
const pkgs = {};
for (const [n, f] of sizes) {
  const p = f.split('/').slice(0, 2).join('/');
  pkgs[p] = (pkgs[p] || 0) + n;
}
console.log(
  'packages (production lines):',
  Object.entries(pkgs)
    .sort((a, b) => b[1] - a[1])
    .map(([p, n]) => `${p} ${n}`)
    .join(', '),
);
console.log(
  'files:',
  files.length,
  'lines:',
  sizes.reduce((a, [n]) => a + n, 0),
);
console.log('largest files:');
sizes
  .sort((a, b) => b[0] - a[0])
  .slice(0, 8)
  .forEach(([n, f]) => console.log(`  ${n} ${f}`));
console.log('largest functions:');
fns
  .sort((a, b) => b[0] - a[0])
  .slice(0, 8)
  .forEach(([n, f]) => console.log(`  ${n} ${f}`));
