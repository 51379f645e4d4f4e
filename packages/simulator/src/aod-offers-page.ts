/**
 * The 2021+ offer listing for any ASIN: Amazon's All Offers Display (AOD) panel, as
 * `/gp/offer-listing/{ASIN}` shows it since Amazon retired the "Buying Choices" rows, and the
 * panel's further pages (`/gp/product/ajax/aodAjaxMain/?asin=..&pageno=n`, what its "See more"
 * loads). The markup follows a real 2021 panel (amazon.com): #aod-container holds the sticky
 * copy of the pinned offer (#aod-sticky-pinned-container), #aod-pinned-offer (product image,
 * title and ratings, then the buy-box offer, its seller rows folded away in an aod-hide
 * section), the #aod-filter bar ("N other options"), #aod-offer-list (the hidden
 * #aod-total-offer-count, pinned offer not counted, then ten #aod-offer blocks a page) and the
 * #aod-footer ("See more" until the last page, then "End of results"). A later page is the
 * offer list only: its offers numbered on from the page before (#aod-price-N), and the footer.
 * Offers come from aod-offer-data.ts: the same ASIN and page count always give the same bytes.
 */
import { AOD_OFFERS_PER_PAGE, aodListing, type AodListing, type AodOffer } from './aod-offer-data';
import { filterBar } from './aod-filter-markup';
import { buyColumn, heading, leftGrid, listedOffer, pinnedPrice, sellerRows } from './aod-offer-markup';
import { escapeHtml } from './html';
import { marketLocale, type MarketLocale } from './locale';
import { fnv1a } from './prng';
import { glowBlock } from './delivery-location';

export { usd } from './aod-offer-markup';

/** "See more" / "See less" around the pinned offer's folded seller rows (`id`: the sticky copy's or the pinned offer's). */
const showMore = (
  id: string,
) => `<div id="aod-pinned-offer-main-content-show-more" class="a-section a-spacing-none a-padding-none aod-clear-float">
<span class="a-declarative" data-action="${id}-show-more" data-${id}-show-more="{}">
<a id="${id}-show-more-link" aria-label="About details for this option." class="a-link-normal" title="Show more" href="#">
<i class="a-icon a-icon-arrow-up a-icon-mini aod-arrow-low" role="img"></i>
See more
</a>
</span>
</div>`;
const showLess = (id: string) => `<div id="aod-pinned-offer-main-content-show-less" class="a-section a-spacing-top-micro aod-clear-float">
<span class="a-declarative" data-action="${id}-show-less" data-${id}-show-less="{}">
<a id="${id}-show-less-link" class="a-link-normal aod-hide" title="Show less" href="#">
<i class="a-icon a-icon-arrow-up a-icon-mini aod-arrow-up" role="img"></i>
See less
</a>
</span>
</div>`;

/** The pinned offer's Ships from / Sold by, folded away until "See more" (aod-hide). */
function additionalContent(id: string, asin: string, o: AodOffer, locale: MarketLocale): string {
  return `<div id="${id}-additional-content" class="a-section a-spacing-none a-spacing-top-small a-padding-none aod-hide">
<hr class="a-spacing-small a-spacing-top-small a-divider-normal aod-condition-divider">
<div class="a-row">
<div class="a-column a-span12 a-spacing-none a-span-last">
${sellerRows(asin, o, 0, locale)}
</div>
</div>
<div class="a-section aod-offer-divider aod-clear-float"></div>
</div>`;
}

