/**
 * The simulator over real sockets: pages, faults, control API, log, cookies and shutdown.
 * Fixture-backed cases run only when the shared fixtures folder exists.
 */
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { describeOnRealPages } from '@crawl/testing';
import { DEFAULT_DETAILS_TEMPLATE, DEFAULT_SEARCH_TEMPLATE, defaultFixturesDir, startSimulator, type Simulator } from './index';
import { detailsTemplateFrom, searchTemplateFrom } from './page-store';

const FIXTURES = defaultFixturesDir();
const describeFixtures = (title: string, body: () => void) => (FIXTURES ? describe(title, body) : describeOnRealPages(title, body));
const fixture = (name: string): Buffer => readFileSync(path.join(FIXTURES as string, name));

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request on a fresh connection (agent: false), so a reset or hang affects only this call. */
function get(url: string, opts: { headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.timeoutMs)
      req.setTimeout(opts.timeoutMs, () => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
  });
}

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeFixtures('pages from the fixtures folder', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  it('serves a details fixture byte-for-byte by its ASIN on every product path form', async () => {
    const page = fixture('details-US-B07G2L3JMM.html');
    for (const p of [
      '/dp/B07G2L3JMM',
      '/gp/product/B07G2L3JMM',
      '/Lighting-Fixture-Plaster/dp/B07G2L3JMM/ref=sr_1_1?th=1',
      '/dp/b07g2l3jmm',
    ]) {
      const res = await get(sim.url + p);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body.equals(page)).toBe(true);
    }
  });

  it('indexes a page without input#ASIN by its canonical link', async () => {
    const res = await get(`${sim.url}/dp/B08PBWPQ16`);
    expect(res.body.equals(fixture('details-ES-B08PBWPQ16.html'))).toBe(true);
  });

  it('picks between marketplaces sharing an ASIN by language, defaulting to US', async () => {
    expect((await get(`${sim.url}/dp/B01GAWQSFW`)).body.equals(fixture('details-US-B01GAWQSFW.html'))).toBe(true);
    expect((await get(`${sim.url}/dp/B01GAWQSFW?language=de_DE`)).body.equals(fixture('details-DE-B01GAWQSFW.html'))).toBe(true);
    const byHeader = await get(`${sim.url}/dp/B01GAWQSFW`, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(byHeader.body.equals(fixture('details-DE-B01GAWQSFW.html'))).toBe(true);
  });

  it('serves the template for an unknown ASIN with that ASIN substituted everywhere', async () => {
    // The template as served: root-relative links made absolute on amazon.com.
    const template = detailsTemplateFrom(DEFAULT_DETAILS_TEMPLATE, fixture(DEFAULT_DETAILS_TEMPLATE), 'B0DR8G428S').page;
    const res = await get(`${sim.url}/dp/B0ZZZZZZZ9`);
    expect(res.status).toBe(200);
    const html = res.body.toString();
    expect(html).toContain('<input id="ASIN" name="ASIN" type="hidden" value="B0ZZZZZZZ9"/>');
    expect(html).not.toContain('B0DR8G428S');
    expect(res.body.length).toBe(template.length);
    expect(html.split('B0ZZZZZZZ9').length).toBe(template.toString().split('B0DR8G428S').length);
  });

  it('keeps concurrent template pages apart while recycling their buffers', async () => {
    const reference = detailsTemplateFrom(DEFAULT_DETAILS_TEMPLATE, fixture(DEFAULT_DETAILS_TEMPLATE), 'B0DR8G428S');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    try {
      const asins = Array.from({ length: 60 }, (_, i) => `B0C${String(i).padStart(7, '0')}`);
      const bodies = await Promise.all(
        asins.map(
          (asin) =>
            new Promise<Buffer>((resolve, reject) => {
              http
                .get(`${sim.url}/dp/${asin}`, { agent }, (res) => {
                  const chunks: Buffer[] = [];
                  res.on('data', (c: Buffer) => chunks.push(c));
                  res.on('end', () => resolve(Buffer.concat(chunks)));
                })
                .on('error', reject);
            }),
        ),
      );
      bodies.forEach((body, i) => expect(body.equals(reference.render(asins[i]!))).toBe(true));
    } finally {
      agent.destroy();
    }
  });

  it('finds search pages by keyword slug, including umlauts', async () => {
    const cases: [string, string][] = [
      ['portable+charger', 'search-US-portable-charger.html'],
      ['Portable%20Charger&language=en_US', 'search-US-portable-charger.html'],
      [encodeURIComponent('plastikfrei für einsteiger'), 'search-DE-plastikfrei-fuer-einsteiger.html'],
      [encodeURIComponent('Plastikfrei Gemüsebeutel'), 'search-DE-plastikfrei-gemuesebeutel.html'],
      ['plastikfrei+besteck', 'search-DE-plastikfrei-besteck.html'],
    ];
    for (const [k, file] of cases) {
      const res = await get(`${sim.url}/s?k=${k}`);
      expect(res.status).toBe(200);
      expect(res.body.equals(fixture(file))).toBe(true);
    }
  });

  it('serves the search template for an unknown keyword and 404 for other paths', async () => {
    const template = searchTemplateFrom(DEFAULT_SEARCH_TEMPLATE, fixture(DEFAULT_SEARCH_TEMPLATE));
    expect((await get(`${sim.url}/s?k=garden+hose`)).body.equals(template.render('garden hose'))).toBe(true);
    for (const p of ['/s', '/s?k=', '/dp/SHORT', '/gp/cart/view.html']) {
      const res = await get(sim.url + p);
      expect(res.status).toBe(404);
      expect(res.body.toString()).toContain('<title>Page Not Found</title>');
    }
  });

  it('serves captcha-1.html for the captcha fault', async () => {
    sim.setFaults([{ fault: { kind: 'captcha' }, times: 1 }]);
    const res = await get(`${sim.url}/dp/B07G2L3JMM`);
    expect(res.status).toBe(200);
    expect(res.body.equals(fixture('captcha-1.html'))).toBe(true);
  });

  it('404s unknown ASINs and keywords when anyAsin/anyKeyword are off', async () => {
    const strict = await startSimulator({ anyAsin: false, anyKeyword: false });
    try {
      expect((await get(`${strict.url}/dp/B0ZZZZZZZ9`)).status).toBe(404);
      expect((await get(`${strict.url}/s?k=garden+hose`)).status).toBe(404);
      expect((await get(`${strict.url}/dp/B07G2L3JMM`)).status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('synthetic pages (no fixtures folder)', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: null });
  });
  afterAll(() => sim.close());

  it('serves a synthetic details page for any ASIN and a synthetic search page for any keyword', async () => {
    const details = await get(`${sim.url}/dp/B0TEST0001`);
    expect(details.status).toBe(200);
    expect(details.body.toString()).toContain('value="B0TEST0001"');
    const search = await get(`${sim.url}/s?k=usb+c+cable`);
    expect(search.body.toString().match(/data-component-type="s-search-result"/g)).toHaveLength(10);
    expect((await get(`${sim.url}/s?k=usb+c+cable`)).body.equals(search.body)).toBe(true);
  });

  it('serves the built-in robot check for the captcha fault', async () => {
    sim.setFaults([{ fault: { kind: 'captcha' }, times: 1 }]);
    const res = await get(`${sim.url}/dp/B0TEST0001`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('<title dir="ltr">Robot Check</title>');
    expect(res.body.toString()).toContain('action="/errors/validateCaptcha"');
  });

  it('serves the built-in sign-in wall for the signin fault', async () => {
    sim.setFaults([{ match: '/product-reviews/', fault: { kind: 'signin' } }]);
    const res = await get(`${sim.url}/product-reviews/B0TEST0001`);
    sim.clearFaults();
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('<form name="signIn"');
    expect(res.body.toString()).toContain('id="ap_email"');
  });
});

describe('faults', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ fixturesDir: null });
  });
  afterEach(() => sim.close());

  it('latency delays the normal answer', async () => {
    sim.setFaults([{ fault: { kind: 'latency', ms: 300 } }]);
    const started = Date.now();
    const res = await get(`${sim.url}/dp/B0TEST0001`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(295);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('B0TEST0001');
  });

  it('redirect faults answer with the status and the Location exactly as given', async () => {
    sim.setFaults([
      { match: 'B0REDIR001', fault: { kind: 'redirect', location: '//127.0.0.1:9/x' } },
      { match: 'B0REDIR002', fault: { kind: 'redirect', location: '/Some-Product/dp/B0REDIR002', status: 301 }, times: 1 },
    ]);
    const off = await get(`${sim.url}/dp/B0REDIR001`);
    expect(off.status).toBe(302);
    expect(off.headers.location).toBe('//127.0.0.1:9/x');
    const moved = await get(`${sim.url}/dp/B0REDIR002`);
    expect(moved).toMatchObject({ status: 301, headers: { location: '/Some-Product/dp/B0REDIR002' } });
    expect((await get(`${sim.url}/Some-Product/dp/B0REDIR002`)).status).toBe(200);
    expect(sim.requests().map((r) => r.status)).toEqual([302, 301, 200]);
    expect(() => sim.setFaults([{ fault: { kind: 'redirect', location: 'a\r\nset-cookie: x=1' } }])).toThrow(/location/);
    expect(() => sim.setFaults([{ fault: { kind: 'redirect', location: '/', status: 200 as 301 } }])).toThrow(/301/);
  });

  it('status faults answer with the code, Retry-After only for 429 and 503', async () => {
    for (const status of [503, 429, 500]) {
      sim.setFaults([{ fault: { kind: 'status', status } }]);
      const res = await get(`${sim.url}/dp/B0TEST0001`);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body.toString()).toContain('Sorry! Something went wrong!');
      expect(res.headers['retry-after']).toBe(status === 500 ? undefined : '1');
    }
  });

  it('not_found answers 404 with the Page Not Found body; empty answers 200 with no body', async () => {
    sim.setFaults([
      { fault: { kind: 'not_found' }, times: 1 },
      { fault: { kind: 'empty' }, times: 1 },
    ]);
    const missing = await get(`${sim.url}/dp/B0TEST0001`);
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toContain('Page Not Found');
    const empty = await get(`${sim.url}/dp/B0TEST0001`);
    expect(empty.status).toBe(200);
    expect(empty.body.length).toBe(0);
  });

  it('reset destroys the connection without an answer', async () => {
    sim.setFaults([{ fault: { kind: 'reset' } }]);
    await expect(get(`${sim.url}/dp/B0TEST0001`)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(sim.requests().map((e) => e.status)).toEqual(['reset']);
  });

  it('hang never answers, so the client times out', async () => {
    sim.setFaults([{ fault: { kind: 'hang' } }]);
    await expect(get(`${sim.url}/dp/B0TEST0001`, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'CLIENT_TIMEOUT' });
    expect(sim.requests().map((e) => e.status)).toEqual(['hang']);
  });

  it('times is consumed, then requests are served normally', async () => {
    sim.setFaults([{ fault: { kind: 'status', status: 503 }, times: 2 }]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await get(`${sim.url}/dp/B0TEST0001`)).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
  });

  it('match accepts a substring or a /regex/', async () => {
    sim.setFaults([
      { match: '/\\/dp\\/B0[0-9]{8}$/', fault: { kind: 'status', status: 500 } },
      { match: 'k=tv', fault: { kind: 'status', status: 429 } },
    ]);
    expect((await get(`${sim.url}/dp/B012345678`)).status).toBe(500);
    expect((await get(`${sim.url}/dp/B0TEST0001`)).status).toBe(200);
    expect((await get(`${sim.url}/s?k=tv+stand`)).status).toBe(429);
    expect((await get(`${sim.url}/s?k=radio`)).status).toBe(200);
  });

  it('probability with a seed gives the same sequence twice, and addFault/clearFaults work', async () => {
    const run = async (seed: number): Promise<number[]> => {
      const s = await startSimulator({ fixturesDir: null, seed });
      try {
        s.addFault({ fault: { kind: 'status', status: 503 }, probability: 0.5 });
        const out: number[] = [];
        for (let i = 0; i < 30; i++) out.push((await get(`${s.url}/dp/B0TEST0001`)).status);
        s.clearFaults();
        expect((await get(`${s.url}/dp/B0TEST0001`)).status).toBe(200);
        return out;
      } finally {
        await s.close();
      }
    };
    const first = await run(42);
    expect(await run(42)).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await run(43)).not.toEqual(first);
  });
});

