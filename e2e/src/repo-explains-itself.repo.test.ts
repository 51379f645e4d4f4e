/**
 * The repository stands alone: no source, script, config or README cites a document a clone
 * does not have (a design document's sections, the product spec's section numbers, a style guide,
 * issue numbers of the tracker, files next to the checkout). Such text is replaced by a short
 * explanation or a pointer to docs/. The one path outside the repository that code may name is
 * the folder of saved marketplace pages, `../shared/fixtures/amazon` (docs/testing.md).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const SELF = path.relative(ROOT, __filename).split(path.sep).join('/');

/** What counts as a citation, each with the reason shown next to an offending line. */
const CITATIONS: { pattern: RegExp; what: string }[] = [
  { pattern: /\bDESIGN\b/, what: 'a design document outside the repository' },
  { pattern: /\bSTYLE\.md\b|\bSTYLE\s+"/, what: 'a style guide outside the repository' },
  { pattern: /\bspec(?:'s)?\s+(?:sections?\s+)?\d/i, what: 'a section number of the product spec' },
  { pattern: /\bsections?\s+\d/i, what: 'a numbered section of a document outside the repository' },
  { pattern: /\bissues?\s+#?\d/i, what: 'an issue number' },
  { pattern: /\.\.\/shared\b(?!\/fixtures\/amazon)/, what: 'a file next to the checkout (only ../shared/fixtures/amazon may be named)' },
  { pattern: /\/work\/(?:shared|notes)\b/, what: 'an absolute path of one machine' },
];

/** The citations in one text, as `line: reason`. */
function citationsIn(text: string): { line: number; what: string; text: string }[] {
  const found: { line: number; what: string; text: string }[] = [];
  text.split('\n').forEach((line, i) => {
    const hit = CITATIONS.find((c) => c.pattern.test(line));
    if (hit) found.push({ line: i + 1, what: hit.what, text: line.trim().slice(0, 160) });
  });
  return found;
}

const CHECKED = /\.(?:ts|tsx|cts|mts|js|cjs|mjs|sh|md|ya?ml|json)$|(?:^|\/)(?:Dockerfile|\.ci\/run|\.[a-z]+ignore|\.npmrc)$/;
const SKIPPED = /(?:^|\/)(?:node_modules|dist|chaos-out)\/|^pnpm-lock\.yaml$/;

/** Tracked and new unignored files (git), or every file outside node_modules and dist when git is unavailable. */
function repositoryFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    const out: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(path.join(ROOT, dir))) {
        const rel = dir ? `${dir}/${name}` : name;
        if (name === '.git' || SKIPPED.test(`${rel}/`)) continue;
        if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
        else out.push(rel);
      }
    };
    walk('');
    return out;
  }
}

describe('citationsIn', () => {
  // Samples are split so that a plain grep for citations does not find this file.
  it.each([
    ['mapping every outcome to DESIGN ' + 'section 3', 'a design document outside the repository'],
    ['(STYLE.md "Module boundaries")', 'a style guide outside the repository'],
    ['the typed queries (STYLE "Migrations and typed queries")', 'a style guide outside the repository'],
    ['Spec 4.1: every job endpoint.', 'a section number of the product spec'],
    ['never retried (spec section 7)', 'a section number of the product spec'],
    ['delivery envelope (see\n * section 6, README)', 'a numbered section of a document outside the repository'],
    ['Issue 16.5: unknown is not false.', 'an issue number'],
    ['(issue ' + '14, item 5)', 'an issue number'],
    [
      'The product spec is `../' + 'shared/spec/crawl-data-service-api.md`',
      'a file next to the checkout (only ../shared/fixtures/amazon may be named)',
    ],
    ['is /work/' + 'shared/fixtures/amazon', 'an absolute path of one machine'],
  ])('finds %j', (text, what) => {
    expect(citationsIn(text).map((c) => c.what)).toEqual([what]);
  });

  it.each([
    "path.resolve(__dirname, '../../../../../shared/fixtures/amazon')",
    'Parser tests read the real pages in `../shared/fixtures/amazon/`',
    'see docs/fetch-contract.md',
    'const { targets, issues } = normalizeTargets(type, values)',
    'expect(pod.spec.securityContext?.runAsNonRoot).toBe(true)',
    'ioredis 5 throws from a callback (redis/ioredis#1931)',
    'the `webhooks` section of the document',
  ])('lets %j pass', (text) => {
    expect(citationsIn(text)).toEqual([]);
  });
});

