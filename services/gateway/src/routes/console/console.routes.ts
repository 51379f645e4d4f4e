import path from 'node:path';
import type { NextFunction, Request, Response, Router } from 'express';
import type { Resource } from '../route';
import { ConsoleAssets, type ConsoleFile } from './console-assets';

/**
 * The console: a single-page app (console/) built to static files, served at /console by the
 * gateway itself, with no server of its own. It is a client of the public API only.
 *
 * - Hashed assets (`/console/assets/*`) are cached for a year as immutable; `index.html` is never
 *   cached, so a deploy is picked up by the next navigation.
 * - Every text file is sent precompressed (brotli or gzip, per Accept-Encoding).
 * - A strict CSP: scripts and styles only from files of this origin (no inline script; the
 *   runtime settings are a script file, `/console/settings.js`), no framing.
 * - Any other path under `/console/` is the app (its router draws the page); `/v1/...` never is.
 * - `/` redirects to `/console`.
 */
const CONSOLE_DIR = path.join(path.dirname(require.resolve('@crawl/console/package.json')), 'dist');

/**
 * react-aria adds one fixed `<style>` element at run time (touch-action for pressable elements);
 * its hash allows exactly that text and no other inline style. The browser tests fail on any CSP
 * violation, so a react-aria upgrade that changes it is caught.
 */
const REACT_ARIA_PRESSABLE_STYLE = "'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='";

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  `style-src 'self' ${REACT_ARIA_PRESSABLE_STYLE}`,
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export interface ConsoleSettings {
  signupMode: string;
}

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
}

function send(req: Request, res: Response, file: ConsoleFile, cacheControl: string): void {
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', file.etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Content-Type', file.type);
  if (req.headers['if-none-match'] === file.etag) {
    res.status(304).end();
    return;
  }
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const [encoding, body] =
    file.br && /\bbr\b/.test(accepted)
      ? ['br', file.br]
      : file.gzip && /\bgzip\b/.test(accepted)
        ? ['gzip', file.gzip]
        : [null, file.identity];
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String(body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}

/** Mounted, not routed: the API document lists the API's operations, and these are files. */
export function consoleRouter(router: Router, assets: ConsoleAssets, settings: ConsoleSettings): void {
  // The service's root is the console: a person who opens the gateway's address lands there.
  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.path === '/' && (req.method === 'GET' || req.method === 'HEAD')) return res.redirect(302, '/console');
    next();
  });
  router.use('/console', securityHeaders, (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // req.path is relative to the mount point: `/`, `/sign-in`, `/assets/index-abc.js`
    if (req.path === '/settings.js') {
      res.setHeader('Cache-Control', 'no-cache');
      res.type('text/javascript').send(`window.__CONSOLE_SETTINGS__ = ${JSON.stringify(settings)};\n`);
      return;
    }
    if (req.path.startsWith('/assets/')) {
      const file = assets.get(req.path);
      // a missing asset is a 404, never the app
      return file ? send(req, res, file, 'public, max-age=31536000, immutable') : next();
    }
    const index = assets.get('/index.html');
    if (!index) {
      res.status(503).type('text/plain').send('The console is not built: run `pnpm build`.\n');
      return;
    }
    send(req, res, index, 'no-cache');
  });
}

export const consoleResource: Resource<ConsoleSettings> = {
  routes: [],
  service: (ctx) => ({ signupMode: ctx.accounts.signup.mode }),
  afterRoutes(router: Router, settings) {
    consoleRouter(router, ConsoleAssets.load(CONSOLE_DIR), settings);
  },
};