/** The copy of the pinned offer that sticks to the top while the list scrolls. */
function stickyPinned(asin: string, o: AodOffer, locale: MarketLocale): string {
  return `<div id="aod-sticky-pinned-container" class="a-section a-spacing-none aod-sticky-pinned-container">
<div id="aod-sticky-pinned-offer" class="a-section a-spacing-none aod-sticky-pinned-offer aod-sticky-pinned-offer-show-position" style="top: -200px;">
<div class="a-section a-spacing-medium a-spacing-top-medium aod-information-block">
<span class="a-declarative" data-action="aod-pinned-offer-scroll-top" data-aod-pinned-offer-scroll-top="{}">
<div class="a-row a-spacing-none">
<div id="pinned-de-id" class="a-column a-span12 a-spacing-none pinned-offer-block a-span-last">
${heading(o.condition)}
${leftGrid(`<div id="pinned-offer-scroll-id" class="a-section a-spacing-none">\n${pinnedPrice(o, locale)}\n</div>`, buyColumn(asin, o, 0, '', locale))}
${showMore('aod-sticky-pinned-offer')}
${additionalContent('aod-sticky-pinned-offer', asin, o, locale)}
${showLess('aod-sticky-pinned-offer')}
</div>
</div>
</span>
</div>
<hr class="a-spacing-none a-divider-normal aod-offer-block-divider">
</div>
</div>`;
}

/** The product (image, title, ratings) and its buy-box offer. */
function pinnedOffer(listing: AodListing): string {
  const { asin, pinned, locale } = listing;
  const img = `https://m.media-amazon.com/images/I/41${(fnv1a(asin).toString(36) + fnv1a(`${asin}img`).toString(36)).slice(0, 11)}.jpg`;
  const ratings = locale.texts.ratings(locale.countText(100 + (fnv1a(`${asin}#ratings`) % 40000)));
  const product = `<div id="aod-asin-block-asin" class="a-section a-spacing-none">
<div id="aod-asin-title" class="a-row">
<h5 id="aod-asin-title-text" class="aod-asin-title-text-class">
${escapeHtml(listing.title)}
</h5>
</div>
<div id="aod-asin-reviews" class="a-row">
<span>
<i id="aod-asin-reviews-star" class="a-icon a-icon-star a-star-4"></i>
</span>
<span id="aod-asin-reviews-block">
<span id="aod-asin-reviews-count-title" class="a-size-small a-color-base aod-asin-reviews-block-class">
${escapeHtml(ratings)}
</span>
</span>
</div>
</div>`;
  const top = `<div id="pinned-offer-top-id" class="a-section a-spacing-none">
<div class="a-row">
${pinnedPrice(pinned, locale)}
</div>
<div class="a-row">
</div>
`;
  const image = `<img alt="" src="${img}" id="aod-asin-image-id">`;
  return `<div id="aod-pinned-offer" class="a-section a-spacing-none aod-pinned-offer">
<div class="a-section a-spacing-none asin-container-padding aod-clear-float">
${leftGrid(image, `${product}\n${heading(pinned.condition)}\n${buyColumn(asin, pinned, 0, top, locale)}`, {
  grid: 'pinned-offer-inner',
  left: 'a-fixed-left-grid-col offer-image-block aod-padding-right-10 a-col-left',
  leftId: 'pinned-image-id',
  rightId: 'pinned-de-id',
})}
${showMore('aod-pinned-offer')}
${additionalContent('aod-pinned-offer', asin, pinned, locale)}
${showLess('aod-pinned-offer')}
</div>
<hr class="a-spacing-none a-divider-normal aod-offer-block-divider">
</div>`;
}

/** "See more" while offers remain after this page, else "End of results" (the other one aod-hide). */
function footer(more: boolean): string {
  return `<div id="aod-footer" class="a-section a-spacing-none">
<span class="a-declarative" data-action="aod-load-offers" data-aod-load-offers="{}">
<a id="aod-show-more-offers" aria-label="See More. Options" class="a-link-normal${more ? '' : ' aod-hide'}" title="Show more" href="#">
<i class="a-icon a-icon-arrow-up a-icon-mini aod-arrow-low" role="img" aria-label="See More. Options"></i>
See more
</a>
</span>
<span id="aod-end-of-results" class="a-size-base a-color-base${more ? ' aod-hide' : ''}">
End of results
</span>
<div id="aod-footer-spinner-container" class="a-section a-spacing-none a-padding-none"><span id="aod-offer-load-spinner" class="aod-hide aod-animation-2 aod-footer-load-2"></span></div>
</div>`;
}

