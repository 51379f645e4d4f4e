import type { Logger } from '@crawl/observability';
import { type RecordingServer as Recorder, startRecordingServer as listen, tunnelConnect as tunnel } from '@crawl/testing';
import { CRAWL_ERROR_MESSAGES, type CrawlOutcome, Crawler, SIGNIN_MESSAGES } from './crawler';
import { type ExitGate, ExitPool, exitsFrom } from './egress/exits';
import { createParsePool } from './parse-pool';

/** A port nothing listens on: connecting to it is refused. */
async function deadPort(): Promise<number> {
  const r = await listen(() => undefined);
  await r.close();
  return r.port;
}

const ASIN = 'B0DR8G428S';
/** No shared politeness: every request may go at once through the first exit offered. */
const openGate: ExitGate = { pick: async () => ({ index: 0, release: async () => undefined }), coolDown: async () => undefined };
const parser = createParsePool({ threads: 0 });

let canary: Recorder;
let marketplace: Recorder;
const logged: Record<string, unknown>[] = [];
const log = { warn: (obj: Record<string, unknown>) => logged.push(obj) } as unknown as Logger;

beforeAll(async () => {
  canary = await listen((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>internal</html>'));
  marketplace = await listen((req, res) => {
    if (req.url?.includes('B0OFFORIGN')) return res.writeHead(302, { location: `http://127.0.0.1:${canary.port}/dp/B0OFFORIGN` }).end();
    if (req.url?.includes('B0NOTFOUND')) return res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Page Not Found</html>');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>no product here</body></html>');
  });
});
afterAll(async () => {
  await canary.close();
  await marketplace.close();
});
beforeEach(() => {
  canary.hits.length = 0;
  marketplace.hits.length = 0;
  logged.length = 0;
});

async function crawlWith(origin: string, target: string, proxies: string[] = [], timeoutMs = 2_000): Promise<CrawlOutcome> {
  const exits = new ExitPool(exitsFrom(proxies, { rps: 1 }), { gate: openGate, cooldownMs: 1_000, maxCooldownMs: 1_000, leaseMs: 10_000 });
  try {
    const crawler = new Crawler({ origins: { override: origin, perCode: {} }, exits, parser, timeoutMs, log });
    return await crawler.crawl({ type: 'details', target, marketplace: 'US', lang: null }, 'job-0');
  } finally {
    exits.destroy();
  }
}

/** What a tenant reads: the fixed sentence of its code, nothing about where or how it failed. */
function expectTenantSafe(outcome: CrawlOutcome, code: keyof typeof CRAWL_ERROR_MESSAGES): void {
  expect(outcome).toMatchObject({ ok: false, code, message: CRAWL_ERROR_MESSAGES[code] });
  if (outcome.ok) return;
  expect(outcome.message).not.toMatch(/\d+\.\d+\.\d+\.\d+|:\d+|ECONN|https?:|localhost|s3cret|proxyuser/i);
  expect(outcome.message).not.toMatch(/\bE[A-Z]{3,}\b/); // errno names: ETIMEDOUT, EHOSTUNREACH, ...
  // The detail is not lost: it is in the worker's log.
  expect(logged).toContainEqual(expect.objectContaining({ attemptKey: 'job-0', code, detail: outcome.detail }));
}

const HOSTILE = (port: number) => [
  `https://www.amazon.com//127.0.0.1:${port}/x/dp/${ASIN}`,
  `https://www.amazon.com/\\127.0.0.1:${port}/x/dp/${ASIN}`,
  `https://www.amazon.com/%2F%2F127.0.0.1:${port}/x/dp/${ASIN}`,
  `https://user:pw@www.amazon.com/dp/${ASIN}`,
];

describe('Crawler egress: only the marketplace origin is requested', () => {
  it('product URLs whose path names another host are requested as {origin}/dp/{ASIN}', async () => {
    for (const target of HOSTILE(canary.port)) await crawlWith(marketplace.url, target);
    expect(canary.hits).toEqual([]);
    expect(marketplace.hits).toEqual(HOSTILE(canary.port).map(() => `/dp/${ASIN}`));
  });

  it('a redirect off the origin is a final UPSTREAM_ERROR, never fetched', async () => {
    const outcome = await crawlWith(marketplace.url, 'B0OFFORIGN');
    expectTenantSafe(outcome, 'UPSTREAM_ERROR');
    expect(outcome).toMatchObject({ retryable: false });
    expect(canary.hits).toEqual([]);
  });

  it('through a proxy, every tunnel the proxy is asked for goes to the origin', async () => {
    const proxy = await listen((_req, res) => res.writeHead(405).end(), tunnel);
    try {
      for (const target of [...HOSTILE(canary.port), 'B0OFFORIGN']) await crawlWith(marketplace.url, target, [proxy.url]);
      expect(canary.hits).toEqual([]);
      expect(new Set(proxy.hits)).toEqual(new Set([`CONNECT 127.0.0.1:${marketplace.port}`]));
      expect(marketplace.hits).toEqual([...HOSTILE(canary.port).map(() => `/dp/${ASIN}`), '/dp/B0OFFORIGN']);
    } finally {
      await proxy.close();
    }
  });

  it('to an https origin through a proxy, the CONNECT target is the marketplace host, and a refusal is a generic error', async () => {
    const proxy = await listen(
      (_req, res) => res.writeHead(405).end(),
      (_target, socket) => socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n'),
    );
    try {
      for (const target of HOSTILE(canary.port)) {
        logged.length = 0;
        expectTenantSafe(
          await crawlWith('https://www.amazon.com', target, [`http://proxyuser:s3cret@127.0.0.1:${proxy.port}`]),
          'UPSTREAM_ERROR',
        );
      }
      expect(proxy.hits).toEqual(HOSTILE(canary.port).map(() => 'CONNECT www.amazon.com:443'));
      expect(canary.hits).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

describe('Crawler errors shown to tenants are generic per code', () => {
  it('a refused connection to the origin names no address, port or errno', async () => {
    const outcome = await crawlWith(`http://127.0.0.1:${await deadPort()}`, ASIN);
    expectTenantSafe(outcome, 'UPSTREAM_ERROR');
    expect(outcome).toMatchObject({ retryable: true, detail: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('an unreachable proxy (with credentials) is not named', async () => {
    const port = await deadPort();
    const outcome = await crawlWith(marketplace.url, ASIN, [`http://proxyuser:s3cret@127.0.0.1:${port}`]);
    expectTenantSafe(outcome, 'UPSTREAM_ERROR');
    expect(marketplace.hits).toEqual([]);
  });

  it('a proxy that accepts but never answers CONNECT times out (generic), instead of holding the worker', async () => {
    const proxy = await listen(
      (_req, res) => res.writeHead(405).end(),
      () => undefined,
    );
    try {
      const started = Date.now();
      const outcome = await crawlWith(marketplace.url, ASIN, [proxy.url], 300);
      expect(Date.now() - started).toBeLessThan(2_000);
      expectTenantSafe(outcome, 'UPSTREAM_ERROR');
      expect(outcome).toMatchObject({ retryable: true });
    } finally {
      await proxy.close();
    }
  });

  it('a 404 and an unparseable page carry no URL', async () => {
    expectTenantSafe(await crawlWith(marketplace.url, 'B0NOTFOUND'), 'NOT_FOUND');
    logged.length = 0;
    expectTenantSafe(await crawlWith(marketplace.url, ASIN), 'PARSE_ERROR');
  });
});

describe('robot checks are told at once', () => {
  it('a small robot-check page is BLOCKED without waiting for a parser thread, and its exit rests', async () => {
    const captcha = await listen((_req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><head><title>Robot Check</title></head><body><form action="/errors/validateCaptcha"></form></body></html>'),
    );
    const rested: string[] = [];
    const exits = new ExitPool(exitsFrom([], { rps: 1 }), {
      gate: { ...openGate, coolDown: async (_host, spec) => void rested.push(spec.key) },
      cooldownMs: 1_000,
      maxCooldownMs: 1_000,
      leaseMs: 10_000,
    });
    // every parser thread busy with other tenants' pages: nothing handed to it returns
    const busyParser = { parse: () => new Promise<never>(() => undefined), pageKind: () => new Promise<never>(() => undefined) };
    try {
      const crawler = new Crawler({
        origins: { override: `http://127.0.0.1:${captcha.port}`, perCode: {} },
        exits,
        parser: busyParser,
        timeoutMs: 2_000,
        log,
      });
      const outcome = await crawler.crawl({ type: 'details', target: ASIN, marketplace: 'US', lang: null }, 'job-0');
      expectTenantSafe(outcome, 'BLOCKED');
      expect(rested).toHaveLength(1);
    } finally {
      exits.destroy();
      await captcha.close();
    }
  });
});

describe('sign-in walls are the page, not a refusal of the exit', () => {
  const signInWall = `<!doctype html><html lang="en-us"><head><title dir="ltr">Amazon Sign-In</title></head><body>
<div id="authportal-main-section"><form name="signIn" method="post" action="https://www.amazon.com/ap/signin">
<input type="email" id="ap_email" name="email"></form></div></body></html>`;

  async function reviewsBehindSignIn(
    proxies: (port: number) => string[],
  ): Promise<{ outcome: CrawlOutcome; rested: string[]; requests: number }> {
    const wall = await listen((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(signInWall));
    const proxyServer = await listen((_req, res) => res.writeHead(405).end(), tunnel);
    const rested: string[] = [];
    const requests: string[] = [];
    const exits = new ExitPool(exitsFrom(proxies(proxyServer.port), { rps: 1 }), {
      gate: { ...openGate, coolDown: async (_host, spec) => void rested.push(spec.key) },
      cooldownMs: 1_000,
      maxCooldownMs: 1_000,
      leaseMs: 10_000,
      onRequest: (exit) => requests.push(exit),
    });
    try {
      const crawler = new Crawler({
        origins: { override: `http://127.0.0.1:${wall.port}`, perCode: {} },
        exits,
        parser,
        timeoutMs: 2_000,
        log,
      });
      const outcome = await crawler.crawl({ type: 'reviews', target: ASIN, marketplace: 'US', lang: null }, 'job-0');
      return { outcome, rested, requests: requests.length };
    } finally {
      exits.destroy();
      await wall.close();
      await proxyServer.close();
    }
  }

  it('with one exit: BLOCKED naming the sign-in, not retryable, and the exit does not rest', async () => {
    const { outcome, rested, requests } = await reviewsBehindSignIn(() => []);
    expect(outcome).toMatchObject({ ok: false, code: 'BLOCKED', message: SIGNIN_MESSAGES.reviews, retryable: false, signIn: true });
    expect(rested).toEqual([]);
    expect(requests).toBe(1);
  });

  it('with another exit to try: retryable (the task decides it gets one retry), and still no rest', async () => {
    const { outcome, rested } = await reviewsBehindSignIn((port) => [`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
    expect(outcome).toMatchObject({ ok: false, code: 'BLOCKED', message: SIGNIN_MESSAGES.reviews, retryable: true, signIn: true });
    expect(rested).toEqual([]);
  });
});

describe('a page is mapped by the rules of the job type it was fetched for', () => {
  // The parser's answer for any body: a search result page with one card.
  const card = {
    position: 1,
    organicPosition: 1,
    asin: ASIN,
    title: 'Lamp',
    url: null,
    image: null,
    price: null,
    listPrice: null,
    unitPrice: null,
    rating: null,
    reviewsCount: null,
    isSponsored: false,
    isPrime: null,
    badges: [],
    brand: null,
    boughtPastMonth: null,
    coupon: null,
    deliveryText: null,
    deliveryLocation: null,
    missingFields: [],
    parserVersion: 'test',
  };
  const searchPage = {
    parse: async () => ({ kind: 'search' as const, cards: [card], hasNextPage: false, noResults: false, totalResults: null }),
    pageKind: async () => 'search' as const,
  };

  async function crawlAs(type: 'search' | 'details'): Promise<CrawlOutcome> {
    const exits = new ExitPool(exitsFrom([], { rps: 1 }), { gate: openGate, cooldownMs: 1_000, maxCooldownMs: 1_000, leaseMs: 10_000 });
    try {
      const crawler = new Crawler({
        origins: { override: `http://127.0.0.1:${marketplace.port}`, perCode: {} },
        exits,
        parser: searchPage,
        timeoutMs: 2_000,
        log,
      });
      return await crawler.crawl({ type, target: type === 'search' ? 'desk lamp' : ASIN, marketplace: 'US', lang: null }, 'job-0');
    } finally {
      exits.destroy();
    }
  }

  it('the outcome carries the job type its items were produced for', async () => {
    const outcome = await crawlAs('search');
    expect(outcome).toMatchObject({
      ok: true,
      type: 'search',
      noResults: false,
      items: [{ keyword: 'desk lamp', page: 1, asin: ASIN, position: 1 }],
    });
  });

  it('a page of another kind than the target is a PARSE_ERROR, never items of the other kind', async () => {
    const outcome = await crawlAs('details');
    expectTenantSafe(outcome, 'PARSE_ERROR');
    expect(outcome).toMatchObject({ detail: 'a details target got a search page' });
  });
});
