import type http from 'node:http';
import { type RecordingServer as Recorder, startRecordingServer as listen } from '@crawl/testing';
import { fetchPage, MAX_REDIRECTS } from './fetch-page';
import { type CrawlSession, createSession, destroySession } from './sessions';

const page = (res: http.ServerResponse, body = '<html>ok</html>') => res.writeHead(200, { 'content-type': 'text/html' }).end(body);

let canary: Recorder;
let marketplace: Recorder;
/** Location the marketplace answers for `/dp/REDIRECT__` requests; set per test. */
let redirectTo = '/';
let session: CrawlSession;

beforeAll(async () => {
  canary = await listen((_req, res) => page(res, '<html>internal</html>'));
  marketplace = await listen((req, res) => {
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url?.startsWith('/dp/REDIRECT__')) return res.writeHead(302, { location: redirectTo }).end();
    if (req.url === '/moved')
      return res.writeHead(301, { location: '/Some-Product/dp/B0DR8G428S/ref=sr_1_1#reviews', 'set-cookie': 'session-id=1; Path=/' }).end();
    return page(res, `<html>${req.url}|${req.headers.cookie ?? ''}</html>`);
  });
  session = createSession(0, null);
});
afterAll(async () => {
  destroySession(session);
  await canary.close();
  await marketplace.close();
});
beforeEach(() => {
  canary.hits.length = 0;
  marketplace.hits.length = 0;
});

const options = () => ({ origin: marketplace.url, timeoutMs: 2_000, acceptLanguage: 'en-US' });

describe('fetchPage: requests and redirects stay on the marketplace origin', () => {
  it('follows a redirect within the origin (cookies kept, fragment dropped)', async () => {
    const result = await fetchPage(`${marketplace.url}/moved`, session, options());
    expect(result).toMatchObject({ kind: 'response', status: 200, url: `${marketplace.url}/Some-Product/dp/B0DR8G428S/ref=sr_1_1` });
    expect(result.kind === 'response' && result.body.toString('utf8')).toBe(
      '<html>/Some-Product/dp/B0DR8G428S/ref=sr_1_1|session-id=1</html>',
    );
  });

  it.each([
    ['another host', () => `${canary.url}/x`],
    ['a protocol-relative location', () => `//127.0.0.1:${canary.port}/x`],
    ['a backslash location', () => `/\\127.0.0.1:${canary.port}/x`],
    ['a double-backslash location', () => `\\\\127.0.0.1:${canary.port}/x`],
    ['userinfo naming the origin', () => `http://127.0.0.1:${marketplace.port}@127.0.0.1:${canary.port}/x`],
    ['userinfo on the origin itself', () => `http://user:pw@127.0.0.1:${marketplace.port}/dp/B0DR8G428S`],
    ['another scheme on the same host', () => `https://127.0.0.1:${marketplace.port}/x`],
    ['the same host on another port', () => `http://127.0.0.1:${canary.port}/dp/B0DR8G428S`],
  ])('refuses a redirect to %s without requesting it', async (_name, location) => {
    redirectTo = location();
    const result = await fetchPage(`${marketplace.url}/dp/REDIRECT__`, session, options());
    expect(result).toMatchObject({ kind: 'redirect_refused', reason: 'off_origin' });
    expect(canary.hits).toEqual([]);
    expect(marketplace.hits).toEqual(['/dp/REDIRECT__']);
  });

  it(`stops a redirect loop after ${MAX_REDIRECTS} hops`, async () => {
    const result = await fetchPage(`${marketplace.url}/loop`, session, options());
    expect(result).toMatchObject({ kind: 'redirect_refused', reason: 'too_many' });
    expect(marketplace.hits).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('refuses a first URL that is not on the origin', async () => {
    const result = await fetchPage(`${canary.url}/dp/B0DR8G428S`, session, options());
    expect(result).toMatchObject({ kind: 'redirect_refused', reason: 'off_origin' });
    expect(canary.hits).toEqual([]);
  });
});
