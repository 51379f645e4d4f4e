import path from 'node:path';
import express, { Router } from 'express';
import { openApiDocument } from '../../openapi/document';

/** Swagger UI, served from the package (no CDN): the docs work offline and behind firewalls. */
const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Crawl Data Service API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#docs', deepLinking: true, persistAuthorization: true });</script>
</body></html>`;

export function docsRouter(): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  // Resolved, not required: the package's main module loads the whole 40 MB bundle into memory.
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  router.use('/docs/assets', express.static(assets, { index: false, maxAge: '1h' }));
  return router;
}
