/**
 * The 2021+ offer listing for any ASIN: Amazon's All Offers Display (AOD) panel, opened over
 * a product page shell, as `/gp/offer-listing/{ASIN}` shows it since Amazon retired the
 * "Buying Choices" rows. The panel pins the buy-box offer (#aod-pinned-offer, repeated in the
 * sticky header while scrolling), lists the other offers (#aod-offer rows in #aod-offer-list)
 * and announces their number (#aod-total-offer-count, pinned offer included); every offer has
 * the same sub-ids (price, condition heading, delivery block, ships from, sold by). No fixture
 * of this layout exists, so the markup follows the structure the offers parser reads; the
 * offers come from aod-offer-data.ts, so the same ASIN always gets the same bytes.
 */
import { AMAZON_US, aodListing, type AodOffer } from './aod-offer-data';
import { marketplaceOrigin } from './marketplace-hosts';
import { fnv1a } from './prng';
import { escapeHtml } from './synthetic';

/** Generated pages link to the marketplace itself, never to the simulator. */
const US = marketplaceOrigin('US');

/** 1234 -> '$12.34', 123456 -> '$1,234.56'. */
export function usd(cents: number): string {
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  return `$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** Amazon's price block: the screen-reader text the parser reads, and the split digits shown. */
function priceBlock(cents: number, size: 'xl' | 'l'): string {
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  const fraction = String(cents % 100).padStart(2, '0');
  return `<span class="a-price aok-align-center centralizedApexPricePriceToPayMargin" data-a-size="${size}" data-a-color="base"><span class="a-offscreen">${usd(cents)}</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">${whole}<span class="a-price-decimal">.</span></span><span class="a-price-fraction">${fraction}</span></span></span>`;
}

/** The "label | value" grid of the Ships from / Sold by rows. */
function labelled(label: string, value: string): string {
  return `<div class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner" style="padding-left:90px"><div class="a-fixed-left-grid-col a-col-left" style="width:90px;margin-left:-90px;float:left;"><span class="a-size-small a-color-tertiary"> ${label} </span></div><div class="a-fixed-left-grid-col a-col-right" style="padding-left:0%;float:left;">${value}</div></div></div>`;
}

/** "Used - Like New" is two spans in the heading: the condition, then its grade. */
function heading(condition: string): string {
  const [main, grade] = condition.split(' - ');
  const gradeSpan = grade ? `<span class="a-size-base-plus a-color-base"> - ${escapeHtml(grade)} </span>` : '';
  return `<div id="aod-offer-heading" class="a-section a-spacing-none a-padding-none"><h5><span class="a-size-base-plus a-color-base a-text-bold"> ${escapeHtml(main!)} </span>${gradeSpan}</h5></div>`;
}

function delivery(o: AodOffer): string {
  const price = o.shippingCents === 0 ? 'FREE' : usd(o.shippingCents);
  const text = o.shippingCents === 0 ? 'FREE delivery' : `${usd(o.shippingCents)} delivery`;
  return `<div id="mir-layout-DELIVERY_BLOCK" class="a-section"><div id="mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE" class="a-spacing-base"><span data-csa-c-type="element" data-csa-c-content-id="DEXUnifiedCXPDM" data-csa-c-delivery-price="${price}" data-csa-c-delivery-type="delivery" data-csa-c-delivery-time="${o.deliveryDate}" data-csa-c-mir-view="CONSOLIDATED_CX" data-csa-c-mir-type="DELIVERY" data-csa-c-mir-variant="DEFAULT">${text} <span class="a-text-bold">${o.deliveryDate}</span></span></div></div>`;
}

/** Seller feedback as the panel shows it under a third-party seller's name (Amazon has none). */
function sellerRating(o: AodOffer): string {
  const h = fnv1a(o.seller.id);
  const ratings = (50 + (h % 20000)).toLocaleString('en-US');
  const positive = 85 + ((h >>> 16) % 15);
  const stars = positive >= 95 ? '5' : positive >= 90 ? '4-5' : '4';
  return `<div id="aod-offer-seller-rating" class="a-section a-spacing-none"><i class="a-icon a-icon-star-mini a-star-mini-${stars} aod-seller-rating-stars"></i><span class="a-size-small a-color-base"><span>(${ratings} ratings)</span><br><span>${positive}% positive over last 12 months</span></span></div>`;
}

function sellerRows(asin: string, o: AodOffer, index: number): string {
  const name = escapeHtml(o.seller.name);
  const shipsFrom = o.fulfilledByAmazon ? 'Amazon.com' : name;
  const href = `${US}/gp/aag/main?ie=UTF8&amp;seller=${o.seller.id}&amp;isAmazonFulfilled=${o.fulfilledByAmazon ? 1 : 0}&amp;asin=${asin}&amp;ref_=olp_merch_name_${index}`;
  const rating = o.seller.id === AMAZON_US.id ? '' : sellerRating(o);
  return `<div id="aod-offer-shipsFrom" class="a-section a-spacing-none a-padding-none">${labelled('Ships from', `<span class="a-size-small a-color-base">${shipsFrom}</span>`)}</div>
<div id="aod-offer-soldBy" class="a-section a-spacing-none a-padding-none">${labelled('Sold by', `<a class="a-size-small a-link-normal" href="${href}" role="link">${name}</a>${rating}`)}</div>`;
}

