import { normalizeTargets } from '@crawl/core';
import { marketplaceOrigin, targetUrl } from './urls';

const ORIGIN = 'https://www.amazon.com';
const ASIN = 'B0DR8G428S';

/** Product URLs on the marketplace host whose path, query or userinfo tries to name another host. */
const ACCEPTED_HOSTILE_URLS = [
  `https://www.amazon.com//127.0.0.1:9999/x/dp/${ASIN}`,
  `https://www.amazon.com/\\127.0.0.1:9999/x/dp/${ASIN}`,
  `https://www.amazon.com/\\\\127.0.0.1:9999/x/dp/${ASIN}`,
  `https://www.amazon.com/%2F%2F127.0.0.1:9999/x/dp/${ASIN}`,
  `https://www.amazon.com/%2f%2f127.0.0.1:9999/dp/${ASIN}`,
  `https://www.amazon.com/%5C127.0.0.1:9999/dp/${ASIN}`,
  `https://www.amazon.com///127.0.0.1:9999/dp/${ASIN}`,
  `https://www.amazon.com/..//127.0.0.1:9999/dp/${ASIN}`,
  `https://user:pw@www.amazon.com/dp/${ASIN}`,
  `https://www.amazon.com/dp/${ASIN}?redirect=http://127.0.0.1:9999/#//127.0.0.1:9999`,
  `https://www.amazon.com/gp/product/${ASIN}/ref=x//127.0.0.1:9999`,
];
/** The userinfo trick: the host is 127.0.0.1, so validation refuses it (and it is still never requested). */
const USERINFO_HOST_URL = `https://www.amazon.com@127.0.0.1:9999/dp/${ASIN}`;
const HOSTILE_PRODUCT_URLS = [...ACCEPTED_HOSTILE_URLS, USERINFO_HOST_URL];

