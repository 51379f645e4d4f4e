// Writes .gz and .br beside every text asset of dist/, once at build time, so the gateway serves
// them without compressing per request (zlib ships both; no library needed).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..', 'dist');
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (TEXT.test(name)) yield full;
  }
}

let raw = 0;
let br = 0;
for (const file of files(DIST)) {
  const body = readFileSync(file);
  const brotli = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
  writeFileSync(`${file}.br`, brotli);
  raw += body.length;
  br += brotli.length;
}
console.log(`console: precompressed ${(raw / 1024).toFixed(0)} KB of text assets to ${(br / 1024).toFixed(0)} KB (brotli)`);
