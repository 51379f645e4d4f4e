/**
 * Offer listings, review pages, best-seller lists and result-page counts (docs/fetch-contract.md):
 * saved pages where they exist, templates for any other ASIN or list, a "next page" link on
 * every page but the last, and the sign-in wall as a fault.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultFixturesDir, startSimulator, type Simulator } from './index';
import { reviewId } from './listing-templates';

const FIXTURES = defaultFixturesDir();
const describeFixtures = FIXTURES ? describe : describe.skip;

const REVIEW_ID_RE = /\bid="(R[A-Z0-9]{8,20})"[^>]*data-hook="review"|data-hook="review"[^>]*\bid="(R[A-Z0-9]{8,20})"/g;
const reviewIds = (html: string): string[] => [...html.matchAll(REVIEW_ID_RE)].map((m) => (m[1] ?? m[2])!);
const NEXT_REVIEWS_RE = /<li class="a-last"><a href="([^"]*)"/;
const LAST_PAGE = '<li class="a-disabled a-last">';

describeFixtures('listing pages', () => {
  let sim: Simulator;
  const get = async (p: string): Promise<{ status: number; html: string }> => {
    const res = await fetch(`${sim.url}${p}`);
    return { status: res.status, html: await res.text() };
  };
  const fixture = (file: string): string => readFileSync(path.join(FIXTURES!, file), 'utf8');

  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: FIXTURES });
  });
  afterEach(() => {
    sim.clearFaults();
    sim.setPageCounts(null);
  });
  afterAll(() => sim.close());

  it('serves a saved offer listing as saved, and the template for any other ASIN', async () => {
    const saved = await get('/gp/offer-listing/0133356728/ref=dp_olp_all_mbc?ie=UTF8&condition=all');
    expect(saved).toEqual({ status: 200, html: fixture('offers-US-0133356728.html') });

    const other = await get('/gp/offer-listing/B0SIMOFFER');
    expect(other.status).toBe(200);
    expect(other.html).toContain('/gp/offer-listing/B0SIMOFFER');
    expect(other.html).not.toContain('0133356728');
    expect(other.html).toContain('olpOffer'); // the saved page's offer rows
  });

  it('pages an offer listing by startIndex (10 offers a page): "Next" on every page but the last (one page, or the count set)', async () => {
    const NEXT_OFFERS_RE = /<li class="a-last"><a href="([^"]*)"/;
    // One page unless set: the template's "Next" is disabled.
    expect((await get('/gp/offer-listing/B0SIMOFFER')).html).toContain(LAST_PAGE);
    sim.setPageCounts({ B0SIMOFFER: 3 });
    const pages = await Promise.all(
      ['', '?startIndex=10', '?ie=UTF8&f_all=true&startIndex=20'].map((q) => get(`/gp/offer-listing/B0SIMOFFER${q}`)),
    );
    expect(NEXT_OFFERS_RE.exec(pages[0]!.html)?.[1]).toBe(
      'https://www.amazon.com/gp/offer-listing/B0SIMOFFER/ref=olp_page_next?ie=UTF8&amp;f_all=true&amp;startIndex=10',
    );
    expect(NEXT_OFFERS_RE.exec(pages[1]!.html)?.[1]).toContain('startIndex=20');
    expect(pages[2]!.html).toContain(LAST_PAGE);
    expect(pages[2]!.html).not.toMatch(NEXT_OFFERS_RE);
    for (const page of pages) expect(page.html).toContain('olpOffer');
    // A saved listing is its page 1 as saved (its own "Next" link); its page 2 is the template's, the last one.
    expect((await get('/gp/offer-listing/0133356728')).html).toBe(fixture('offers-US-0133356728.html'));
    const second = (await get('/gp/offer-listing/0133356728?startIndex=10')).html;
    expect(second).toContain('/gp/offer-listing/0133356728');
    expect(second).toContain(LAST_PAGE);
  });

  it('serves saved review pages by ASIN and page, and generates the others with their own review ids', async () => {
    expect((await get('/product-reviews/B01IPHVFUI')).html).toBe(fixture('reviews-US-B01IPHVFUI.html'));
    expect((await get('/product-reviews/B086X5XDD3/?pageNumber=10')).html).toBe(fixture('reviews-UK-B086X5XDD3-p10.html'));

    const page1 = await get('/Some-Product/product-reviews/B0SIMREVWS/ref=cm_cr_dp_d_show_all_btm?ie=UTF8&reviewerType=all_reviews');
    const page2 = await get('/product-reviews/B0SIMREVWS?pageNumber=2&sortBy=recent');
    for (const page of [page1, page2]) {
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('B01IPHVFUI');
      expect(page.html).toContain('/product-reviews/B0SIMREVWS');
    }
    const ids1 = reviewIds(page1.html);
    const ids2 = reviewIds(page2.html);
    expect(ids1).toHaveLength(10);
    expect(ids1[0]).toBe(reviewId('B0SIMREVWS', 1, 0));
    expect(new Set([...ids1, ...ids2]).size).toBe(20);
    // the next link leads to the next page of the same ASIN, on the marketplace's host
    expect(NEXT_REVIEWS_RE.exec(page2.html)?.[1]).toBe(
      'https://www.amazon.com/product-reviews/B0SIMREVWS/ref=cm_cr_arp_d_paging_btm_next_3?ie=UTF8&amp;pageNumber=3',
    );
    expect(page2.html).not.toContain(LAST_PAGE);
  });

  it('ends reviews after 10 pages, or after the count set for the ASIN', async () => {
    const tenth = (await get('/product-reviews/B0SIMREVWS?pageNumber=10')).html;
    expect(tenth).toContain(LAST_PAGE);
    expect(tenth).not.toMatch(NEXT_REVIEWS_RE);

    sim.setPageCounts({ b0simrevws: 2 });
    expect((await get('/product-reviews/B0SIMREVWS?pageNumber=1')).html).toMatch(NEXT_REVIEWS_RE);
    expect((await get('/product-reviews/B0SIMREVWS?pageNumber=2')).html).toContain(LAST_PAGE);
    // a saved ASIN's other pages come from its own saved page, in its language
    const italian = (await get('/product-reviews/B07747FR44?pageNumber=3')).html;
    expect(italian).toContain('Successivo');
    expect(reviewIds(italian)[0]).toBe(reviewId('B07747FR44', 3, 0));
  });

  it('serves saved best-seller lists by category, and the template with path-derived ASINs for other lists', async () => {
    expect((await get('/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_nav_0')).html).toBe(fixture('bestsellers-US-electronics.html'));
    expect((await get('/gp/bestsellers/books')).html).toBe(fixture('bestsellers-IN-books.html'));

    const kitchen = await get('/gp/bestsellers/kitchen/ref=zg_bs_nav_kitchen_0');
    const again = await get('/gp/bestsellers/kitchen');
    const garden = await get('/zgbs/lawn-garden');
    expect(kitchen.status).toBe(200);
    const asins = (html: string) => [...new Set([...html.matchAll(/data-asin="([A-Z0-9]{10})"/g)].map((m) => m[1]!))];
    const savedAsins = asins(fixture('bestsellers-US-electronics.html'));
    expect(asins(kitchen.html)).toHaveLength(savedAsins.length);
    expect(asins(kitchen.html).filter((a) => savedAsins.includes(a))).toEqual([]);
    expect(asins(again.html)).toEqual(asins(kitchen.html));
    expect(asins(garden.html).filter((a) => asins(kitchen.html).includes(a))).toEqual([]);
  });

  it('gives a keyword 7 result pages, or the count set for it, the last without a Next link', async () => {
    const next = /<a\b[^>]*s-pagination-next[^>]*href="([^"]*)"|<a\b[^>]*href="([^"]*)"[^>]*s-pagination-next/;
    const link = (html: string) => {
      const m = next.exec(html);
      return m ? (m[1] ?? m[2]) : null;
    };
    expect(link((await get('/s?k=usb+c+hub')).html)).toBe('https://www.amazon.com/s?k=usb+c+hub&amp;page=2&amp;ref=sr_pg_1');
    expect(link((await get('/s?k=usb+c+hub&page=6')).html)).toContain('page=7');
    const seventh = (await get('/s?k=usb+c+hub&page=7')).html;
    expect(link(seventh)).toBeNull();
    expect(seventh).toContain('s-pagination-next s-pagination-disabled');

    sim.setPageCounts({ 'USB C Hub': 2 });
    expect(link((await get('/s?k=usb+c+hub&page=2')).html)).toBeNull();
    expect(link((await get('/s?k=usb-c+hub&page=1')).html)).toContain('page=2');
  });

  it('answers review pages with the sign-in wall as a fault, and validates page counts over the control API', async () => {
    sim.addFault({ match: '/product-reviews/', fault: { kind: 'signin' } });
    sim.addFault({ match: '/dp/B0SIMSIGNI', fault: { kind: 'signin' } });
    // the saved pages themselves: the 2025 unified page for a review URL, the classic form elsewhere
    const wall = await get('/product-reviews/B0SIMREVWS');
    expect(wall).toEqual({ status: 200, html: fixture('signin-IN-B0CZXXSC3C.html') });
    expect(wall.html).toContain('id="ap_email_login"');
    expect(wall.html).not.toContain('data-hook="review"');
    expect(await get('/dp/B0SIMSIGNI')).toEqual({ status: 200, html: fixture('signin-US-1.html') });

    const put = (body: unknown) => fetch(`${sim.url}/__sim/pages`, { method: 'PUT', body: JSON.stringify(body) });
    expect((await put({ 'usb c hub': -1 })).status).toBe(400);
    expect((await put({ B0SIMREVWS: 0 })).status).toBe(400);
    expect((await put([1])).status).toBe(400);
    const ok = await put({ 'usb c hub': 3, B0SIMREVWS: 4 });
    expect(await ok.json()).toEqual({ 'usb-c-hub': 3, B0SIMREVWS: 4 });
  });
});
