/**
 * Best-seller list pages (docs/fetch-contract.md): a list has 2 pages of 50 (`?pg=2` is ranks
 * 51-100). Page 1 of a saved list is the saved page; page 2, and both pages of any other list,
 * are the saved page with that page's products, ranks and pagination.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultFixturesDir, startSimulator, type Simulator } from './index';

const FIXTURES = defaultFixturesDir();
const describeFixtures = FIXTURES ? describe : describe.skip;

const badges = (html: string) => [...html.matchAll(/<span class="zg-bdg-text">#(\d+)<\/span>/g)].map((m) => Number(m[1]));
const dataRanks = (html: string) => [...html.matchAll(/&quot;render\.zg\.rank&quot;:&quot;(\d+)&quot;/g)].map((m) => Number(m[1]));
/** The ASINs of the rank data, in rank order (every product of the page, rendered or not). */
const dataAsins = (html: string) => [...html.matchAll(/&quot;id&quot;:&quot;([A-Z0-9]{10})&quot;/g)].map((m) => m[1]!);
/** The ASINs of the rendered cards: their faceout's element id. */
const cardAsins = (html: string) => [...html.matchAll(/<div id="([A-Z0-9]{10})" class="p13n-sc-uncoverable-faceout"/g)].map((m) => m[1]!);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const pagination = (html: string) => {
  const open = html.indexOf('<ul class="a-pagination">');
  return html.slice(open, html.indexOf('</ul>', open) + 5);
};

describeFixtures('best-seller list pages', () => {
  let sim: Simulator;
  const get = async (p: string): Promise<{ status: number; html: string }> => {
    const res = await fetch(`${sim.url}${p}`);
    return { status: res.status, html: await res.text() };
  };
  const fixture = (file: string): string => readFileSync(path.join(FIXTURES!, file), 'utf8');

  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: FIXTURES });
  });
  afterAll(() => sim.close());

  it('page 1 of a saved list is the saved page, with or without pg=1', async () => {
    const saved = fixture('bestsellers-US-electronics.html');
    expect((await get('/zgbs/electronics')).html).toBe(saved);
    expect((await get('/zgbs/electronics?pg=1')).html).toBe(saved);
    expect((await get('/zgbs/electronics?pg=abc')).html).toBe(saved);
  });

  it.each([
    ['/Best-Sellers-Electronics/zgbs/electronics?pg=2', 'bestsellers-US-electronics.html', 30],
    ['/gp/bestsellers/books?pg=2', 'bestsellers-IN-books.html', 50],
  ])('%s: ranks 51-100 on the cards and in the data, products of its own', async (url, file, rendered) => {
    const first = fixture(file);
    const { status, html } = await get(url);
    expect(status).toBe(200);
    expect(badges(first)).toEqual(range(1, rendered));
    expect(badges(html)).toEqual(range(51, 50 + rendered));
    expect(dataRanks(first)).toEqual(range(1, 50));
    expect(dataRanks(html)).toEqual(range(51, 100));
    const asins = dataAsins(html);
    expect(new Set(asins).size).toBe(50);
    expect(asins.filter((a) => dataAsins(first).includes(a))).toEqual([]);
    // the rendered cards are the first products of the data, in order
    expect(cardAsins(html)).toEqual(asins.slice(0, rendered));
    expect((await get(url)).html).toBe(html);
  });

  it('page 2 shows itself as the current page: Previous links to page 1, Next is disabled', async () => {
    const html = (await get('/zgbs/electronics?pg=2')).html;
    expect(pagination(html)).toBe(
      '<ul class="a-pagination">' +
        '<li class="a-normal"><a href="https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_pg_1_electronics?_encoding=UTF8&amp;pg=1"><span class="larr">←</span><span class="a-letter-space"></span><span class="a-letter-space"></span>Previous page</a></li>' +
        '<li aria-label="Page 1" class="a-normal"><a href="https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_pg_1_electronics?_encoding=UTF8&amp;pg=1">1</a></li>' +
        '<li aria-label="Page 2" class="a-selected"><a href="https://www.amazon.com/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_pg_2_electronics?_encoding=UTF8&amp;pg=2" aria-current="page">2</a></li>' +
        '<li class="a-disabled a-last">Next page<span class="a-letter-space"></span><span class="a-letter-space"></span><span class="larr">→</span></li>' +
        '</ul>',
    );
    expect(pagination(fixture('bestsellers-US-electronics.html'))).toContain('<li class="a-last"><a href=');
  });

  it('any other list has both pages, each with its own products and ranks; there is no page 3', async () => {
    const one = (await get('/zgbs/kitchen')).html;
    const two = (await get('/zgbs/kitchen/ref=zg_bs_pg_2?pg=2')).html;
    expect(dataRanks(one)).toEqual(range(1, 50));
    expect(dataRanks(two)).toEqual(range(51, 100));
    expect(new Set([...dataAsins(one), ...dataAsins(two)]).size).toBe(100);
    expect(pagination(one)).toBe(
      pagination(fixture('bestsellers-US-electronics.html')).replace(/href="\//g, 'href="https://www.amazon.com/'),
    );
    expect((await get('/zgbs/kitchen?pg=3')).status).toBe(404);
    expect((await get('/zgbs/electronics?pg=3')).status).toBe(404);
  });
});
