import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { contractRecorder, MAX_CAPTURED_BODY, recordContractProblems, takeContractProblems } from './contract-recorder';
import { createContractChecker } from './openapi-contract';
import { OPEN_SUFFIX, tightenDocument } from './openapi-strict';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const obj = (properties: Record<string, object>, extra: object = {}) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  ...extra,
});
const signature = { name: 'X-Service-Signature', in: 'header', required: true, schema: { type: 'string' } };

/** Shaped like zod-to-openapi's output: open objects, `.extend()` as allOf, discriminated unions as oneOf. */
const DOC = {
  openapi: '3.1.0',
  info: { title: 'contract test', version: '1' },
  components: {
    schemas: {
      Progress: obj({ total: { type: 'integer' }, done: { type: 'integer' } }),
      Job: obj({
        id: { type: 'string' },
        status: { type: 'string', enum: ['queued', 'done'] },
        createdAt: { type: 'string', format: 'date-time' },
        progress: ref('Progress'),
      }),
      DetailedJob: { allOf: [ref('Job'), obj({ targets: { type: 'array', items: { type: 'string' } } })] },
      AuditedJob: { allOf: [ref('DetailedJob'), obj({ auditedBy: { type: 'string' } })] },
      SearchEvent: obj({ kind: { type: 'string', enum: ['search'] }, keyword: { type: 'string' } }),
      Event: {
        oneOf: [ref('SearchEvent'), obj({ kind: { type: 'string', enum: ['details'] }, asin: { type: 'string' } })],
        discriminator: { propertyName: 'kind' },
      },
      Error: obj({ error: obj({ code: { type: 'string' }, message: { type: 'string' } }) }),
    },
    responses: { NotFound: { description: 'not found', ...json(ref('Error')) } },
  },
  paths: {
    '/v1/jobs/{jobId}': {
      get: {
        responses: { 200: { description: 'ok', ...json(obj({ data: ref('Job') })) }, 404: { $ref: '#/components/responses/NotFound' } },
      },
      delete: { responses: { 202: { description: 'accepted, no body' } } },
    },
    '/v1/jobs/{jobId}/detailed': { get: { responses: { 200: { description: 'ok', ...json(obj({ data: ref('DetailedJob') })) } } } },
    '/v1/jobs/{jobId}/audited': { get: { responses: { 200: { description: 'ok', ...json(obj({ data: ref('AuditedJob') })) } } } },
    '/v1/jobs/{jobId}/events': {
      get: { responses: { 200: { description: 'ok', ...json(obj({ data: { type: 'array', items: ref('Event') } })) } } },
    },
    '/v1/jobs/{jobId}/export': {
      get: {
        responses: {
          200: {
            description: 'file',
            content: {
              'application/json': { schema: { type: 'array', items: { type: 'object', additionalProperties: {} } } },
              'text/csv': { schema: { type: 'string' } },
            },
          },
        },
      },
    },
    '/v1/hooks/test': { post: { responses: { 200: { description: 'ok', ...json(obj({ data: obj({ ok: { type: 'boolean' } }) })) } } } },
    '/v1/hooks/{hookId}': { post: { responses: { 200: { description: 'ok', ...json(obj({ data: obj({ id: { type: 'string' } }) })) } } } },
    '/v1/stats': {
      get: {
        responses: {
          200: {
            description: 'ok',
            ...json(obj({ data: obj({ counts: { type: 'object', additionalProperties: { type: 'integer' } } }) })),
          },
          default: { description: 'error', ...json(ref('Error')) },
        },
      },
    },
  },
  webhooks: {
    'job.completed': {
      post: {
        operationId: 'job.completed',
        parameters: [signature],
        requestBody: { content: { 'application/json': { schema: obj({ event: { const: 'job.completed' }, data: ref('Job') }) } } },
        responses: { 200: { description: 'ok' } },
      },
    },
    productChanged: {
      post: {
        operationId: 'product.changed',
        parameters: [signature],
        requestBody: {
          content: {
            'application/json': { schema: obj({ event: { const: 'product.changed' }, data: obj({ asin: { type: 'string' } }) }) },
          },
        },
        responses: { 200: { description: 'ok' } },
      },
    },
  },
};

