import { readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import { z } from 'zod';
import { type Resource, routesOf } from '../route';
import { precompressedAssets } from './docs-assets';

// Resolved, not required: the package's main module loads the whole 40 MB bundle into memory.
const ASSETS_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
/** In the asset URLs so that browsers may cache them as immutable: an upgrade changes the URL. */
const ASSETS_VERSION = (JSON.parse(readFileSync(path.join(ASSETS_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/** Swagger UI, served from the package (no CDN): the docs work offline and behind firewalls. */
const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Crawl Data Service API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css?v=${ASSETS_VERSION}"></head>
<body><div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js?v=${ASSETS_VERSION}"></script>
<script src="/docs/assets/init.js"></script>
</body></html>`;

/** A file of its own, not an inline script, so that the CSP can forbid inline scripts. */
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, persistAuthorization: true });\n`;

/**
 * The docs page runs a large third-party bundle next to a field where users paste their API
 * key: scripts only from this origin, no framing (clickjacking), no plugins, requests only to
 * this origin. Swagger UI sets inline styles and shows data: images, hence those two.
 */
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function docsHeaders(_req: express.Request, res: express.Response, next: express.NextFunction): void {
  res.setHeader('Content-Security-Policy', DOCS_CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}

/** The docs resource serves the API's own document, which the route table builds (openapi/document.ts). */
export interface DocsService {
  openApiDocument(): object;
}

const route = routesOf<DocsService>();

export const docsRoutes = [
  route({
    method: 'get',
    path: '/openapi.json',
    tag: 'Operations',
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of this API.',
    status: 200,
    responseDescription: 'OpenAPI 3.1 JSON',
    errors: [],
    access: 'public',
    content: { 'application/json': { schema: z.record(z.unknown()) } },
    handler: ({ service }) => ({ status: 200, body: service.openApiDocument() }),
  }),
  route({
    method: 'get',
    path: '/docs',
    tag: 'Operations',
    summary: 'API documentation',
    description: 'Interactive API documentation of this document (works offline).',
    status: 200,
    responseDescription: 'HTML page',
    errors: [],
    access: 'public',
    content: { 'text/html': { schema: z.string() } },
    handler: () => ({ status: 200, type: 'html', body: DOCS_HTML }),
  }),
];

export const docsResource: Resource<DocsService> = {
  routes: docsRoutes,
  service: (_ctx, openApiDocument) => ({ openApiDocument }),
  beforeRoutes(router: Router) {
    router.use(['/docs', '/docs/*splat'], docsHeaders);
  },
  afterRoutes(router: Router) {
    // An asset like the bundle beside it (mounted, not a route: the API document lists routes).
    router.use('/docs/assets/init.js', (_req, res) => {
      res.type('text/javascript').send(DOCS_INIT);
    });
    // The bundle and stylesheet the page loads, compressed; the rest of the package as it is.
    router.use('/docs/assets', precompressedAssets(ASSETS_DIR, ASSETS_VERSION));
    router.use('/docs/assets', express.static(ASSETS_DIR, { index: false, maxAge: '1h' }));
  },
};