it('no source, script, config or README cites a document outside the repository', () => {
  const files = repositoryFiles().filter((f) => CHECKED.test(f) && !SKIPPED.test(f) && f !== SELF && existsSync(path.join(ROOT, f)));
  expect(files.length).toBeGreaterThan(300);
  const offences = files.flatMap((file) =>
    citationsIn(readFileSync(path.join(ROOT, file), 'utf8')).map((c) => `${file}:${c.line}: ${c.what}: ${c.text}`),
  );
  if (offences.length) {
    throw new Error(
      `${offences.length} line(s) cite what a clone of the repository does not have. Explain in words, or point at ` +
        `docs/ (or the README), instead:\n${offences.join('\n')}`,
    );
  }
});

/**
 * A heading's anchor as GitHub makes it: lower case, markup and punctuation dropped (hyphens and
 * underscores kept), each space a hyphen; a repeated heading gets `-1`, `-2`, ...
 */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The relative links of a markdown file (code blocks and inline code left out), with their anchors. */
function relativeLinks(markdown: string): { target: string; anchor: string | undefined }[] {
  const text = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(<?([^)\s>]*)>?(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((link) => link !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(link))
    .map((link) => {
      const [target, anchor] = link.split('#', 2) as [string, string | undefined];
      return { target, anchor };
    });
}

it('anchors and links are read as GitHub reads them', () => {
  expect([...anchorsOf('# Exports\n## The llm contract and its changelog\n### `GET /x`: a, b\n## Formats\n## Formats\n')]).toEqual([
    'exports',
    'the-llm-contract-and-its-changelog',
    'get-x-a-b',
    'formats',
    'formats-1',
  ]);
  expect(relativeLinks('[a](docs/x.md#y) [b](https://e.org) ![c](p.png) `[d](no.md)` [e](#top)')).toEqual([
    { target: 'docs/x.md', anchor: 'y' },
    { target: 'p.png', anchor: undefined },
    { target: '', anchor: 'top' },
  ]);
});

it('every relative link of the README and of docs/ leads to a file of the repository, and to a heading of it', () => {
  const docs = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'));
  expect(docs).toEqual(
    expect.arrayContaining([
      'README.md',
      'architecture.md',
      'http-api.md',
      'fetch-contract.md',
      'tenancy-and-credits.md',
      'events-and-webhooks.md',
      'operations.md',
      'testing.md',
      'configuration.md',
      'exports.md',
      'results.md',
      'walkthrough.md',
    ]),
  );
  const files = ['README.md', ...docs.map((d) => `docs/${d}`)];
  const broken = files.flatMap((file) => {
    const dir = path.dirname(path.join(ROOT, file));
    return relativeLinks(readFileSync(path.join(ROOT, file), 'utf8')).flatMap(({ target, anchor }) => {
      const full = target === '' ? path.join(ROOT, file) : path.resolve(dir, target);
      const shown = `${file}: ${target}${anchor === undefined ? '' : `#${anchor}`}`;
      if (!existsSync(full)) return [`${shown} (no such file)`];
      if (anchor === undefined || !full.endsWith('.md')) return [];
      return anchorsOf(readFileSync(full, 'utf8')).has(anchor) ? [] : [`${shown} (no such heading)`];
    });
  });
  expect(broken).toEqual([]);
});
