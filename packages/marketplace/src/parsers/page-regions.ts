/**
 * Regions of a page that no field of its item is read from: the site's navigation and footer,
 * other products (sponsored, "similar items" and shop-the-look features, comparison tables,
 * related videos), on product pages the review bodies, photos and highlights (a details item
 * takes rating, count and histogram from the summary; reviews are their own job type) and the
 * controls a shopper uses (quantity, lists, the price-feedback form, the media viewer). The tree
 * keeps these elements, empty, so their content costs a scan instead of a tree (a fifth to a
 * third of a product page's elements). Only regions named by their own id are left out:
 * carousels also carry the product's own data (rich product information, A+ content), so being a
 * carousel is no reason. page-regions.unit.test.ts parses every fixture page whole and with these
 * left out: the items must be equal. See docs/parsing.md.
 */
import type { LeaveOut } from '../page';

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
  // other products: comparison with similar items, other brands' "inspiration"
  'product-comparison_feature_div',
  'discovery-and-inspiration_feature_div',
  // what the shopper does, not what the product is: quantity picker, lists, questions, the
  // "found a lower price?" form, the return policy, the full-screen media viewer
  'selectQuantity',
  'wishlistButtonStack',
  'ask-dp-search_feature_div',
  'pricingFeedback_contentContainer',
  'a-popover-return-policy-secondary-view',
  'iv-tab-view-container',
  // review content beyond the summary: customers' photos
  'cm_cr_carousel_images_section',
]);
/**
 * Sponsored products, "customers also bought", similar-items and shop-the-look features; the
 * review highlights of each aspect ("customers mention portability").
 */
const DETAILS_PREFIXES = ['sims-', 'sp_detail', 'DPSims', 'sponsoredProducts', 'p13n-m-', 'mirai', 'rh_controls_aspect_'];

export const leaveOutOfDetails: LeaveOut = (_name, id) => {
  return id !== undefined && (DETAILS_IDS.has(id) || DETAILS_PREFIXES.some((prefix) => id.startsWith(prefix)));
};

const SEARCH_IDS = new Set([...CHROME, 's-refinements']);

export const leaveOutOfSearch: LeaveOut = (_name, id) => id !== undefined && SEARCH_IDS.has(id);
