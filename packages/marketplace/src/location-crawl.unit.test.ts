import type { CrawlInput } from './kinds';
import { type CrawlOutcome, Crawler, CRAWL_ERROR_MESSAGES } from './crawler';
import { type ExitGate, ExitPool, exitsFrom } from './egress/exits';
import { BLOCKLESS_ASIN, DETAILS_ASIN, startLocationServer } from './egress/test-support/location-server';
import { createParsePool } from './parse-pool';

/**
 * Jobs with a postal code crawl through location sessions (docs/crawling.md, "Delivery
 * location"), against a local marketplace serving the deliver-to flow.
 */
const parser = createParsePool({ threads: 0 });
/** Every request must book a turn of its exit here: the setup's as much as the pages'. */
const turns: string[] = [];
/** When each turn was booked (ms since epoch). */
const turnTimes: number[] = [];
const countingGate: ExitGate = {
  pick: async (_host, order) => {
    turns.push(order[0]!.key);
    turnTimes.push(Date.now());
    return { index: 0, release: async () => undefined };
  },
  coolDown: async () => undefined,
};

let server: Awaited<ReturnType<typeof startLocationServer>>;
let exits: ExitPool;
beforeAll(async () => {
  server = await startLocationServer();
});
afterAll(async () => {
  await server.close();
  await parser.destroy();
});
beforeEach(() => {
  turns.length = 0;
  turnTimes.length = 0;
  server.hits.length = 0;
  server.state.log.length = 0;
  server.state.changes.length = 0;
  server.state.refused.clear();
  server.state.ignored.clear();
  exits = new ExitPool(exitsFrom([], { rps: 1 }), { gate: countingGate, cooldownMs: 1_000, maxCooldownMs: 1_000, leaseMs: 10_000 });
});
afterEach(() => exits.destroy());

const crawlerWith = (retries = 1, limits = { max: 8, perTenant: 4, idleMs: 60_000 }) =>
  new Crawler({ origins: { override: server.url, perCode: {} }, exits, parser, timeoutMs: 5_000, locations: { limits, retries } });
const input = (postalCode: string | null, target = DETAILS_ASIN, tenant = 'project-a'): CrawlInput => ({
  type: 'details',
  target,
  marketplace: 'US',
  lang: null,
  postalCode,
  tenant,
});
const paths = () => server.state.log.map((r) => `${r.method} ${r.path.split('?')[0]}`);
const SETUP = ['GET /', 'GET /portal-migration/hz/glow/get-rendered-address-selections', 'POST /portal-migration/hz/glow/address-change'];

