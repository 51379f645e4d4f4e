/**
 * operationIds derived from an operation's method and path, so a new route gets a stable,
 * readable camelCase name without anyone keeping a list of them:
 *
 *   POST /v1/key/projects/{projectId}/jobs            createJob
 *   GET  /v1/key/projects/{projectId}/jobs            listJobs (a paginated answer) / getWebhooks (any other)
 *   GET  /v1/key/jobs/{jobId}                         getJob (also updateX, deleteX, replaceX for PATCH, DELETE, PUT)
 *   POST /v1/key/jobs/{jobId}/cancel                  cancelJob (POST of a sub-path: its last segment is the verb)
 *   GET  /v1/key/jobs/{jobId}/results                 listJobResults / getTrackedTargetTimeline
 *
 * The `/v1/key` prefix and the owning `projects/{projectId}` are left out: every operation of the
 * API is a project's. Generated clients name their methods after these, so a rename breaks
 * them: an operation whose derived name reads badly sets its own `operationId` once, where it is
 * declared, and then keeps it.
 */
export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

const ITEM_VERB: Record<HttpMethod, string> = { get: 'get', post: 'create', patch: 'update', put: 'replace', delete: 'delete' };

const pascal = (segment: string): string =>
  segment
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase())
    .join('');

const camel = (segment: string): string => {
  const p = pascal(segment);
  return p[0]!.toLowerCase() + p.slice(1);
};

/** `deliveries` -> `delivery`, `jobs` -> `job`, `analytics` and `usage` stay. */
export function singular(word: string): string {
  if (/ies$/.test(word)) return word.replace(/ies$/, 'y');
  if (/(ss|us|ics)$/.test(word)) return word;
  return word.replace(/s$/, '');
}

const isParam = (segment: string) => segment.startsWith('{');

export function deriveOperationId(method: HttpMethod, path: string, opts: { paginated?: boolean } = {}): string {
  let segments = path.split('/').filter(Boolean);
  if (segments[0] === 'v1' && segments[1] === 'key') segments = segments.slice(2);
  if (segments[0] === 'projects' && segments[1] === '{projectId}' && segments.length > 2) segments = segments.slice(2);
  const literals = segments.filter((s) => !isParam(s));
  const last = segments.at(-1) ?? '';
  const name = (verb: string, words: string[]) => verb + words.map(pascal).join('');

  // /jobs/{jobId}: the item itself
  if (isParam(last)) return name(ITEM_VERB[method], literals.map(singular));
  // /jobs: the collection
  if (segments.length === 1) {
    if (method === 'post') return name('create', [singular(last)]);
    if (method === 'get') return name(opts.paginated ? 'list' : 'get', [last]);
    return name(ITEM_VERB[method], [last]);
  }
  const owner = literals.slice(0, -1).map(singular);
  // POST /jobs/{jobId}/cancel, /jobs/estimate: an action on what precedes it
  if (method === 'post') return camel(last) + owner.map(pascal).join('');
  if (method === 'get') return name(opts.paginated ? 'list' : 'get', [...owner, last]);
  return name(ITEM_VERB[method], [...owner, last]);
}
