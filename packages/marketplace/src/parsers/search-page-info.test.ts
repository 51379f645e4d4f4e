/**
 * Next-page and no-results detection of search pages (search depth), on every search fixture and
 * on the same pages turned into last pages the way Amazon renders one (the Next control
 * disabled), plus the no-results answers of both layouts.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseSearchResults } from './search';

const dir = path.resolve(__dirname, '../../../../../shared/fixtures/amazon');
const hasFixtures = fs.existsSync(dir);
if (!hasFixtures) console.warn(`[parsers] fixture dir ${dir} not found: search page-info fixture tests skipped`);
const d = hasFixtures ? describe : describe.skip;

const US = { marketplace: 'US', origin: 'https://www.amazon.com' };
const DE = { marketplace: 'DE', origin: 'https://www.amazon.de' };
const ctxOf = (file: string) => (file.startsWith('search-US') ? US : DE);
const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

/** What each saved page shows: a Next link, except the 7-result page, whose `#pagn` is empty. */
const NEXT: Record<string, boolean> = {
  'search-US-portable-charger.html': true,
  'search-DE-plastikfrei-besteck.html': true,
  'search-DE-plastikfrei-gemuesebeutel.html': true,
  'search-DE-plastikfrei-fuer-einsteiger.html': false,
};

/**
 * The page as its keyword's last page: the 2019+ Next link becomes the disabled span Amazon
 * shows, the pre-2019 `#pagnNextLink` becomes the linkless `pagnRA1` arrow.
 */
function asLastPage(html: string): string {
  return html
    .replace(
      /<a\b[^>]*\bs-pagination-next\b[^>]*>([\s\S]*?)<\/a>/g,
      '<span class="s-pagination-item s-pagination-next s-pagination-disabled" aria-disabled="true">$1</span>',
    )
    .replace(
      /<a\s+title="[^"]*"\s+id="pagnNextLink"[\s\S]*?<\/a>/g,
      '<span class="pagnRA1"><span id="pagnNextString">Nächste Seite</span></span>',
    );
}

d('parseSearchResults on the search fixtures', () => {
  it('covers every search fixture', () => {
    expect(
      fs
        .readdirSync(dir)
        .filter((f) => f.startsWith('search-'))
        .sort(),
    ).toEqual(Object.keys(NEXT).sort());
  });

  it.each(Object.entries(NEXT))('%s: hasNextPage %s, cards, not a no-results page', (file, next) => {
    const page = parseSearchResults(read(file), ctxOf(file));
    expect(page.hasNextPage).toBe(next);
    expect(page.cards.length).toBeGreaterThan(0);
    expect(page.noResults).toBe(false);
  });

  it.each(Object.keys(NEXT))('%s as a last page: no next page, the same cards', (file) => {
    const html = read(file);
    const last = asLastPage(html);
    if (NEXT[file]) expect(last).not.toBe(html);
    const page = parseSearchResults(last, ctxOf(file));
    expect(page.hasNextPage).toBe(false);
    expect(page.cards).toEqual(parseSearchResults(html, ctxOf(file)).cards);
  });

  it('a page that is not a search page has no cards and is not a no-results page (it stays a parse error)', () => {
    for (const file of ['details-US-B0DR8G428S.html', 'captcha-1.html']) {
      expect(parseSearchResults(read(file), US)).toEqual({ cards: [], hasNextPage: false, noResults: false });
    }
  });
});

const searchBox = (keyword: string) =>
  `<form action="/s"><input type="text" id="twotabsearchtextbox" value="${keyword}" name="field-keywords"></form>`;

describe('parseSearchResults on synthetic markup', () => {
  it('a 2019+ no-results page: the messaging widget in the result list, the keyword in the search box', () => {
    const html = `<html><body>${searchBox('xqzv gadget')}<div class="s-main-slot s-result-list s-search-results">
      <div class="s-result-item s-widget" data-component-type="s-result-info-bar"><span>No results for </span><span class="a-color-state a-text-bold">xqzv gadget</span>.</div>
      <div class="s-result-item s-widget" data-component-type="s-messaging-widget"><div class="s-no-outline"><span>No results for </span><span class="a-text-bold">xqzv gadget</span>.</div></div>
    </div></body></html>`;
    expect(parseSearchResults(html, US)).toEqual({ cards: [], hasNextPage: false, noResults: true });
  });

  it('a pre-2019 no-results page (#noResultsTitle)', () => {
    const html = `<html><body>${searchBox('xqzv gadget')}<div id="noResultsTitle">Your search "xqzv gadget" did not match any products.</div></body></html>`;
    expect(parseSearchResults(html, US).noResults).toBe(true);
  });

  it('a notice without a keyword in the search box is no answer to a search', () => {
    const html = `<html><body>${searchBox('')}<div data-component-type="s-messaging-widget">Something went wrong</div></body></html>`;
    expect(parseSearchResults(html, US).noResults).toBe(false);
  });

  it('the 2019-2020 a-pagination: an enabled li.a-last link is a next page, a disabled one is not', () => {
    const card =
      '<div data-component-type="s-search-result" data-asin="B0TEST0001"><h2><a href="/dp/B0TEST0001"><span>Lamp</span></a></h2></div>';
    const page = (pagination: string) =>
      parseSearchResults(
        `<html><body>${searchBox('lamp')}${card}<div data-component-type="s-pagination"><ul class="a-pagination">${pagination}</ul></div></body></html>`,
        US,
      );
    expect(page('<li class="a-last"><a href="/s?k=lamp&amp;page=2">Next</a></li>').hasNextPage).toBe(true);
    expect(page('<li class="a-disabled a-last">Next</li>').hasNextPage).toBe(false);
    // The same list paging a carousel elsewhere on the page is not the results' pagination.
    const carousel = `<html><body>${searchBox('lamp')}${card}<div class="a-carousel"><ul class="a-pagination"><li class="a-last"><a href="#">Next</a></li></ul></div></body></html>`;
    expect(parseSearchResults(carousel, US).hasNextPage).toBe(false);
  });
});