const job = { id: 'job_1', status: 'done', createdAt: '2026-01-01T00:00:00.000Z', progress: { total: 2, done: 2 } };
const checker = createContractChecker(DOC);
const check = (method: string, url: string, status: number, body: unknown, contentType = 'application/json') =>
  checker.checkResponse({ method, path: url, status, contentType, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('tightenDocument', () => {
  const tight = tightenDocument(DOC) as { components: { schemas: Record<string, Record<string, any>> } };
  const schemas = tight.components.schemas;

  it('closes plain objects and composition owners, and keeps allOf members open', () => {
    expect(schemas.Job!.unevaluatedProperties).toBe(false);
    expect(schemas.DetailedJob!.unevaluatedProperties).toBe(false);
    expect(schemas.DetailedJob!.allOf[0]).toEqual(ref(`Job${OPEN_SUFFIX}`));
    expect(schemas.DetailedJob!.allOf[1].unevaluatedProperties).toBeUndefined();
    expect(schemas[`Job${OPEN_SUFFIX}`]!.unevaluatedProperties).toBeUndefined();
    // nested objects of an open copy are other instance locations: still closed
    expect(schemas[`Job${OPEN_SUFFIX}`]!.properties.progress).toEqual(ref('Progress'));
    expect(schemas[`DetailedJob${OPEN_SUFFIX}`]!.allOf[0]).toEqual(ref(`Job${OPEN_SUFFIX}`));
  });

  it('keeps records open and leaves the input document untouched', () => {
    expect(JSON.stringify(DOC)).not.toContain('unevaluatedProperties');
    const stats = (tightenDocument(DOC) as any).paths['/v1/stats'].get.responses['200'].content['application/json'].schema;
    expect(stats.properties.data.properties.counts.unevaluatedProperties).toBeUndefined();
  });
});

describe('checkResponse', () => {
  it('accepts a documented body', () => {
    expect(check('GET', '/v1/jobs/job_1?x=1', 200, { data: job })).toEqual([]);
    expect(check('GET', '/v1/jobs/job_1', 404, { error: { code: 'NOT_FOUND', message: 'x' } })).toEqual([]);
  });

  it('rejects undeclared fields, naming the property and where it is', () => {
    expect(check('GET', '/v1/jobs/job_1', 200, { data: { ...job, extra: 1 } })).toEqual([
      'GET /v1/jobs/{jobId} 200: /data must NOT have unevaluated properties (extra)',
    ]);
    expect(check('GET', '/v1/jobs/job_1', 200, { data: { ...job, progress: { total: 1, done: 1, extra: 1 } } })).toEqual([
      'GET /v1/jobs/{jobId} 200: /data/progress must NOT have unevaluated properties (extra)',
    ]);
    expect(check('GET', '/v1/jobs/job_1', 200, { data: job, meta: {} })).toEqual([
      'GET /v1/jobs/{jobId} 200: (root) must NOT have unevaluated properties (meta)',
    ]);
  });

  it('accepts the properties of every allOf member, and rejects the others', () => {
    const detailed = { ...job, targets: ['a'] };
    expect(check('GET', '/v1/jobs/j/detailed', 200, { data: detailed })).toEqual([]);
    expect(check('GET', '/v1/jobs/j/detailed', 200, { data: { ...detailed, extra: 1 } })).toEqual([
      'GET /v1/jobs/{jobId}/detailed 200: /data must NOT have unevaluated properties (extra)',
    ]);
    expect(check('GET', '/v1/jobs/j/detailed', 200, { data: { ...detailed, progress: { total: 1, done: 1, x: 1 } } })).toEqual([
      'GET /v1/jobs/{jobId}/detailed 200: /data/progress must NOT have unevaluated properties (x)',
    ]);
    // an extension of an extension, and the base used standalone stays closed to the extension's fields
    expect(check('GET', '/v1/jobs/j/audited', 200, { data: { ...detailed, auditedBy: 'me' } })).toEqual([]);
    expect(check('GET', '/v1/jobs/j/audited', 200, { data: { ...detailed, auditedBy: 'me', extra: 1 } })).toHaveLength(1);
    expect(check('GET', '/v1/jobs/j', 200, { data: detailed })).toEqual([
      'GET /v1/jobs/{jobId} 200: /data must NOT have unevaluated properties (targets)',
    ]);
  });

  it('checks each alternative of a oneOf union strictly', () => {
    expect(
      check('GET', '/v1/jobs/j/events', 200, {
        data: [
          { kind: 'search', keyword: 'k' },
          { kind: 'details', asin: 'B0' },
        ],
      }),
    ).toEqual([]);
    const problems = check('GET', '/v1/jobs/j/events', 200, { data: [{ kind: 'details', asin: 'B0', keyword: 'k' }] });
    expect(problems).toContain('GET /v1/jobs/{jobId}/events 200: /data/0 must NOT have unevaluated properties (keyword)');
    expect(problems).toContain('GET /v1/jobs/{jobId}/events 200: /data/0 must match exactly one schema in oneOf');
  });

  it('rejects wrong types, enum values and formats', () => {
    expect(
      check('GET', '/v1/jobs/j', 200, { data: { ...job, progress: { total: '2', done: 2 }, status: 'lost', createdAt: 'yesterday' } }),
    ).toEqual([
      'GET /v1/jobs/{jobId} 200: /data/status must be equal to one of the allowed values ("queued", "done")',
      'GET /v1/jobs/{jobId} 200: /data/createdAt must match format "date-time"',
      'GET /v1/jobs/{jobId} 200: /data/progress/total must be integer',
    ]);
  });

  it('accepts any keys in a record', () => {
    expect(check('GET', '/v1/stats', 200, { data: { counts: { anything: 1, else: 2 } } })).toEqual([]);
    expect(check('GET', '/v1/stats', 200, { data: { counts: { anything: 'x' } } })).toEqual([
      'GET /v1/stats 200: /data/counts/anything must be integer',
    ]);
  });

  it('reports undocumented paths, methods and statuses, using default when present', () => {
    expect(check('GET', '/v1/nope', 200, {})).toEqual(['GET /v1/nope: path not documented']);
    expect(check('PUT', '/v1/jobs/j', 200, {})).toEqual(['PUT /v1/jobs/{jobId}: method not documented']);
    expect(check('GET', '/v1/jobs/j', 418, {})).toEqual(['GET /v1/jobs/{jobId} 418: status not documented (documented: 200, 404)']);
    expect(check('GET', '/v1/stats', 500, { error: { code: 'INTERNAL', message: 'x' } })).toEqual([]);
  });

  it('prefers literal segments over templates', () => {
    expect(check('POST', '/v1/hooks/test', 200, { data: { ok: true } })).toEqual([]);
    expect(check('POST', '/v1/hooks/h_1', 200, { data: { id: 'h_1' } })).toEqual([]);
  });

  it('checks the content type and bodies where none is declared', () => {
    expect(check('GET', '/v1/jobs/j', 200, 'ok', 'text/plain')).toEqual([
      'GET /v1/jobs/{jobId} 200: Content-Type text/plain is not documented (declared: application/json)',
    ]);
    expect(check('GET', '/v1/jobs/j', 200, { data: job }, 'application/json; charset=utf-8')).toEqual([]);
    expect(check('GET', '/v1/jobs/j/export', 200, 'asin\nB0', 'text/csv')).toEqual([]);
    expect(check('GET', '/v1/jobs/j/export', 200, [{ any: 1 }])).toEqual([]);
    expect(check('DELETE', '/v1/jobs/j', 202, '', '')).toEqual([]);
    expect(check('DELETE', '/v1/jobs/j', 202, { data: {} })).toEqual([
      'DELETE /v1/jobs/{jobId} 202: a body was sent (application/json) but the document declares none',
    ]);
    expect(check('GET', '/v1/jobs/j', 200, '{"data":', 'application/json')).toEqual([
      'GET /v1/jobs/{jobId} 200: the application/json body is not valid JSON',
    ]);
  });

  it('skips HEAD and OPTIONS', () => {
    expect(check('HEAD', '/v1/nope', 200, '')).toEqual([]);
    expect(check('OPTIONS', '/v1/nope', 204, '')).toEqual([]);
  });
});

describe('checkWebhookDelivery', () => {
  const headers = { 'x-service-signature': 't=1,v1=abc' };

  it('accepts a documented delivery, by key or by operationId, raw or parsed', () => {
    expect(checker.checkWebhookDelivery({ headers, body: { event: 'job.completed', data: job } })).toEqual([]);
    expect(
      checker.checkWebhookDelivery({
        headers: { 'X-Service-Signature': 'x' },
        body: JSON.stringify({ event: 'product.changed', data: { asin: 'B0' } }),
      }),
    ).toEqual([]);
  });

  it('rejects an invalid body', () => {
    expect(checker.checkWebhookDelivery({ headers, body: { event: 'job.completed', data: { ...job, extra: true } } })).toEqual([
      'webhook job.completed: /data must NOT have unevaluated properties (extra)',
    ]);
    expect(checker.checkWebhookDelivery({ headers, body: { event: 'product.changed', data: { asin: 1 } } })).toEqual([
      'webhook product.changed: /data/asin must be string',
    ]);
  });

  it('requires the required headers', () => {
    expect(checker.checkWebhookDelivery({ headers: {}, body: { event: 'job.completed', data: job } })).toEqual([
      'webhook job.completed: missing required header X-Service-Signature',
    ]);
  });

  it('reports unknown events and a missing webhooks section', () => {
    expect(checker.checkWebhookDelivery({ headers, body: { event: 'job.exploded' } })).toEqual([
      'webhook job.exploded: event not documented (documented: job.completed, productChanged)',
    ]);
    const noHooks = createContractChecker({ ...DOC, webhooks: undefined });
    expect(noHooks.checkWebhookDelivery({ headers, body: { event: 'job.completed', data: job } })).toEqual([
      'webhook job.completed: the document has no webhooks section',
    ]);
    expect(checker.checkWebhookDelivery({ headers, body: 'not json' })).toEqual(['webhook: the body is not valid JSON']);
  });
});

describe('contractRecorder', () => {
  type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
  const seen: string[] = [];
  let handler: Handler = (_req, res) => void res.end();
  let finished: Promise<void> = Promise.resolve();
  const recorder = contractRecorder(checker, (problems) => seen.push(...problems));
  const server = http.createServer((req, res) => {
    finished = new Promise((resolve) => res.on('finish', resolve).on('close', resolve));
    recorder(req, res, () => handler(req, res));
  });
  let base = '';

  beforeAll(() =>
    new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve())).then(
      () => void (base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => void seen.splice(0));

  /** Sends one request, returns what the client received (undefined: aborted) once the server side is done. */
  async function exchange(h: Handler, url: string, method = 'GET'): Promise<string | undefined> {
    handler = h;
    const received = await fetch(base + url, { method })
      .then((r) => r.text())
      .catch(() => undefined);
    await finished;
    return received;
  }

  it('passes valid responses through unchanged, whatever the chunking', async () => {
    const sent = JSON.stringify({ data: { ...job, status: 'queued' } });
    const received = await exchange((_req, res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.write(sent.slice(0, 10), 'utf8');
      res.write(Buffer.from(sent.slice(10, 20)));
      res.end(sent.slice(20));
    }, '/v1/jobs/job_1');
    expect(received).toBe(sent);
    expect(seen).toEqual([]);
  });

  it('reports bad bodies, with headers given to writeHead', async () => {
    const sent = JSON.stringify({ data: { ...job, extra: 1 } });
    expect(
      await exchange((_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json' }).end(sent), '/v1/jobs/job_1?verbose=1'),
    ).toBe(sent);
    expect(seen).toEqual(['GET /v1/jobs/{jobId} 200: /data must NOT have unevaluated properties (extra)']);
  });

  it('reports undocumented statuses and content types', async () => {
    await exchange((_req, res) => void res.writeHead(418, { 'content-type': 'text/plain' }).end('teapot'), '/v1/jobs/j');
    await exchange((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>'), '/v1/jobs/j');
    expect(seen).toEqual([
      'GET /v1/jobs/{jobId} 418: status not documented (documented: 200, 404)',
      'GET /v1/jobs/{jobId} 200: Content-Type text/html is not documented (declared: application/json)',
    ]);
  });

  it('does not validate aborted streams', async () => {
    const received = await exchange((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":{"id":1,');
      setTimeout(() => res.destroy(), 20);
    }, '/v1/jobs/j');
    expect(received).toBeUndefined();
    expect(seen).toEqual([]);
  });

  it('skips bodies it cannot read: compressed or over the cap', async () => {
    await exchange(
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(Buffer.from([0x1f, 0x8b, 0])),
      '/v1/jobs/j',
    );
    const big = `{"data":"${'x'.repeat(MAX_CAPTURED_BODY)}"}`;
    expect(
      await exchange((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(big), '/v1/jobs/j'),
    ).toHaveLength(big.length);
    expect(seen).toEqual([]);
  });
});

describe('problem registry', () => {
  it('hands out recorded problems once', () => {
    recordContractProblems(['a', 'b']);
    expect(takeContractProblems()).toEqual(['a', 'b']);
    expect(takeContractProblems()).toEqual([]);
  });
});

describe("the gateway's document", () => {
  it('compiles every documented JSON schema without ajv errors', async () => {
    const dist = path.resolve(__dirname, '../../../services/gateway/dist/openapi/document.js');
    const { openApiDocument } = (await import(dist)) as {
      openApiDocument: () => {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
        webhooks?: Record<string, unknown>;
      };
    };
    const document = openApiDocument();
    const gateway = createContractChecker(document);
    const notFound = (error: object) =>
      gateway.checkResponse({
        method: 'GET',
        path: '/v1/key/jobs/job_x',
        status: 404,
        contentType: 'application/json',
        body: JSON.stringify({ error }),
      });
    expect(notFound({ code: 'NOT_FOUND', message: 'x', requestId: 'r' })).toEqual([]);
    // closed by the checker, or by the document itself (additionalProperties: false)
    expect(notFound({ code: 'NOT_FOUND', message: 'x', requestId: 'r', extra: 1 })).toEqual([
      expect.stringMatching(/^GET \/v1\/key\/jobs\/\{jobId\} 404: \/error must NOT have (unevaluated|additional) properties \(extra\)$/),
    ]);

    const compileErrors: string[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const status of Object.keys(operation.responses ?? {})) {
          const problems = gateway.checkResponse({
            method,
            path: template,
            status: Number(status) || 599,
            contentType: 'application/json',
            body: '{}',
          });
          compileErrors.push(...problems.filter((p) => p.includes('cannot compile')));
        }
      }
    }
    for (const event of Object.keys(document.webhooks ?? {})) {
      compileErrors.push(...gateway.checkWebhookDelivery({ headers: {}, body: { event } }).filter((p) => p.includes('cannot compile')));
    }
    expect(compileErrors).toEqual([]);
  });
});
