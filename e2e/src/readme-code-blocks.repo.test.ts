/**
 * Every fenced code block of every README in the repository and of every page of docs/ is
 * checked, so an example that no longer compiles or parses fails CI (the README's reference moved
 * into docs/, and its examples with it). The info string (the word after the opening fence) says how:
 *
 *   ```ts / ```typescript   type-checked with `tsc --strict` as an ES module (top-level await
 *                           allowed) against the BUILT workspace packages (`pnpm build` first):
 *                           `@crawl/client` is packages/client/dist, as a user of the SDK gets it.
 *   ```ts continued         the same program as the previous ts block of that README (for an
 *                           example split by prose: it sees the declarations before it).
 *                           A page's programs are its own: one page never sees another's.
 *   ```sh / ```bash / ```shell   parsed with `bash -n` (syntax only: nothing is run).
 *   ```json                 parsed with JSON.parse.
 *   ```text                 plain text: output, directory layouts, header formats. Not checked.
 *   ```<lang> illustrative  a sketch that is not meant to compile or parse (signatures, queries in
 *                           a language nothing here parses). Not checked.
 *   ```mermaid              a diagram (GitHub draws it). Not checked.
 *
 * Any other info string, a fence without one, and an indented code block fail: a new block
 * states what it is.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import MarkdownIt from 'markdown-it';

const ROOT = path.resolve(__dirname, '../..');

interface Block {
  /** The markdown file's path relative to the repository root. */
  file: string;
  /** 1-based line of the fence, or of an indented block's first line. */
  at: number;
  /** 1-based line of the first line of the block's content. */
  line: number;
  info: string;
  text: string;
}

function readmes(dir = ROOT): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...readmes(full));
    else if (/^readme(\..+)?\.md$/i.test(name)) out.push(path.relative(ROOT, full));
  }
  return out.sort();
}

/** Every README, and every page of docs/. */
function documents(): string[] {
  const pages = readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return [...new Set([...readmes(), ...pages])].sort();
}

/**
 * The code blocks of a markdown file, as CommonMark reads it (markdown-it): fenced ones, in lists
 * too, and indented ones, which have no info string and so always fail the check below.
 */
function codeBlocks(file: string, markdown: string): Block[] {
  return new MarkdownIt()
    .parse(markdown, {})
    .filter((t) => t.type === 'fence' || t.type === 'code_block')
    .map((t) => ({
      file,
      // map[0] is the fence's line (0-based) for a fence, the first code line for an indented block
      at: t.map![0] + 1,
      line: t.map![0] + (t.type === 'fence' ? 2 : 1),
      info: t.type === 'fence' ? t.info.trim() : '(indented: use a fence with an info string)',
      text: t.content.replace(/\n$/, ''),
    }));
}

type Kind = 'ts' | 'ts-continued' | 'sh' | 'json' | 'unchecked';

function kindOf(info: string): Kind | undefined {
  const words = info.split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  if ((words[0] === 'text' || words[0] === 'mermaid') && words.length === 1) return 'unchecked';
  if (words.length === 2 && words[1] === 'illustrative') return 'unchecked';
  const lang = words[0]!;
  if (lang === 'ts' || lang === 'typescript') {
    if (words.length === 1) return 'ts';
    if (words.length === 2 && words[1] === 'continued') return 'ts-continued';
    return undefined;
  }
  if (words.length !== 1) return undefined;
  if (lang === 'sh' || lang === 'bash' || lang === 'shell') return 'sh';
  if (lang === 'json') return 'json';
  return undefined;
}

const all = documents().flatMap((file) => codeBlocks(file, readFileSync(path.join(ROOT, file), 'utf8')));
const where = (b: Block) => `${b.file}:${b.at}`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'readme-blocks-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('finds the READMEs, the pages of docs/ and their blocks', () => {
  const files = new Set(all.map((b) => b.file));
  expect([...files]).toEqual(
    expect.arrayContaining(['README.md', 'packages/client/README.md', 'docs/walkthrough.md', 'docs/events-and-webhooks.md']),
  );
  expect(all.filter((b) => kindOf(b.info) === 'ts').length).toBeGreaterThanOrEqual(3);
});

it('every block says what it is (ts, sh, json, text, mermaid, or `<lang> illustrative`)', () => {
  expect(all.filter((b) => !kindOf(b.info)).map((b) => `${where(b)} \`\`\`${b.info}`)).toEqual([]);
});

