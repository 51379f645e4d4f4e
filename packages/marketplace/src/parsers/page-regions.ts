/**
 * Regions of a page that no field of its item is read from: the site's navigation and footer,
 * other products (sponsored, "similar items" and shop-the-look features, comparison tables,
 * related videos) and, on product pages, the review bodies (a details item takes rating, count
 * and histogram from the summary; reviews are their own job type). The tree keeps these
 * elements, empty, so their content costs a scan instead of a tree (about a fifth of a product
 * page's parse). Only regions named by their own id are left out: carousels also carry the
 * product's own data (rich product information, A+ content), so being a carousel is no reason.
 * See docs/parsing.md.
 */
import type { LeaveOut } from './page-tree';

const CHROME = ['navbar', 'navFooter', 'rhf'];

const DETAILS_IDS = new Set([
  ...CHROME,
  'cm-cr-dp-review-list',
  'cm-cr-global-review-list',
  'cr-top-reviews',
  'localTopReviews',
  'similarities_feature_div',
  'HLCXComparisonTable',
  'va-related-videos-widget_feature_div',
  'vse-related-videos',
]);
/** Sponsored products, "customers also bought", similar-items and shop-the-look features. */
const DETAILS_PREFIXES = ['sims-', 'sp_detail', 'DPSims', 'sponsoredProducts', 'p13n-m-', 'mirai'];

export const leaveOutOfDetails: LeaveOut = (_name, id) => {
  return id !== undefined && (DETAILS_IDS.has(id) || DETAILS_PREFIXES.some((prefix) => id.startsWith(prefix)));
};

const SEARCH_IDS = new Set([...CHROME, 's-refinements']);

export const leaveOutOfSearch: LeaveOut = (_name, id) => id !== undefined && SEARCH_IDS.has(id);
