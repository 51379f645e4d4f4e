import { gzipSync } from 'node:zlib';
import { createTenant, type TestTenant } from '@crawl/testing';
import { seedCompletedJob } from '../test-support/exports';
import { bearer, type Harness, startHarness } from '../test-support/harness';

/** Answers to bad input that say what is wrong, once, and about the right part of the request. */
let h: Harness;
let tenant: TestTenant;
beforeAll(async () => {
  h = await startHarness();
  tenant = await createTenant(h.deps.db);
});
afterAll(() => h.close());

const auth = () => bearer(tenant.apiKey);
const jobs = () => `/v1/key/projects/${tenant.projectId}/jobs`;

describe('a path that is not valid percent-encoding', () => {
  it.each(['%ff', '%zz', 'job_%c3'])('GET /v1/key/jobs/%s is a 400 about the path, not about a body', async (id) => {
    const res = await h.http.get(`/v1/key/jobs/${id}`).set(auth());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'The URL path is not valid percent-encoding (each %XX must encode UTF-8).',
      details: [{ path: 'path', message: 'must be valid percent-encoded UTF-8' }],
    });
  });

  it('a valid encoding of a job id that does not exist is still a 404', async () => {
    expect((await h.http.get('/v1/key/jobs/job_%41bc').set(auth())).status).toBe(404);
  });
});

describe('a body the gateway cannot decode', () => {
  it('Content-Encoding it does not support is a 400 naming the encoding', async () => {
    const res = await h.http
      .post(jobs())
      .set(auth())
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-evil')
      .send('{"type":"details","targets":["B0DR8G428S"]}');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Content-Encoding "x-evil" is not supported; send the body uncompressed or with gzip, deflate or br.',
      details: [{ path: 'header.Content-Encoding', message: 'must be identity, gzip, deflate or br' }],
    });
  });

  it('a charset other than UTF-8 is a 400 naming the charset', async () => {
    const res = await h.http
      .post(jobs())
      .set(auth())
      .set('Content-Type', 'application/json; charset=latin1')
      .send('{"type":"details","targets":["B0DR8G428S"]}');
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
      400,
      'VALIDATION_ERROR',
      'Charset "latin1" is not supported; the body must be UTF-8 JSON.',
    ]);
  });

  it('a gzip body that really is gzip is accepted', async () => {
    const { url } = await h.listen();
    const res = await fetch(`${url}${jobs()}`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ type: 'details', targets: ['B0DR8G428S'] })),
    });
    expect([res.status, ((await res.json()) as { data?: { type?: string } }).data?.type]).toEqual([202, 'details']);
  });
});

describe('config.pages beyond the maximum', () => {
  it.each([
    ['search', ['usb c cable'], 100, 'Invalid request body: config.pages must be at most 7 for search jobs.'],
    ['search', ['usb c cable'], 8, 'Invalid request body: config.pages must be at most 7 for search jobs.'],
    ['reviews', ['B0DR8G428S'], 100, 'Invalid request body: config.pages must be at most 10 for reviews jobs.'],
    ['offers', ['B0DR8G428S'], 11, 'Invalid request body: config.pages must be at most 10 for offers jobs.'],
    ['details', ['B0DR8G428S'], 100, 'Invalid request body: config.pages applies to search, offers and reviews jobs only.'],
  ])("%s %j with pages %d: the message names the type's own limit", async (type, targets, pages, message) => {
    for (const path of [jobs(), `${jobs()}/estimate`]) {
      const res = await h.http.post(path).set(auth()).send({ type, targets, config: { pages } });
      expect([path, res.status, res.body.error.message]).toEqual([path, 400, message]);
      expect(res.body.error.details).toContainEqual({
        path: 'body.config.pages',
        message: message.replace(/^Invalid request body: config\.pages /, '').replace(/\.$/, ''),
      });
    }
  });
});

describe('validation messages say each thing once', () => {
  it.each([
    [
      'an unknown query parameter',
      () => h.http.get(`${jobs()}?kind=details`),
      'Invalid request query: unknown field(s): kind.',
      { path: 'query', message: 'unknown field(s): kind' },
    ],
    [
      'a query value out of range',
      () => h.http.get(`${jobs()}?limit=0`),
      'Invalid request query: limit must be at least 1.',
      { path: 'query.limit', message: 'must be at least 1' },
    ],
    [
      'an unknown body field',
      () => h.http.post(jobs()).send({ type: 'details', target: ['B0DR8G428S'], targets: ['B0DR8G428S'] }),
      'Invalid request body: unknown field(s): target.',
      { path: 'body', message: 'unknown field(s): target' },
    ],
    [
      'a nested body field',
      () => h.http.post(jobs()).send({ type: 'details', targets: ['B0DR8G428S'], config: { marketplace: 'XX' } }),
      /^Invalid request body: config\.marketplace [^.]+\.$/,
      { path: 'body.config.marketplace' },
    ],
  ])('%s', async (_name, send, message, detail) => {
    const res = await send().set(auth());
    expect(res.status).toBe(400);
    if (typeof message === 'string') expect(res.body.error.message).toBe(message);
    else expect(res.body.error.message).toMatch(message);
    expect(res.body.error.message).not.toMatch(/: (query|body|path)[. ]/);
    expect(res.body.error.details[0]).toMatchObject(detail);
  });
});

describe('the estimate and the job agree on pages', () => {
  it.each([
    ['details', ['B0DR8G428S'], undefined, null],
    ['offers', ['B0DR8G428S'], undefined, 10],
    ['offers', ['B0DR8G428S'], 2, 2],
    ['search', ['usb c cable'], undefined, 1],
    ['search', ['usb c cable'], 3, 3],
    ['reviews', ['B0DR8G428S'], 2, 2],
  ])('%s %j, config.pages %s: pages %s on the estimate and on the job', async (type, targets, pages, expected) => {
    const body = { type, targets, ...(pages ? { config: { pages } } : {}) };
    const estimate = await h.http.post(`${jobs()}/estimate`).set(auth()).send(body);
    const created = await h.http.post(jobs()).set(auth()).send(body);
    expect([estimate.status, created.status]).toEqual([200, 202]);
    expect([estimate.body.data.pages, created.body.data.pages]).toEqual([expected, expected]);
    expect(estimate.body.data.cost).toBe(created.body.data.credits.reserved);
  });
});

describe('compare with deleted results', () => {
  it('answers 410 GONE, like results and export, whichever side was deleted', async () => {
    const [kept, deleted] = [await seedCompletedJob(h.deps.db, tenant, 3, 10), await seedCompletedJob(h.deps.db, tenant, 3, 10)];
    const compare = (from: string, to: string) =>
      h.http.get(`/v1/key/projects/${tenant.projectId}/compare?from=${from}&to=${to}`).set(auth());
    expect((await compare(kept, deleted)).status).toBe(200);
    expect((await h.http.delete(`/v1/key/jobs/${deleted}`).set(auth())).status).toBe(200);
    for (const [from, to] of [
      [kept, deleted],
      [deleted, kept],
      [deleted, deleted],
    ]) {
      const res = await compare(from!, to!);
      expect([res.status, res.body.error.code]).toEqual([410, 'GONE']);
      expect(res.body.error.message).toContain(`The results of job ${deleted} were deleted on `);
    }
    expect((await h.http.get(`/v1/key/jobs/${deleted}/results`).set(auth())).status).toBe(410);
    expect((await compare(kept, kept)).status).toBe(200);
  });
});