describe('control API, request log, cookies and shutdown', () => {
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ fixturesDir: null });
  });
  afterEach(() => sim.close());

  it('replaces, lists and clears faults over HTTP without logging its own calls', async () => {
    const put = await fetch(`${sim.url}/__sim/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ match: '/dp/', fault: { kind: 'status', status: 503 }, times: 1 }]),
    });
    expect(put.status).toBe(200);
    expect((await get(`${sim.url}/dp/B0TEST0001`)).status).toBe(503);
    expect((await get(`${sim.url}/dp/B0TEST0001`)).status).toBe(200);

    const bad = await fetch(`${sim.url}/__sim/faults`, { method: 'PUT', body: JSON.stringify([{ fault: { kind: 'explode' } }]) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    expect((await fetch(`${sim.url}/__sim/faults`, { method: 'PUT', body: '{not json' })).status).toBe(400);

    await fetch(`${sim.url}/__sim/faults`, { method: 'PUT', body: JSON.stringify([{ fault: { kind: 'empty' } }]) });
    expect((await get(`${sim.url}/dp/B0TEST0001`)).body.length).toBe(0);
    expect((await fetch(`${sim.url}/__sim/faults`, { method: 'DELETE' })).status).toBe(204);
    expect((await get(`${sim.url}/dp/B0TEST0001`)).body.length).toBeGreaterThan(0);

    const log = (await (await fetch(`${sim.url}/__sim/requests`)).json()) as { path: string; status: number }[];
    expect(log.map((e) => e.status)).toEqual([503, 200, 200, 200]);
    expect(log.every((e) => e.path === '/dp/B0TEST0001')).toBe(true);

    const health = (await (await fetch(`${sim.url}/__sim/health`)).json()) as { ok: boolean; faults: number };
    expect(health).toMatchObject({ ok: true, faults: 0 });
    expect((await fetch(`${sim.url}/__sim/nope`)).status).toBe(404);
  });

  it('logs method, path, status, time and the crawler headers', async () => {
    const before = Date.now();
    await get(`${sim.url}/s?k=tv&language=de_DE`, {
      headers: {
        'accept-language': 'de-DE,de;q=0.9',
        'user-agent': 'CrawlBot/1.0',
        cookie: 'session-id=123-4567890-1234567; i18n-prefs=EUR',
      },
    });
    const entry = sim.requests()[0]!;
    expect(entry).toMatchObject({ method: 'GET', path: '/s?k=tv&language=de_DE', status: 200 });
    expect(entry.at).toBeGreaterThanOrEqual(before);
    expect(entry.headers).toMatchObject({
      'accept-language': 'de-DE,de;q=0.9',
      'user-agent': 'CrawlBot/1.0',
      cookie: 'session-id=123-4567890-1234567; i18n-prefs=EUR',
    });
    sim.resetLog();
    expect(sim.requests()).toEqual([]);
  });

  it('sets a session-id cookie only for clients without one', async () => {
    const first = await get(`${sim.url}/dp/B0TEST0001`);
    const setCookie = first.headers['set-cookie'] ?? [];
    expect(setCookie).toHaveLength(1);
    expect(setCookie[0]).toMatch(/^session-id=\d{3}-\d{7}-\d{7}; Path=\//);
    const cookie = setCookie[0]!.split(';')[0];
    const again = await get(`${sim.url}/dp/B0TEST0001`, { headers: { cookie: `ubid-main=1; ${cookie}` } });
    expect(again.headers['set-cookie']).toBeUndefined();
    // Error answers set it too: a crawler may first meet the site through a 503.
    sim.setFaults([{ fault: { kind: 'status', status: 503 } }]);
    expect((await get(`${sim.url}/dp/B0TEST0001`)).headers['set-cookie']).toHaveLength(1);
  });

  it('close() terminates hung and delayed requests promptly', async () => {
    sim.setFaults([{ match: 'B0HANG0000', fault: { kind: 'hang' } }, { fault: { kind: 'latency', ms: 60_000 } }]);
    const hung = get(`${sim.url}/dp/B0HANG0000`).catch((err: NodeJS.ErrnoException) => err);
    const slow = get(`${sim.url}/dp/B0SLOW0000`).catch((err: NodeJS.ErrnoException) => err);
    await until(() => sim.requests().length === 1); // the hang is logged on arrival
    await new Promise((r) => setTimeout(r, 50)); // let the delayed request arrive too
    const started = Date.now();
    await sim.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await hung).toMatchObject({ code: 'ECONNRESET' });
    expect(await slow).toMatchObject({ code: 'ECONNRESET' });
    await sim.close(); // idempotent
  });
});
