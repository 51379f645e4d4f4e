/**
 * Pages that look like what was asked for: result sets that depend on the keyword and page,
 * product pages whose ASIN, title and price depend on the ASIN, links on the marketplace's
 * host. (e2e/src/simulator-realism.test.ts runs the real parsers over the same pages.)
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { productPrice, productTitle } from './asin-template';
import {
  DEFAULT_DETAILS_TEMPLATE,
  DEFAULT_SEARCH_TEMPLATE,
  defaultFixturesDir,
  searchCardAsin,
  startSimulator,
  type Simulator,
} from './index';
import { SearchTemplate } from './search-template';

const FIXTURES = defaultFixturesDir();
const describeFixtures = FIXTURES ? describe : describe.skip;
const CARD_ASIN_RE =
  /<div\b[^>]*data-asin="([A-Z0-9]{10})"[^>]*data-component-type="s-search-result"|<div\b[^>]*data-component-type="s-search-result"[^>]*data-asin="([A-Z0-9]{10})"/g;
const cardAsins = (html: string): string[] => [...html.matchAll(CARD_ASIN_RE)].map((m) => (m[1] ?? m[2])!);
/** `href="/..."`: resolved against whatever served the page, i.e. the simulator. */
const ROOT_RELATIVE = /\bhref="\/(?!\/)/;

const text = async (url: string): Promise<string> => (await fetch(url)).text();

describe.each([
  ['fixture templates', undefined],
  ['synthetic pages', null],
] as const)('%s', (_, fixturesDir) => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: fixturesDir === null ? null : (FIXTURES ?? null) });
  });
  afterAll(() => sim.close());

  it('gives each keyword and result page its own stable cards whose titles name the keyword', async () => {
    const hose = await text(`${sim.url}/s?k=garden+hose`);
    const cable = await text(`${sim.url}/s?k=usb+c+cable`);
    const hose2 = await text(`${sim.url}/s?k=garden+hose&page=2`);
    const asins = cardAsins(hose);
    expect(asins.length).toBeGreaterThanOrEqual(10);
    expect(new Set(asins).size).toBe(asins.length);
    asins.forEach((asin, i) => expect(asin).toBe(searchCardAsin('garden hose', 1, i)));
    expect(cardAsins(await text(`${sim.url}/s?k=Garden%20%20Hose`))).toEqual(asins);
    expect(cardAsins(cable).filter((a) => asins.includes(a))).toEqual([]);
    expect(cardAsins(hose2).filter((a) => asins.includes(a))).toEqual([]);
    expect(hose).toContain('<title>Amazon.com : garden hose</title>');
    expect(hose.match(/garden hose, /g)!.length).toBeGreaterThanOrEqual(asins.length);
    expect(cable).not.toContain('garden hose');
  });

  it('links result cards to the marketplace host, never relative to the simulator', async () => {
    const html = await text(`${sim.url}/s?k=garden+hose`);
    expect(html).not.toMatch(ROOT_RELATIVE);
    expect(html).toContain(`https://www.amazon.com/`);
    expect(html).not.toContain(sim.url);
    const product = await text(`${sim.url}/dp/B0LINKS001`);
    expect(product).not.toMatch(ROOT_RELATIVE);
    // Canonical (synthetic page), variant and related-product links (template).
    const productLinks = [...product.matchAll(/\bhref="([^"]*\/dp\/[^"]*)"/g)].map((m) => m[1]!);
    expect(productLinks.length).toBeGreaterThan(0);
    // Ad-click links stay on Amazon's ad hosts, as saved.
    expect(productLinks.filter((href) => !/^https:\/\/[a-z0-9.-]*\.amazon\.com\//.test(href))).toEqual([]);
    expect(productLinks.filter((href) => href.startsWith('https://www.amazon.com/')).length).toBeGreaterThan(0);
  });
});

describeFixtures('product pages from the details template', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  it('carry the ASIN, a title and a price of their own, at the template length', async () => {
    const a = await text(`${sim.url}/dp/B0VARY0001`);
    const b = await text(`${sim.url}/dp/B0VARY0002`);
    for (const [html, asin] of [
      [a, 'B0VARY0001'],
      [b, 'B0VARY0002'],
    ] as const) {
      expect(html).toContain(`<input id="ASIN" name="ASIN" type="hidden" value="${asin}"/>`);
      const title = productTitle(asin, 195);
      expect(html).toMatch(new RegExp(`id="productTitle">\\s*${title}\\s*<`));
      const [whole, cents] = productPrice(asin, 2);
      expect(html).toContain(
        `<span class="a-price-whole">${whole}<span class="a-price-decimal">.</span></span><span class="a-price-fraction">${cents}</span>`,
      );
      expect(html).toContain(`$${whole}.${cents}`);
      expect(html).not.toContain('charmast 20000mAh Portable Charger with Built-in Cables and AC Wall Plug | 20W');
      expect(html).not.toContain('$35.99');
    }
    expect(productTitle('B0VARY0001', 195)).not.toBe(productTitle('B0VARY0002', 195));
    expect(a.length).toBe(b.length);
    expect(await text(`${sim.url}/dp/B0VARY0001`)).toBe(a);
  });

  it('a stored page is still served as saved', async () => {
    const saved = readFileSync(path.join(FIXTURES!, DEFAULT_DETAILS_TEMPLATE), 'utf8');
    expect(await text(`${sim.url}/dp/B0DR8G428S`)).toBe(saved);
  });
});

describeFixtures('SearchTemplate', () => {
  it('finds the saved keyword and every result card of the default template', () => {
    const template = new SearchTemplate(readFileSync(path.join(FIXTURES!, DEFAULT_SEARCH_TEMPLATE)));
    expect(template.keyword).toBe('portable charger');
    expect(template.cardCount).toBe(22);
    const html = template.render('tränen & lachen', 3).toString();
    expect(html).toContain('value="tränen &#38; lachen"');
    expect(html).toContain('k=tr%C3%A4nen+%26+lachen');
    expect(cardAsins(html)[0]).toBe(searchCardAsin('tränen & lachen', 3, 0));
  });
});