function addToCart(asin: string, o: AodOffer, index: number): string {
  const listingId = (fnv1a(`${asin}#${o.seller.id}#${o.condition}`).toString(36) + fnv1a(`${asin}#${index}`).toString(36)).padEnd(14, '0');
  return `<form method="post" action="/gp/add-to-cart/html/ref=aod_dpdsk_new_${index}" class="aod-atc-form"><input type="hidden" name="items[0.base][asin]" value="${asin}"><input type="hidden" name="items[0.base][offerListingId]" value="${listingId}"><input type="hidden" name="items[0.base][quantity]" value="1"><span class="a-button a-button-primary"><span class="a-button-inner"><input class="a-button-input" type="submit" name="submit.addToCart" value="Add to Cart"><span class="a-button-text" aria-hidden="true">Add to Cart</span></span></span></form>`;
}

/** One offer's blocks, shared by the pinned offer (index 0) and the listed ones (1..n). */
function offerBody(asin: string, o: AodOffer, index: number): string {
  const note =
    o.condition === 'New'
      ? ''
      : `<div id="aod-condition-container" class="a-section a-spacing-none"><span class="a-size-small a-color-secondary">Item in good working order; packaging may show signs of handling.</span></div>`;
  return `<div id="aod-price-${index}" class="a-section a-spacing-none aod-offer-price aod-clear-float">${priceBlock(o.priceCents, index === 0 ? 'xl' : 'l')}</div>
${heading(o.condition)}
${note}${delivery(o)}
${sellerRows(asin, o, index)}
<div class="a-section a-spacing-none aod-clear-float">${addToCart(asin, o, index)}</div>`;
}

/** The panel's head: product image, title and ASIN, then the sticky copy of the pinned offer. */
function asinBlock(asin: string, title: string, pinned: AodOffer): string {
  const img = `https://m.media-amazon.com/images/I/41${(fnv1a(asin).toString(36) + fnv1a(`${asin}img`).toString(36)).slice(0, 11)}._AC_SX75_.jpg`;
  return `<div id="aod-asin-block" class="a-section a-spacing-none"><div class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner" style="padding-left:85px">
<div class="a-fixed-left-grid-col a-col-left" style="width:85px;margin-left:-85px;float:left;"><img id="aod-asin-image-id" alt="" src="${img}" class="aod-asin-image"></div>
<div class="a-fixed-left-grid-col a-col-right" style="padding-left:0%;float:left;"><h5 id="aod-asin-title-text" class="a-size-base-plus a-spacing-none a-color-base a-text-bold">${title}</h5><input type="hidden" id="aod-asin-block-asin" value="${asin}"></div>
</div></div></div>
<div id="aod-sticky-pinned-container" class="a-section a-spacing-none aok-hidden"><div id="aod-sticky-pinned-offer" class="a-section a-spacing-none"><div class="a-section a-spacing-none aod-offer-price">${priceBlock(pinned.priceCents, 'l')}</div><span class="a-size-small a-color-base">New</span></div></div>`;
}

/** The AOD offer listing page of `asin` (US marketplace), deterministic from the ASIN. */
export function aodOffersPage(asin: string): Buffer {
  const listing = aodListing(asin);
  const a = escapeHtml(asin);
  const title = escapeHtml(listing.title);
  const total = listing.listed.length + 1;
  const rows = listing.listed
    .map(
      (o, i) =>
        `<div id="aod-offer" class="a-section a-spacing-none a-padding-base aod-information-block aod-clear-float" role="listitem">\n${offerBody(a, o, i + 1)}\n</div>`,
    )
    .join('\n');
  return Buffer.from(`<!doctype html>
<html lang="en-us" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>Amazon.com: Buying Choices: ${title}</title>
<link rel="canonical" href="${US}/gp/offer-listing/${a}" />
</head>
<body class="a-m-us a-aui_72554-c">
<div id="a-page">
<header id="navbar-main" class="nav-opaque"><div id="nav-belt"><a href="${US}/ref=nav_logo" id="nav-logo-sprites" class="nav-logo-link" aria-label="Amazon"><span class="nav-sprite nav-logo-base"></span></a>
<form id="nav-search-bar-form" accept-charset="utf-8" action="${US}/s/ref=nb_sb_noss" method="GET" role="search"><input type="text" id="twotabsearchtextbox" value="" name="field-keywords" autocomplete="off" placeholder="Search Amazon" aria-label="Search Amazon"></form></div></header>
<div id="aod-background" class="a-section a-spacing-none aod-darken-background">
<div id="all-offers-display" class="a-section a-spacing-none aod-visible"><div id="all-offers-display-scroller" class="a-section a-spacing-none">
<div id="aod-container" class="a-section a-spacing-none" data-asin="${a}">
<div id="aod-close" class="a-section a-spacing-none"><span class="a-button a-button-base"><span class="a-button-inner"><i class="a-icon a-icon-close"></i></span></span></div>
${asinBlock(a, title, listing.pinned)}
<div id="aod-pinned-offer" class="a-section a-spacing-none aod-clear-float aod-pinned-offer">
${offerBody(a, listing.pinned, 0)}
</div>
<div id="aod-filter-string" class="a-section a-spacing-none"><span id="aod-filter-offer-count-string" class="a-size-base a-color-base">${total} options</span></div>
<div id="aod-offer-list" class="a-section a-spacing-none" role="list">
<input type="hidden" id="aod-total-offer-count" name="aod-total-offer-count" value="${total}">
${rows}
</div>
<div id="aod-end-of-results" class="a-section a-spacing-none a-padding-base aod-clear-float"><span class="a-size-base a-color-secondary">End of results</span></div>
</div>
</div></div>
</div>
</div>
</body></html>
`);
}
