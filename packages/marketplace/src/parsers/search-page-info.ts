/**
 * What a search result page says about the search besides its cards: whether a next result
 * page exists, whether the marketplace found nothing at all for the keyword, and how many
 * results it announces. All are read from the page's structure, never from its (localized)
 * wording.
 */
import type { Doc, DomNode } from '../page';
import { parseCount } from './numbers';
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

export function hasNextResultPage(doc: Doc): boolean {
  return NEXT_PAGE_LINKS.some(
    (selector) => doc.$(selector).filter((_, el) => !doc.$(el).is('.s-pagination-disabled, [aria-disabled="true"]')).length > 0,
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
const searchBoxKeyword = (doc: Doc): string => clean(doc.$('#twotabsearchtextbox, input[name="field-keywords"]').first().attr('value'));

/**
 * A genuine "no results" page: a search page (its search box holds the keyword) whose result
 * list shows the marketplace's no-results notice. Callers check it only when the page has no
 * result cards; a page that is not a search page at all (an error page, a product page) has no
 * such notice or no keyword in its search box, and stays a parse error.
 */
export function isNoResultsPage(doc: Doc): boolean {
  if (!searchBoxKeyword(doc)) return false;
  return NO_RESULTS_NOTICES.some((selector) => doc.$(selector).length > 0);
}

/**
 * Where a search page announces its result count: the 2019+ result info bar (its heading, or the
 * breadcrumb column of 2019-2022 bars, else the bar itself) and the pre-2019 `#s-result-count` /
 * older `#resultCount`. The keyword echoed there (`.a-color-state`) is left out: it may hold
 * digits ("iphone 15").
 */
const isCountHolder = (n: DomNode): boolean =>
  n.attribs?.['data-component-type'] === 's-result-info-bar' || n.attribs?.id === 's-result-count' || n.attribs?.id === 'resultCount';
const COUNT_IN_INFO_BAR = 'h2, .s-breadcrumb';
/** Left out of a bar without such a heading: the keyword and the sort control beside the count. */
const NOT_THE_COUNT = '.a-color-state, form, select, script';

/**
 * Elements of the document in order, lazily: the count sits above the results, so the walk
 * stops long before the end of the page (a selector query walks the whole tree).
 */
function* elementsInOrder(root: DomNode): Generator<DomNode> {
  const stack: DomNode[] = [...(root.children ?? [])].reverse();
  while (stack.length) {
    const node = stack.pop() as DomNode;
    if (node.type !== 'tag') continue;
    yield node;
    const kids = node.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/**
 * The range of cards the page shows, before or after the total: "1-48", "1–48", "1 - 16",
 * Japanese "1〜48", Portuguese "1 a 48". Its bounds are page positions, never the total.
 */
const SHOWN_RANGE_RE = /\d+\s*[-–—~〜～]\s*\d+|\d+\s+(?:a|à|to|bis|tot|till|do)\s+\d+/i;

/**
 * The result count the page announces ("1-48 of over 30,000 results for" -> 30000, "7 Ergebnisse
 * für" -> 7, "Plus de 50 000 résultats" -> 50000, "30,000以上の結果" -> 30000): the number left
 * once the shown range is taken out, read with the locale-aware count parser. "Over 30,000" is
 * reported as 30000, the figure the page gives. Null when the page shows no count.
 */
export function totalResultsOf(doc: Doc): number | null {
  for (const node of elementsInOrder(doc.root()[0] as unknown as DomNode)) {
    if (!isCountHolder(node)) continue;
    const holder = doc.$(node as never);
    const isInfoBar = node.attribs?.['data-component-type'] === 's-result-info-bar';
    const heading = isInfoBar ? holder.find(COUNT_IN_INFO_BAR).first() : holder;
    const shown = (heading.length ? heading : holder).clone();
    shown.find(NOT_THE_COUNT).remove();
    const total = parseCount(clean(shown.text()).replace(SHOWN_RANGE_RE, ' '));
    if (total !== null) return total;
  }
  return null;
}
