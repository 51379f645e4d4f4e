/**
 * What a search result page says about the search besides its cards: whether a next result
 * page exists, and whether the marketplace found nothing at all for the keyword. Both are read
 * from the page's structure, never from its (localized) wording.
 */
import type { CheerioAPI } from 'cheerio';
import { clean } from './text';

/**
 * An enabled "next page" control of each pagination layout. A last page shows the same control
 * disabled, as an element that is not a link: 2019+ `<span class="s-pagination-next
 * s-pagination-disabled">`, pre-2019 `<span class="pagnRA1">` without `#pagnNextLink`, 2019-2020
 * `<li class="a-disabled a-last">` without a link. The generic `a-pagination` list also pages
 * carousels, so it counts only as the search's own pagination component or inside the results.
 */
const RESULT_PAGINATION = '[data-component-type="s-pagination"], .s-search-results, .s-result-list';
const NEXT_PAGE_LINKS = [
  'a.s-pagination-next[href]',
  'a#pagnNextLink[href]',
  'a.pagnNext[href]',
  ...RESULT_PAGINATION.split(', ').map((scope) => `${scope} .a-pagination li.a-last:not(.a-disabled) a[href]`),
];

export function hasNextResultPage($: CheerioAPI): boolean {
  return NEXT_PAGE_LINKS.some(
    (selector) => $(selector).filter((_, el) => !$(el).is('.s-pagination-disabled, [aria-disabled="true"]')).length > 0,
  );
}

/**
 * The "no results for <keyword>" notice: the 2019+ messaging component (`s-no-results`, or an
 * `s-messaging-widget` that stands alone in the result list), or the pre-2019 `#noResultsTitle`.
 */
const NO_RESULTS_NOTICES = [
  '[data-component-type="s-no-results"]',
  '.s-no-results',
  '#noResultsTitle',
  '[data-component-type="s-messaging-widget"]',
];

/** The keyword the page's search box holds: a search page answering a search keeps it there. */
const searchBoxKeyword = ($: CheerioAPI): string => clean($('#twotabsearchtextbox, input[name="field-keywords"]').first().attr('value'));

/**
 * A genuine "no results" page: a search page (its search box holds the keyword) whose result
 * list shows the marketplace's no-results notice. Callers check it only when the page has no
 * result cards; a page that is not a search page at all (an error page, a product page) has no
 * such notice or no keyword in its search box, and stays a parse error.
 */
export function isNoResultsPage($: CheerioAPI): boolean {
  if (!searchBoxKeyword($)) return false;
  return NO_RESULTS_NOTICES.some((selector) => $(selector).length > 0);
}
