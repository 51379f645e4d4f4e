/**
 * A job type is one module per layer, gathered in registries typed by JobType. This shows that
 * the compiler catches a missing kind: each registry, copied with one entry removed, fails to
 * type-check with an error naming the missing type, and the same copy with every entry
 * type-checks cleanly (so the error is the removal's, not the copy's).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const REGISTRIES = [
  'packages/core/src/kinds/index.ts',
  'packages/marketplace/src/kinds/index.ts',
  'packages/jobs/src/kinds/index.ts',
  'packages/exports/src/kinds/index.ts',
];

/** A copy of a registry module in `dir`, its relative imports pointed back at the original folder, optionally without one entry. */
function copyOf(registry: string, dir: string, without: string | null): string {
  const source = path.join(ROOT, registry);
  let text = fs
    .readFileSync(source, 'utf8')
    .replace(/from '(\.\.?\/[^']*)'/g, (_m, rel: string) => `from '${path.join(path.dirname(source), rel)}'`);
  if (without) {
    const entry = new RegExp(`^  ${without},\\n`, 'm');
    expect(text).toMatch(entry);
    text = text.replace(entry, '');
  }
  const file = path.join(dir, `${registry.replace(/[/.]/g, '_')}${without ? `-without-${without}` : ''}.ts`);
  fs.writeFileSync(file, text);
  return file;
}

test('removing one entry from any job-kind registry fails the type check, naming the missing type', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'job-kinds-'));
  try {
    const complete = REGISTRIES.map((r) => copyOf(r, dir, null));
    const missing = REGISTRIES.map((r) => copyOf(r, dir, 'reviews'));
    // The repository's own type-check settings (`pnpm typecheck`), for these files only.
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(ROOT, 'tsconfig.check.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const program = ts.createProgram([...complete, ...missing], config!.options);
    const errors = (file: string) =>
      ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    for (const file of complete) expect([path.basename(file), errors(file)]).toEqual([path.basename(file), []]);
    for (const file of missing) {
      const found = errors(file);
      expect([path.basename(file), found.some((m) => /'reviews'/.test(m) && /missing/i.test(m))]).toEqual([path.basename(file), true]);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);
