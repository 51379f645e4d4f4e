import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

export interface ConsoleFile {
  type: string;
  etag: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

/**
 * The console's built files (console/dist), read once at start: a few hundred kilobytes, with
 * the .gz and .br the build wrote beside each text file, so no request compresses anything.
 */
export class ConsoleAssets {
  private constructor(
    private readonly files: Map<string, ConsoleFile>,
    readonly dir: string,
  ) {}

  static load(dir: string): ConsoleAssets {
    const files = new Map<string, ConsoleFile>();
    if (existsSync(dir)) {
      for (const file of walk(dir)) {
        if (file.endsWith('.gz') || file.endsWith('.br')) continue;
        const identity = readFileSync(file);
        const rel = `/${path.relative(dir, file).split(path.sep).join('/')}`;
        files.set(rel, {
          type: TYPES[path.extname(file)] ?? 'application/octet-stream',
          etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
          identity,
          gzip: readIfExists(`${file}.gz`),
          br: readIfExists(`${file}.br`),
        });
      }
    }
    return new ConsoleAssets(files, dir);
  }

  get built(): boolean {
    return this.files.has('/index.html');
  }

  get(relativePath: string): ConsoleFile | undefined {
    return this.files.get(relativePath);
  }
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else yield full;
  }
}

function readIfExists(file: string): Buffer | undefined {
  return existsSync(file) ? readFileSync(file) : undefined;
}