describe('Crawler: jobs with a postal code', () => {
  it('sets the location up once, then crawls the page as a shopper there', async () => {
    const outcome = await crawlerWith().crawl(input('60601'), 'job-0');
    expect(outcome).toMatchObject({ ok: true, deliveryLocation: { text: 'Springfield 60601', postalCode: '60601' } });
    expect(paths()).toEqual([...SETUP, `GET /dp/${DETAILS_ASIN}`]);
    expect(server.state.log[3]!.cookie).toMatch(/loc=60601/);
    // every request, the setup's included, took a turn of the exit's politeness
    expect(turns).toHaveLength(4);
  });

  it('reuses the session for many pages: one setup, also for pages that arrive during it', async () => {
    const crawler = crawlerWith();
    const first = await Promise.all([1, 2, 3].map((i) => crawler.crawl(input('60601'), `job-${i}`)));
    const later = await Promise.all([4, 5].map((i) => crawler.crawl(input('60601'), `job-${i}`)));
    for (const o of [...first, ...later]) expect(o).toMatchObject({ ok: true, deliveryLocation: { postalCode: '60601' } });
    expect(paths().filter((p) => p === 'GET /')).toHaveLength(1);
    expect(server.state.changes).toHaveLength(1);
    expect(paths().filter((p) => p.startsWith('GET /dp/'))).toHaveLength(5);
    // the setup's three, one per page, and the two turns of the pages that arrived during the
    // setup, which went unused: spent after it, they would all leave at once (a robot check)
    expect(turns).toHaveLength(3 + 5 + 2);
    const changedAt = server.state.log.find((r) => r.path.startsWith('/portal-migration/hz/glow/address-change'))!.at;
    expect(turnTimes.filter((t) => t >= changedAt).length).toBeGreaterThanOrEqual(3 + 2);
    // the setup is counted once, not once per page that waited for it
    expect(crawler.locations.stats()).toMatchObject({ live: 1, setups: { ok: 1, refused: 0 }, mismatches: 0 });
  });

  it('two postal codes get two sessions, each page showing its own', async () => {
    const crawler = crawlerWith();
    const [a, b] = await Promise.all([crawler.crawl(input('60601'), 'a'), crawler.crawl(input('10001'), 'b')]);
    expect(a).toMatchObject({ ok: true, deliveryLocation: { postalCode: '60601' } });
    expect(b).toMatchObject({ ok: true, deliveryLocation: { postalCode: '10001' } });
    expect(server.state.changes.map((c) => c.zipCode).sort()).toEqual(['10001', '60601']);
  });

  it('a page showing another place goes through a fresh session once, then fails LOCATION_MISMATCH (never stored)', async () => {
    server.state.ignored.add('60601');
    const crawler = crawlerWith();
    const outcome = await crawler.crawl(input('60601'), 'job-0');
    expect(outcome).toEqual({
      ok: false,
      code: 'LOCATION_MISMATCH',
      message: CRAWL_ERROR_MESSAGES.LOCATION_MISMATCH,
      detail: expect.stringContaining('Aldie 20105'),
      retryable: false,
    });
    expect(paths()).toEqual([...SETUP, `GET /dp/${DETAILS_ASIN}`, ...SETUP, `GET /dp/${DETAILS_ASIN}`]);
    expect(crawler.locations.size).toBe(0);
    expect(crawler.locations.stats()).toMatchObject({ setups: { ok: 2 }, mismatches: 2 });
    expect(outcome.ok ? '' : outcome.message).not.toMatch(/\d{5}|127\.0\.0\.1|:\d+/);
  });

  it('the number of fresh sessions is configurable', async () => {
    server.state.ignored.add('60601');
    expect(await crawlerWith(0).crawl(input('60601'), 'job-0')).toMatchObject({ ok: false, code: 'LOCATION_MISMATCH' });
    expect(server.state.changes).toHaveLength(1);
    server.state.changes.length = 0;
    expect(await crawlerWith(2).crawl(input('60601'), 'job-1')).toMatchObject({ ok: false, code: 'LOCATION_MISMATCH' });
    expect(server.state.changes).toHaveLength(3);
  });

  it('a session whose page stops showing its location is replaced', async () => {
    const crawler = crawlerWith();
    expect(await crawler.crawl(input('60601'), 'a')).toMatchObject({ ok: true });
    server.state.ignored.add('60601'); // its cookies no longer carry the location
    expect(await crawler.crawl(input('60601'), 'b')).toMatchObject({ ok: false, code: 'LOCATION_MISMATCH' });
    server.state.ignored.clear();
    expect(await crawler.crawl(input('60601'), 'c')).toMatchObject({ ok: true, deliveryLocation: { postalCode: '60601' } });
    expect(server.state.changes).toHaveLength(3);
  });

  it('a refused address change goes through a fresh session once, then fails LOCATION_MISMATCH without fetching the page', async () => {
    server.state.refused.add('99999');
    const crawler = crawlerWith();
    const outcome = await crawler.crawl(input('99999'), 'job-0');
    expect(outcome).toMatchObject({ ok: false, code: 'LOCATION_MISMATCH', retryable: false });
    expect(paths()).toEqual([...SETUP, ...SETUP]);
    expect(crawler.locations.stats()).toMatchObject({ setups: { ok: 0, refused: 2 }, mismatches: 0 });
  });

  it('a page without a deliver-to block of its own inherits the location its session pages showed', async () => {
    const crawler = crawlerWith();
    await crawler.crawl(input('60601'), 'a');
    const outcome: CrawlOutcome = await crawler.crawl(input('60601', BLOCKLESS_ASIN), 'b');
    expect(outcome).toMatchObject({ ok: true, deliveryLocation: { text: 'Springfield 60601', postalCode: '60601' } });
  });

  it('a job without a postal code uses the exit session as it is: no address change, no check', async () => {
    server.state.ignored.add('60601');
    const outcome = await crawlerWith().crawl(input(null), 'job-0');
    expect(outcome).toMatchObject({ ok: true });
    expect(outcome.ok && outcome.deliveryLocation).toBeUndefined();
    expect(paths()).toEqual([`GET /dp/${DETAILS_ASIN}`]);
  });

  it("one tenant's many postal codes keep to its share of sessions; another tenant's session stays set up", async () => {
    const crawler = crawlerWith(1, { max: 4, perTenant: 2, idleMs: 60_000 });
    await crawler.crawl(input('10001', DETAILS_ASIN, 'quiet'), 'q1');
    for (const code of ['20001', '20002', '20003', '20004', '20005']) await crawler.crawl(input(code, DETAILS_ASIN, 'busy'), code);
    expect(crawler.locations.heldBy('busy')).toBe(2);
    const changes = server.state.changes.length;
    expect(await crawler.crawl(input('10001', DETAILS_ASIN, 'quiet'), 'q2')).toMatchObject({ ok: true });
    expect(server.state.changes).toHaveLength(changes); // no new setup for the quiet tenant
  });

  it("waits for its own exit's turns during a setup; an exit that rests longer fails the page as a retryable upstream error", async () => {
    exits.destroy();
    let picks = 0;
    const resting: ExitGate = {
      pick: async () => (++picks === 1 ? { index: 0, release: async () => undefined } : { waitMs: 60_000 }),
      coolDown: async () => undefined,
    };
    exits = new ExitPool(exitsFrom([], { rps: 1 }), { gate: resting, cooldownMs: 1_000, maxCooldownMs: 1_000, leaseMs: 10_000 });
    const crawler = crawlerWith();
    expect(await crawler.crawl(input('60601'), 'job-0')).toMatchObject({ ok: false, code: 'UPSTREAM_ERROR', retryable: true });
    expect(paths()).toEqual(['GET /']); // nothing sent without a turn
    expect(crawler.locations.size).toBe(0);
  });
});
