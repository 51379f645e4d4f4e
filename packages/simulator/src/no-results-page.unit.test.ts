/**
 * A keyword whose result page count is set to 0 finds nothing: every result page of it is the
 * marketplace's "no results" page, with or without a fixtures folder.
 */
import { validatePageCounts } from './page-counts';
import { startSimulator, type Simulator } from './index';

describe('keywords without results', () => {
  let sim: Simulator;
  const get = async (p: string): Promise<{ status: number; html: string }> => {
    const res = await fetch(`${sim.url}${p}`);
    return { status: res.status, html: await res.text() };
  };

  beforeAll(async () => {
    sim = await startSimulator({ fixturesDir: null });
  });
  afterAll(() => sim.close());

  it('a keyword set to 0 pages answers 200 with the no-results page: the keyword in the search box, no cards, no Next link', async () => {
    sim.setPageCounts({ 'xqzv gadget': 0 });
    for (const [p, shown] of [
      ['/s?k=xqzv+gadget', 'xqzv gadget'],
      ['/s?k=XQZV%20gadget&page=2', 'XQZV gadget'],
    ] as const) {
      const { status, html } = await get(p);
      expect(status).toBe(200);
      expect(html).toContain(`id="twotabsearchtextbox" value="${shown}"`);
      expect(html).toContain('data-component-type="s-messaging-widget"');
      expect(html).toContain(`No results for </span><span class="a-color-state a-text-bold">${shown}</span>`);
      expect(html).not.toContain('data-component-type="s-search-result"');
      expect(html).not.toContain('s-pagination-next');
    }
    const other = await get('/s?k=usb+c+hub');
    expect(other.html).toContain('data-component-type="s-search-result"');
  });

  it('synthetic result pages link the next page, except the last one', async () => {
    sim.setPageCounts({ 'usb c hub': 2 });
    expect((await get('/s?k=usb+c+hub')).html).toMatch(
      /<a class="s-pagination-item s-pagination-next[^"]*" href="https:\/\/www\.amazon\.com\/s\?k=usb\+c\+hub&amp;page=2"/,
    );
    expect((await get('/s?k=usb+c+hub&page=2')).html).toContain('s-pagination-next s-pagination-disabled');
  });

  it('0 is a valid count for a keyword only (an ASIN has at least one review page)', () => {
    expect(validatePageCounts({ 'no such thing': 0 }).get('no-such-thing')).toBe(0);
    expect(() => validatePageCounts({ B0ABCDEFGH: 0 })).toThrow('must be an integer 1..400');
    expect(() => validatePageCounts({ 'usb c hub': -1 })).toThrow('must be an integer 0..400');
  });
});