describe('targetUrl: only the parsed ASIN or keyword reaches the request URL (docs/fetch-contract.md)', () => {
  it('every product URL form is requested as {origin}/dp/{ASIN}, whatever its path, query or userinfo says', () => {
    // Pairs, so that a failure names the URL that escaped.
    const requested = (origin: string, lang: string | null) => HOSTILE_PRODUCT_URLS.map((t) => [t, targetUrl('details', t, origin, lang)]);
    expect(requested(ORIGIN, null)).toEqual(HOSTILE_PRODUCT_URLS.map((t) => [t, `${ORIGIN}/dp/${ASIN}`]));
    expect(requested('http://127.0.0.1:9100', 'de-DE')).toEqual(
      HOSTILE_PRODUCT_URLS.map((t) => [t, `http://127.0.0.1:9100/dp/${ASIN}?language=de_DE`]),
    );
  });

  it('the form normalizeTargets stores for an accepted product URL still yields the canonical request', () => {
    expect(normalizeTargets('details', [USERINFO_HOST_URL], 'US').issues).toHaveLength(1);
    const accepted = normalizeTargets('details', ACCEPTED_HOSTILE_URLS, 'US');
    expect(accepted.issues).toEqual([]);
    // De-duplicated by ASIN: one stored form, whichever it is, and its request is canonical.
    for (const stored of accepted.targets) expect(targetUrl('details', stored, ORIGIN, null)).toBe(`${ORIGIN}/dp/${ASIN}`);
    for (const raw of ACCEPTED_HOSTILE_URLS) {
      const [stored] = normalizeTargets('details', [raw], 'US').targets;
      expect(new URL(targetUrl('details', stored!, ORIGIN, null)).origin).toBe(ORIGIN);
    }
  });

  it('plain ASINs and keywords build the documented requests; keywords that look like paths or hosts stay in the query', () => {
    expect(targetUrl('details', ASIN, ORIGIN, null)).toBe(`${ORIGIN}/dp/${ASIN}`);
    expect(targetUrl('search', 'usb c cable', ORIGIN, 'en-GB')).toBe(`${ORIGIN}/s?k=usb+c+cable&language=en_GB`);
    for (const keyword of ['//127.0.0.1:9999/x', '\\\\127.0.0.1', 'a#b?c=d&k=e', '@127.0.0.1', '../../etc']) {
      const url = new URL(targetUrl('search', keyword, ORIGIN, null));
      expect(url.origin).toBe(ORIGIN);
      expect(url.pathname).toBe('/s');
      expect(url.searchParams.get('k')).toBe(keyword);
      expect([...url.searchParams.keys()]).toEqual(['k']);
    }
  });

  it('result page n > 1 of a keyword adds &page=n (page 1 is the plain search); details ignore the page', () => {
    expect(targetUrl('search', 'usb c cable', ORIGIN, null, 1)).toBe(`${ORIGIN}/s?k=usb+c+cable`);
    expect(targetUrl('search', 'usb c cable', ORIGIN, null, 3)).toBe(`${ORIGIN}/s?k=usb+c+cable&page=3`);
    expect(targetUrl('search', 'usb c cable', ORIGIN, 'de-DE', 2)).toBe(`${ORIGIN}/s?k=usb+c+cable&page=2&language=de_DE`);
    expect(targetUrl('details', ASIN, ORIGIN, null, 2)).toBe(`${ORIGIN}/dp/${ASIN}`);
  });

  it('a details target without an ASIN throws instead of falling back to its path', () => {
    expect(() => targetUrl('details', 'https://www.amazon.com//127.0.0.1:9999/x', ORIGIN, null)).toThrow(/ASIN/);
    expect(() => targetUrl('details', 'not a target', ORIGIN, null)).toThrow(/ASIN/);
  });

  it('a configured origin contributes only its scheme, host and port', () => {
    expect(marketplaceOrigin('http://127.0.0.1:9100/some/path?x=1')).toBe('http://127.0.0.1:9100');
    expect(targetUrl('details', ASIN, 'http://127.0.0.1:9100/prefix/', null)).toBe(`http://127.0.0.1:9100/dp/${ASIN}`);
    expect(() => marketplaceOrigin('file:///etc/passwd')).toThrow(/http/);
  });

  it('offers and reviews request their listing of the parsed ASIN; reviews add the page and sortBy', () => {
    for (const t of ACCEPTED_HOSTILE_URLS) {
      expect([t, targetUrl('offers', t, ORIGIN, null)]).toEqual([t, `${ORIGIN}/gp/offer-listing/${ASIN}`]);
      expect([t, targetUrl('reviews', t, ORIGIN, null, 2, 'helpful')]).toEqual([
        t,
        `${ORIGIN}/product-reviews/${ASIN}?pageNumber=2&sortBy=helpful`,
      ]);
    }
    expect(targetUrl('reviews', ASIN, ORIGIN, 'de-DE')).toBe(`${ORIGIN}/product-reviews/${ASIN}?pageNumber=1&language=de_DE`);
    expect(() => targetUrl('offers', 'not a target', ORIGIN, null)).toThrow(/ASIN/);
  });

  it("offer-listing page n: the legacy listing's startIndex, or the AOD panel's own pages, from the ASIN and page number only", () => {
    for (const t of ACCEPTED_HOSTILE_URLS) {
      expect([t, targetUrl('offers', t, ORIGIN, null, 1, null, 'aod')]).toEqual([t, `${ORIGIN}/gp/offer-listing/${ASIN}`]);
      expect([t, targetUrl('offers', t, ORIGIN, null, 3, null, 'offer-listing')]).toEqual([
        t,
        `${ORIGIN}/gp/offer-listing/${ASIN}?startIndex=20`,
      ]);
      expect([t, targetUrl('offers', t, ORIGIN, null, 2, null, 'aod')]).toEqual([
        t,
        `${ORIGIN}/gp/product/ajax/aodAjaxMain/?asin=${ASIN}&pc=dp&isonlyrenderofferlist=true&pageno=2`,
      ]);
    }
    // Without a hint (a checkpoint older than it), page n is the legacy listing's.
    expect(targetUrl('offers', ASIN, ORIGIN, null, 2)).toBe(`${ORIGIN}/gp/offer-listing/${ASIN}?startIndex=10`);
    expect(targetUrl('offers', ASIN, ORIGIN, 'de-DE', 10, null, 'aod')).toBe(
      `${ORIGIN}/gp/product/ajax/aodAjaxMain/?asin=${ASIN}&pc=dp&isonlyrenderofferlist=true&pageno=10&language=de_DE`,
    );
  });

  it("a best-seller list URL's path is re-rooted on the origin (query, userinfo and host dropped), never resolved; only its page is carried over", () => {
    const lists = [
      [
        'https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs?pg=2',
        '/Best-Sellers-Electronics/zgbs/electronics?pg=2',
      ],
      [
        'https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_pg_2_electronics?_encoding=UTF8&pg=2&tag=x&url=//evil.example',
        '/Best-Sellers-Electronics/zgbs/electronics?pg=2',
      ],
      ['https://www.amazon.com/zgbs/electronics/ref=zg_bs_pg_2', '/zgbs/electronics?pg=2'],
      ['https://www.amazon.com/zgbs/electronics?pg=1&language=xx', '/zgbs/electronics'],
      ['https://user:pw@www.amazon.com/gp/bestsellers/books', '/gp/bestsellers/books'],
      ['https://www.amazon.com/zgbs//127.0.0.1:9999/x', '/zgbs//127.0.0.1:9999/x'],
      ['https://www.amazon.com/zgbs/\\127.0.0.1:9999/x', '/zgbs//127.0.0.1:9999/x'],
    ];
    for (const [target, path] of lists) {
      const accepted = normalizeTargets('bestsellers', [target!], 'US');
      expect(accepted.issues).toEqual([]);
      expect([target, targetUrl('bestsellers', accepted.targets[0]!, 'http://127.0.0.1:9100', null)]).toEqual([
        target,
        `http://127.0.0.1:9100${path}`,
      ]);
    }
    expect(() => targetUrl('bestsellers', 'https://www.amazon.com//127.0.0.1:9999/zgbs/x', ORIGIN, null)).toThrow(/best-seller/);
  });
});
