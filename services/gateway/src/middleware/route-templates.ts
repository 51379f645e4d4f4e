import type { Router } from 'express';

export interface RouteTemplate {
  method: string;
  /** express form, e.g. `/v1/key/jobs/:jobId/export` */
  path: string;
}

/** Every route a router serves, with `prefix` (where it is mounted) in front. */
export function routeTemplates(router: Router, prefix: string): RouteTemplate[] {
  const out: RouteTemplate[] = [];
  for (const layer of (router as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] }).stack) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) out.push({ method: method.toUpperCase(), path: `${prefix}${layer.route.path}` });
  }
  return out;
}

/**
 * The route template of a request path, whatever became of the request: express only sets
 * `req.route` once a route matched, so a 401 or 429 from the middleware before the routers, or
 * an error thrown inside a mounted router, would otherwise be labelled differently from a 200
 * of the same endpoint. Paths matching no template are `unmatched` (one label, bounded).
 */
export function routeLabeler(templates: RouteTemplate[]): (path: string) => string {
  const patterns = [...new Set(templates.map((t) => t.path))].map((path) => ({
    path,
    regex: new RegExp(
      `^${path
        .split('/')
        .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/')}/?$`,
    ),
  }));
  return (path) => patterns.find((p) => p.regex.test(path))?.path ?? 'unmatched';
}