/** Page `page` of the listed offers (1-based, ten a page), numbered across pages from 1. */
function offerList(listing: AodListing, page: number): string {
  const first = (page - 1) * AOD_OFFERS_PER_PAGE;
  const total = listing.listed.length;
  const rows = listing.listed
    .slice(first, first + AOD_OFFERS_PER_PAGE)
    .map((o, i) => listedOffer(listing.asin, o, first + i + 1, listing.locale));
  return `<div id="aod-offer-list" class="a-section a-spacing-none a-padding-none">
<input type="hidden" name="" value="${total}" id="aod-total-offer-count">
<input type="hidden" name="" value="${total} other option${total === 1 ? '' : 's'}" id="aod-total-offer-count-string">
${rows.join('\n')}
</div>`;
}

const hasMore = (listing: AodListing, page: number) => page * AOD_OFFERS_PER_PAGE < listing.listed.length;

/**
 * The AOD offer listing page of `asin` on the marketplace of `locale` with `pages` panel pages: the panel's
 * first page inside a product page shell, deterministic from the ASIN and the page count.
 */
export function aodOffersPage(
  asin: string,
  pages = 1,
  locale: MarketLocale = marketLocale('US'),
  epoch = 0,
  postalCode: string | null = null,
): Buffer {
  const listing = aodListing(asin, pages, locale, epoch, postalCode);
  const a = escapeHtml(asin);
  const origin = locale.origin;
  return Buffer.from(`<!doctype html>
<html lang="${locale.htmlLang}" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>${escapeHtml(locale.siteName)}: Buying Choices: ${escapeHtml(listing.title)}</title>
<link rel="canonical" href="${origin}/gp/offer-listing/${a}" />
</head>
<body class="a-m-${locale.code.toLowerCase()} a-aui_72554-c">
<div id="a-page">
<header id="navbar-main" class="nav-opaque"><div id="nav-belt"><a href="${origin}/ref=nav_logo" id="nav-logo-sprites" class="nav-logo-link" aria-label="Amazon"><span class="nav-sprite nav-logo-base"></span></a>${glowBlock(locale)}
<form id="nav-search-bar-form" accept-charset="utf-8" action="${origin}/s/ref=nb_sb_noss" method="GET" role="search"><input type="text" id="twotabsearchtextbox" value="" name="field-keywords" autocomplete="off" placeholder="Search Amazon" aria-label="Search Amazon"></form></div></header>
<div id="aod-background" class="a-section a-spacing-none aod-darken-background">
<div id="all-offers-display" class="a-section a-spacing-none aod-visible">
<div id="all-offers-display-scroller" class="a-scroller a-scroller-vertical" style="overflow: scroll;">
<div id="aod-container" class="a-section a-spacing-none a-padding-none">
<form method="post" action="" class="aod-hide a-spacing-none"></form>
${stickyPinned(a, listing.pinned, locale)}
${pinnedOffer(listing)}
${filterBar(listing.listed.length)}
${offerList(listing, 1)}
${footer(hasMore(listing, 1))}
</div>
</div>
</div>
</div>
</div>
</body></html>
`);
}

/**
 * Page `page` (> 1) of the panel of `asin` with `pages` pages, as its "See more" request
 * answers (`isonlyrenderofferlist=true`): the next ten offers and the footer, no page chrome.
 * A page past the last has no offers and says "End of results".
 */
export function aodOffersAjaxPage(
  asin: string,
  page: number,
  pages: number,
  locale: MarketLocale = marketLocale('US'),
  epoch = 0,
  postalCode: string | null = null,
): Buffer {
  const listing = aodListing(asin, pages, locale, epoch, postalCode);
  return Buffer.from(`${offerList(listing, page)}
${footer(hasMore(listing, page))}
`);
}
