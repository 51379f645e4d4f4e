/**
 * How many result pages a keyword has and how many review and offer-listing pages an ASIN has,
 * where a test or demo sets it (`/__sim/pages`, `Simulator.setPageCounts`): the last page shows
 * no "next page" link (an offers panel: "End of results"), so a crawler asked for more pages
 * stops there. A keyword set to 0 has no results: every page of it is the marketplace's "no
 * results" page. Unset ids have the API's maxima for search and reviews, one offer-listing page
 * (routes.ts DEFAULT_SEARCH_PAGES, DEFAULT_REVIEW_PAGES, DEFAULT_OFFER_PAGES).
 */
import { keywordSlugs } from './keyword-slug';

const ASIN_RE = /^[A-Za-z0-9]{10}$/;
const MAX_PAGES = 400;

/**
 * `{ "usb c hub": 2, "B0ABCDEFGH": 3 }` -> the routing map: a key of ASIN shape is an ASIN
 * (upper-cased), any other key a keyword (by its first slug, so spelling variants match).
 * null clears every count. Throws TypeError on anything else (nothing changes then).
 */
export function validatePageCounts(input: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  if (input === null || input === undefined) return counts;
  if (typeof input !== 'object' || Array.isArray(input)) throw new TypeError('pages must be an object of keyword or ASIN -> page count');
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const isAsin = ASIN_RE.test(key.trim());
    // 0 result pages: the keyword finds nothing (a "no results" page); an ASIN has at least one review page.
    const min = isAsin ? 1 : 0;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_PAGES)
      throw new TypeError(`pages[${JSON.stringify(key)}] must be an integer ${min}..${MAX_PAGES}`);
    const id = isAsin ? key.trim().toUpperCase() : keywordSlugs(key)[0];
    if (!id) throw new TypeError(`pages: ${JSON.stringify(key)} is neither a keyword nor an ASIN`);
    counts.set(id, value);
  }
  return counts;
}
