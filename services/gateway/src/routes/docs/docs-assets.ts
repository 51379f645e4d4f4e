import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The files the docs page loads; everything else of swagger-ui-dist stays with express.static. */
export const PRECOMPRESSED_ASSETS = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
} as const;

type Encoding = 'br' | 'gzip' | 'identity';
interface Variant {
  body: Buffer;
  etag: string;
}
type Compressed = Record<Encoding, Variant>;

/**
 * Compresses one asset once per process, in zlib's thread pool: brotli quality 9 (the 1.7 MB
 * bundle becomes 390 KB in about 0.3 s; quality 11 saves 8 % more but costs 5 s of CPU), gzip
 * level 9 for clients without br. Lazy (first request) rather than at boot, because every
 * gateway test builds an app and most never open /docs.
 */
async function compress(file: string): Promise<Compressed> {
  const body = await readFile(file);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const [br, gz] = await Promise.all([
    brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gzipAsync(body, { level: 9 }),
  ]);
  // One ETag per representation (RFC 9110 8.8.3): a cache must not answer a gzip request with br bytes.
  return { identity: { body, etag: `"${hash}"` }, br: { body: br, etag: `"${hash}-br"` }, gzip: { body: gz, etag: `"${hash}-gz"` } };
}

/**
 * The client's most wanted of br, gzip and identity (RFC 9110 12.5.3: q-values, `*`, no header
 * means identity only). On equal q our order wins (br is smaller), not the header's: browsers
 * send `gzip, deflate, br` with no q-values at all.
 */
export function chooseEncoding(header: string | undefined): Encoding {
  const q = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const of = (name: Encoding) => q.get(name) ?? q.get('*') ?? (name === 'identity' ? 1 : 0);
  let best: Encoding = 'identity';
  for (const name of ['gzip', 'br'] as const) if (of(name) > 0 && of(name) >= of(best)) best = name;
  return best;
}

function send(req: Request, res: Response, type: string, variant: Variant, encoding: Encoding, immutable: boolean): void {
  res.setHeader('Vary', 'Accept-Encoding');
  // A versioned URL (`?v=` the swagger-ui-dist version, as the docs page links it) never
  // changes content: a year and immutable. Any other URL revalidates hourly with the ETag.
  res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
  res.setHeader('ETag', variant.etag);
  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === variant.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', type);
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', variant.body.length);
  res.status(200).end(req.method === 'HEAD' ? undefined : variant.body);
}

/**
 * Serves the Swagger UI bundle and stylesheet compressed (br or gzip, chosen from
 * Accept-Encoding with its q-values; identity when neither is accepted) with an ETag. Scoped to
 * these two files on purpose: a general compression middleware would also buffer the export
 * downloads, whose streaming and backpressure keep the gateway's memory flat.
 */
export function precompressedAssets(dir: string, version: string): RequestHandler {
  const cache = new Map<string, Promise<Compressed>>();
  return (req, res, next) => {
    const name = req.path.replace(/^\//, '') as keyof typeof PRECOMPRESSED_ASSETS;
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !Object.hasOwn(PRECOMPRESSED_ASSETS, name)) return next();
    let pending = cache.get(name);
    if (!pending) {
      pending = compress(path.join(dir, name));
      // A failed read is retried on the next request rather than cached forever.
      pending.catch(() => cache.delete(name));
      cache.set(name, pending);
    }
    pending.then((variants) => {
      const encoding = chooseEncoding(req.headers['accept-encoding']);
      send(req, res, PRECOMPRESSED_ASSETS[name], variants[encoding], encoding, req.query.v === version);
    }, next);
  };
}
