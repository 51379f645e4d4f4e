/**
 * The page engine is a room of its own: the rest of the package reaches it only through
 * page/index.ts (what the parsers may use), and the engine imports nothing of the package
 * outside its folder, so it can change inside without the parsers knowing. docs/parsing.md.
 */
import * as fs from 'fs';
import * as path from 'path';

const SRC = path.resolve(__dirname, '..');
const PAGE = __dirname;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The relative imports (and re-exports) of a file, resolved to paths without extension. */
function relativeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']*)'|\bimport\(\s*'(\.{1,2}\/[^']*)'\s*\)|\brequire\(\s*'(\.{1,2}\/[^']*)'\s*\)/g))
    found.push(path.resolve(path.dirname(file), m[1] ?? m[2] ?? m[3]!));
  return found;
}

const inPage = (p: string) => p === PAGE || p.startsWith(PAGE + path.sep);
const rel = (p: string) => path.relative(SRC, p).split(path.sep).join('/');

it('is reached from the rest of the package through its index only', () => {
  const deep = sourceFiles(SRC)
    .filter((file) => !inPage(file))
    .flatMap((file) => relativeImports(file).map((target) => ({ file, target })))
    .filter(({ target }) => inPage(target) && target !== PAGE && target !== path.join(PAGE, 'index'))
    .map(({ file, target }) => `${rel(file)} imports ${rel(target)}`);
  expect(deep).toEqual([]);
});

it('imports nothing of the package outside its folder', () => {
  const outward = sourceFiles(PAGE)
    .flatMap((file) => relativeImports(file).map((target) => ({ file, target })))
    .filter(({ target }) => !inPage(target))
    .map(({ file, target }) => `${rel(file)} imports ${rel(target)}`);
  expect(outward).toEqual([]);
});

it('finds the imports it checks', () => {
  // A check that finds no import at all would pass whatever the code did.
  expect(relativeImports(path.join(SRC, 'parsers', 'details.ts')).map(rel)).toContain('page');
  expect(relativeImports(path.join(PAGE, 'dom.ts')).map(rel)).toContain('page/page-tree');
});