it('json blocks parse', () => {
  const problems: string[] = [];
  for (const b of all.filter((x) => kindOf(x.info) === 'json')) {
    try {
      JSON.parse(b.text);
    } catch (err) {
      problems.push(`${where(b)}: ${(err as Error).message}`);
    }
  }
  expect(problems).toEqual([]);
});

it('sh blocks parse with bash -n', () => {
  const problems: string[] = [];
  for (const [i, b] of all.filter((x) => kindOf(x.info) === 'sh').entries()) {
    const file = path.join(dir, `block-${i}.sh`);
    writeFileSync(file, `${b.text}\n`);
    const run = spawnSync('bash', ['-n', file], { encoding: 'utf8', timeout: 10_000 });
    if (run.status !== 0) problems.push(`${where(b)}: ${run.stderr.replaceAll(file, 'block').trim()}`);
  }
  expect(problems).toEqual([]);
});

/** One TypeScript file per program of a markdown file: its lines, and the line of the file each comes from. */
interface Program {
  name: string;
  lines: string[];
  origin: { file: string; line: number }[];
}

function programs(): Program[] {
  const out: Program[] = [];
  const last = new Map<string, Program>();
  for (const b of all) {
    const kind = kindOf(b.info);
    if (kind !== 'ts' && kind !== 'ts-continued') continue;
    let program = kind === 'ts-continued' ? last.get(b.file) : undefined;
    if (kind === 'ts-continued' && !program) throw new Error(`${where(b)}: \`ts continued\` with no ts block before it`);
    if (!program) {
      program = { name: `${b.file.replace(/[^A-Za-z0-9]+/g, '_')}_${b.line}.ts`, lines: [], origin: [] };
      out.push(program);
      last.set(b.file, program);
    }
    b.text.split('\n').forEach((text, i) => {
      program.lines.push(text);
      program.origin.push({ file: b.file, line: b.line + i });
    });
  }
  return out;
}

/** Where a bare import resolves for the check: workspace packages as built, others from a workspace's node_modules. */
function pathsFor(specifiers: Set<string>): Record<string, string[]> {
  const nodeModules = [ROOT, ...['packages', 'services'].flatMap((d) => readdirSync(path.join(ROOT, d)).map((n) => path.join(ROOT, d, n)))]
    .map((d) => path.join(d, 'node_modules'))
    .filter(existsSync);
  const paths: Record<string, string[]> = {};
  for (const spec of specifiers) {
    const workspace = /^@crawl\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(spec);
    if (workspace) {
      const dist = path.join(ROOT, 'packages', workspace[1]!, 'dist');
      paths[spec] = [path.join(dist, `${workspace[2] ?? 'index'}.d.ts`)];
      continue;
    }
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
    const typesName = name.startsWith('@') ? name.slice(1).replace('/', '__') : name;
    const found = nodeModules.flatMap((nm) => [path.join(nm, '@types', typesName), path.join(nm, name)]).filter(existsSync);
    if (found.length > 0) paths[spec] = found;
  }
  return paths;
}

it('ts blocks compile with tsc --strict against the built packages', async () => {
  const list = programs();
  const specifiers = new Set<string>();
  for (const p of list) {
    for (const m of p.lines.join('\n').matchAll(/\bfrom\s+['"]([^'".][^'"]*)['"]/g)) specifiers.add(m[1]!);
    // each its own module, so declarations of two examples do not collide
    writeFileSync(path.join(dir, p.name), `${p.lines.join('\n')}\nexport {};\n`);
  }
  for (const spec of specifiers) {
    if (spec.startsWith('@crawl/')) expect([spec, existsSync(pathsFor(new Set([spec]))[spec]![0]!)]).toEqual([spec, true]);
  }
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        esModuleInterop: true,
        skipLibCheck: true,
        lib: ['ES2022'],
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
        paths: pathsFor(specifiers),
      },
      files: list.map((p) => p.name),
    }),
  );
  const result = await promisify(execFile)(
    process.execPath,
    [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(dir, 'tsconfig.json')],
    { cwd: dir, timeout: 180_000 },
  ).then(
    () => '',
    (err: { stdout?: string; message: string }) => err.stdout || err.message,
  );
  // `file.ts(12,5): error TS...` -> `README.md:600: error TS...`
  const problems = result
    .split('\n')
    .filter((l) => /\berror TS\d+/.test(l))
    .map((l) => {
      const m = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(l);
      const program = m && list.find((p) => p.name === path.basename(m[1]!));
      const origin = program?.origin[Number(m![2]) - 1];
      return origin ? `${origin.file}:${origin.line}: ${m![4]}` : l;
    });
  expect(problems).toEqual([]);
  expect(result).toBe('');
});
