/**
 * Next-page and no-results detection of search pages (search depth), on every search fixture and
 * on the same pages turned into last pages the way Amazon renders one (the Next control
 * disabled), plus the no-results answers of both layouts; and the result count each page
 * announces.
 */
import { parseSearchResults } from './search';
import { describeOnRealPages, readRealPage, realPageFiles } from '../test-support/real-pages';

const d = describeOnRealPages;

const US = { marketplace: 'US', origin: 'https://www.amazon.com' };
const DE = { marketplace: 'DE', origin: 'https://www.amazon.de' };
const ctxOf = (file: string) => (file.startsWith('search-US') ? US : DE);
const read = (file: string) => readRealPage(file);

/**
 * The result count each saved page announces (read by hand): the 2026 US page in its result info
 * bar h2 ("1-16 of over 90,000 results for"), the pre-2019 DE pages in `#s-result-count` ("1-16
 * von 33 Ergebnissen oder Vorschlägen für", "7 Ergebnisse für"). Every search fixture carries one.
 */
const TOTAL: Record<string, number> = {
  'search-US-portable-charger.html': 90000,
  'search-DE-plastikfrei-besteck.html': 33,
  'search-DE-plastikfrei-gemuesebeutel.html': 86,
  'search-DE-plastikfrei-fuer-einsteiger.html': 7,
};

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
    expect(realPageFiles((f) => f.startsWith('search-'))).toEqual(Object.keys(NEXT).sort());
  });

  it.each(Object.keys(NEXT))(
    '%s: hasNextPage, cards, not a no-results page, its total; as a last page no next page, the same cards',
    (file) => {
      const html = read(file);
      const whole = parseSearchResults(html, ctxOf(file));
      expect(whole.hasNextPage).toBe(NEXT[file]);
      expect(whole.cards.length).toBeGreaterThan(0);
      expect(whole.noResults).toBe(false);
      expect(whole.totalResults).toBe(TOTAL[file]);

      const last = asLastPage(html);
      if (NEXT[file]) expect(last).not.toBe(html);
      const page = parseSearchResults(last, ctxOf(file));
      expect(page.hasNextPage).toBe(false);
      expect(page.cards).toEqual(parseSearchResults(html, ctxOf(file)).cards);
    },
  );

  it('a page that is not a search page has no cards and is not a no-results page (it stays a parse error)', () => {
    for (const file of ['details-US-B0DR8G428S.html', 'captcha-1.html']) {
      expect(parseSearchResults(read(file), US)).toEqual({ cards: [], hasNextPage: false, noResults: false, totalResults: null });
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
    expect(parseSearchResults(html, US)).toEqual({ cards: [], hasNextPage: false, noResults: true, totalResults: null });
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

const card =
  '<div data-component-type="s-search-result" data-asin="B0TEST0001"><h2><a href="/dp/B0TEST0001"><span>Lamp</span></a></h2></div>';
/** A 2019-2022 result info bar: the count, then the keyword the page echoes. */
const infoBar = (count: string, keyword = '"lamp"') =>
  `<span data-component-type="s-result-info-bar"><h1 class="a-size-base s-desktop-toolbar"><div class="s-breadcrumb"><div class="a-section a-spacing-small a-spacing-top-small"><span>${count}</span><span> </span><span class="a-color-state a-text-bold">${keyword}</span></div></div></h1></span>`;
/** A 2023+ info bar, whose count sits in an h2. */
const infoBarH2 = (count: string, keyword = '"lamp"') =>
  `<span data-component-type="s-result-info-bar"><h1><div class="s-breadcrumb"><h2 class="a-size-base"><span>${count}</span><span> </span><span class="a-color-state a-text-bold">${keyword}</span></h2></div><div class="s-desktop-sort-container"><label>Sort by:</label></div></h1></span>`;
const totalOf = (bar: string) => parseSearchResults(`<html><body>${searchBox('lamp')}${bar}${card}</body></html>`, US).totalResults;

describe('totalResults on synthetic result info bars', () => {
  it.each([
    ['1-48 of over 30,000 results for', 30000],
    ['1-16 von 218 Ergebnissen oder Vorschlägen für', 218],
    ['7 Ergebnisse für', 7],
    ['1 result for', 1],
    ['1-24 de más de 1.000 resultados para', 1000],
    ['Plus de 50 000 résultats pour', 50000],
    ['1-24 sur plus de 50\u00a0000 résultats pour', 50000],
    ['1-24 dei più di 10.000 risultati in', 10000],
    ['1 a 48 de mais de 2.000 resultados para', 2000],
    ['1-48 van meer dan 1.000 resultaten voor', 1000],
    ['1–48 av över 1 000 resultat för', 1000],
    ['1-48 z ponad 1 000 wyników dla', 1000],
    ['30,000以上の結果', 30000],
    ['1-48/30,000以上の結果', 30000],
    ['1-48 من أكثر من 10,000 نتيجة لـ', 10000],
    ['Showing 1 - 16 of 1,234 Results', 1234],
  ])('"%s" -> %d', (text, total) => {
    expect(totalOf(infoBar(text))).toBe(total);
    expect(totalOf(infoBarH2(text))).toBe(total);
  });

  it('a bar without a heading: its own text, without the keyword and the sort control', () => {
    const bar = (inner: string) =>
      `<div class="s-result-item s-widget" data-component-type="s-result-info-bar"><div class="sg-col-inner">${inner}</div></div>`;
    const sort =
      '<form action="/s"><select name="s"><option value="review-rank">Avg. Customer Review</option><option value="x">Top 100</option></select></form>';
    expect(totalOf(bar('<span>1-10 of over 1,000 results for</span> <span class="a-color-state a-text-bold">"lamp 2"</span>'))).toBe(1000);
    expect(totalOf(bar(`<span>Results</span>${sort}`))).toBeNull();
  });

  it('the echoed keyword is not the count, even with digits in it', () => {
    expect(totalOf(infoBar('1-48 of over 2,000 results for', '"iphone 15 case"'))).toBe(2000);
    expect(totalOf(infoBarH2('7 results for', '"usb 3.0 hub 4 port"'))).toBe(7);
  });

  it('pre-2019 #s-result-count and the older #resultCount', () => {
    const old =
      '<div id="s-result-info-bar"><span id="s-result-count">1-16 von 86 Ergebnissen oder Vorschlägen für <span><span class="a-color-state a-text-bold">"gemüsebeutel"</span></span></span></div>';
    expect(totalOf(old)).toBe(86);
    expect(totalOf('<h2 id="resultCount" class="resultCount"><span>Showing 1 - 24 of 4,310 Results</span></h2>')).toBe(4310);
  });

  it('null when the page announces no count', () => {
    expect(totalOf('')).toBeNull();
    expect(totalOf(infoBarH2('Results'))).toBeNull();
    expect(totalOf('<span id="s-result-count">Ergebnisse, die zu Ihren Suchbegriffen passen</span>')).toBeNull();
    // A count kept in a comment (pre-2019 pages keep the next page's bar there) is not shown.
    expect(totalOf('<div style="display:none"><!-- <span id="s-result-count">17-32 von 86 Ergebnissen</span> --></div>')).toBeNull();
  });
});
