/**
 * The built-in product page (`/dp/{ASIN}`) in the 2022+ layout, with the ids and classes the
 * details parser reads: #productTitle, #bylineInfo, #acrPopover and #acrCustomerReviewText,
 * #corePrice_feature_div's `.a-price` (hidden `.a-offscreen` text plus whole/decimal/fraction
 * spans), #availability, the offer-display "Ships from" / "Sold by" rows and input#ASIN. Texts,
 * the price and dates are in the marketplace's language and format (locale.ts).
 */
import type { MarketLocale, PriceParts } from './locale';
import { deliveryDateText, productCategory, type Delivery, type ProductFacts } from './product-facts';
import { navBelt } from './delivery-location';
import { sellerId } from './aod-offer-data';
import { fnv1a } from './prng';
import { escapeHtml } from './html';

function imageId(seed: string): string {
  return (fnv1a(seed).toString(36) + fnv1a(`${seed}img`).toString(36)).slice(0, 11).padEnd(11, 'x');
}

/** Amazon's `.a-price` block: the whole text for screen readers, then the visible parts. */
export function priceSpan(p: PriceParts, size = 'xl', extraClass = ''): string {
  const symbol = `<span class="a-price-symbol">${escapeHtml(p.symbol)}</span>`;
  const decimal = p.decimal ? `<span class="a-price-decimal">${escapeHtml(p.decimal)}</span>` : '';
  const fraction = p.fraction ? `<span class="a-price-fraction">${p.fraction}</span>` : '';
  const visible = `<span class="a-price-whole">${escapeHtml(p.whole)}${decimal}</span>${fraction}`;
  return `<span class="a-price${extraClass}" data-a-size="${size}" data-a-color="base"><span class="a-offscreen">${escapeHtml(p.text)}</span><span aria-hidden="true">${p.symbolFirst ? symbol + visible : visible + symbol}</span></span>`;
}

/** "a-star-4-5" for 4.5 (the icon rounds to halves), "a-star-4" for 4.2. */
export function starClass(rating: number): string {
  const halves = Math.round(rating * 2) / 2;
  return Number.isInteger(halves) ? `${halves}` : `${Math.floor(halves)}-5`;
}

function availability(facts: ProductFacts, locale: MarketLocale): string {
  const t = locale.texts;
  if (facts.stock.kind === 'out')
    return `<div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-price"> ${escapeHtml(t.unavailable)} </span></div>`;
  if (facts.stock.kind === 'few')
    return `<div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-price"> ${escapeHtml(t.onlyLeft(facts.stock.left))} </span></div>`;
  return `<div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-success"> ${escapeHtml(t.inStock)} </span></div>`;
}

/** The buy box's sellers: Amazon's retail offer for about half of the products, else the brand's own store, shipped by Amazon. */
function parties(facts: ProductFacts, locale: MarketLocale): string {
  const amazon = fnv1a(`${facts.asin}#seller`) % 2 === 0;
  const seller = amazon ? locale.amazonSeller : { name: `${facts.brand} Direct`, id: sellerId(`${facts.brand} Direct`) };
  const href = `${locale.origin}/gp/help/seller/at-a-glance.html/ref=dp_merchant_link?ie=UTF8&amp;seller=${seller.id}&amp;asin=${facts.asin}`;
  const label = (text: string) =>
    `<div class="offer-display-feature-label"><span class="a-size-small a-color-tertiary">${escapeHtml(text)}</span></div>`;
  return `<div id="fulfillerInfoFeature_feature_div" class="celwidget">${label(locale.texts.shipsFrom)}<div class="offer-display-feature-text"><span class="a-size-small offer-display-feature-text-message">${escapeHtml(locale.amazonSeller.name)}</span></div></div>
<div id="merchantInfoFeature_feature_div" class="celwidget">${label(locale.texts.soldBy)}<div class="offer-display-feature-text"><a id="sellerProfileTriggerId" class="a-size-small a-link-normal offer-display-feature-text-message" href="${href}">${escapeHtml(seller.name)}</a></div></div>`;
}

/**
 * A delivery as the buy box's message says it: the charge as its data attribute holds it ("FREE",
 * "GRATIS" or a price), the dates, and the words before the dates ("FREE Shipping", "+ $5.49 shipping").
 */
export function deliveryTexts(delivery: Delivery, locale: MarketLocale): { charge: string; date: string; words: string } {
  const t = locale.texts;
  const charge =
    delivery.chargeMinor === 0
      ? (t.freeShipping.split(' ').find((w) => w === w.toUpperCase()) ?? t.freeShipping)
      : locale.price(delivery.chargeMinor).text;
  return {
    charge,
    date: deliveryDateText(delivery, locale),
    words: delivery.chargeMinor === 0 ? t.freeShipping : t.shippingCharge(charge),
  };
}

/**
 * The buy box's primary delivery message in the 2023+ markup: the DEXUnifiedCXPDM span of the
 * delivery block, with the charge and the dates as data (what the parsers read first) and as text.
 */
function deliveryBlock(delivery: Delivery, locale: MarketLocale): string {
  const { charge, date, words } = deliveryTexts(delivery, locale);
  return `<div id="deliveryBlock_feature_div" class="celwidget"><div id="mir-layout-DELIVERY_BLOCK" class="a-spacing-base"><div id="mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE" class="a-spacing-base"><span data-csa-c-type="element" data-csa-c-content-id="DEXUnifiedCXPDM" data-csa-c-delivery-price="${escapeHtml(charge)}" data-csa-c-value-proposition="" data-csa-c-delivery-type="delivery" data-csa-c-delivery-time="${escapeHtml(date)}" data-csa-c-delivery-destination="" data-csa-c-delivery-condition="" data-csa-c-mir-view="CONSOLIDATED_CX" data-csa-c-mir-type="DELIVERY" data-csa-c-mir-variant="DEFAULT">${escapeHtml(words)} <span class="a-text-bold">${escapeHtml(date)}</span></span></div></div></div>`;
}

/**
 * The product page of `asin` with `facts` on the marketplace of `locale`; no price and no sellers
 * when it is unavailable, and the buy box's delivery message when `facts` say it (factsAt).
 */
export function detailsPage(facts: ProductFacts & { delivery?: Delivery }, locale: MarketLocale): Buffer {
  const { asin } = facts;
  const origin = locale.origin;
  const a = escapeHtml(asin);
  const title = escapeHtml(facts.title);
  const img = imageId(asin);
  const hires = `https://m.media-amazon.com/images/I/61${img}._AC_SL1500_.jpg`;
  const small = `https://m.media-amazon.com/images/I/41${img}._AC_SX300_SY300_.jpg`;
  const slug = facts.title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const rating = locale.ratingText(facts.rating);
  const stars = escapeHtml(locale.texts.outOf5(rating));
  const category = escapeHtml(productCategory(asin));
  const offered = facts.stock.kind !== 'out';
  const price = offered
    ? `<div id="corePrice_feature_div" class="celwidget"><div class="a-section a-spacing-micro">
${priceSpan(locale.price(facts.priceMinor), 'xl', ' aok-align-center')}
</div></div>`
    : '';
  const noun = facts.title.split(',')[0]!.split(' ').slice(-2).join(' ').toLowerCase();
  return Buffer.from(`<!doctype html>
<html lang="${locale.htmlLang}" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>${escapeHtml(locale.siteName)}: ${title}</title>
<link rel="canonical" href="${origin}/${slug}/dp/${a}" />
</head>
<body class="a-m-${locale.code.toLowerCase()} a-aui_72554-c">
<div id="a-page">${navBelt(locale)}<div id="dp" class="electronics ${locale.intl.replace('-', '_')}"><div id="dp-container" class="a-container" role="main">
<div id="wayfinding-breadcrumbs_feature_div" class="celwidget"><ul class="a-unordered-list a-horizontal a-size-small">
<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="${origin}/b/ref=dp_bc_aui_C_1?ie=UTF8&amp;node=${1000 + (fnv1a(category) % 9000)}">${category}</a></span></li>
<li class="a-breadcrumb-divider"><span class="a-list-item a-color-tertiary">›</span></li>
<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="${origin}/b/ref=dp_bc_aui_C_2?ie=UTF8&amp;node=${2407755011 + (fnv1a(noun) % 1000)}">${escapeHtml(noun)}</a></span></li>
</ul></div>
<div id="ppd">
<div id="leftCol" class="a-column"><div id="imageBlock_feature_div"><div id="main-image-container"><div class="imgTagWrapper" id="imgTagWrapperId">
<img alt="${title}" src="${small}" data-old-hires="${hires}" id="landingImage" class="a-dynamic-image" data-a-dynamic-image="{&quot;${hires}&quot;:[1500,1500],&quot;${small}&quot;:[300,300]}">
</div></div></div></div>
<div id="centerCol" class="centerColAlign">
<div id="title_feature_div"><h1 id="title" class="a-size-large a-spacing-none"><span id="productTitle" class="a-size-large product-title-word-break">        ${title}       </span></h1></div>
<div id="bylineInfo_feature_div"><a id="bylineInfo" class="a-link-normal" href="${origin}/stores/${escapeHtml(facts.brand)}/page/6F2A1C0E-0000-4000-8000-000000000000?ref_=ast_bln">Visit the ${escapeHtml(facts.brand)} Store</a></div>
<div id="averageCustomerReviews_feature_div"><div id="averageCustomerReviews" data-asin="${a}">
<span id="acrPopover" class="reviewCountTextLinkedHistogram noUnderline" title="${stars}"><span class="a-declarative"><a href="javascript:void(0)" class="a-popover-trigger a-declarative"><span class="a-size-base a-color-base">${rating}</span> <i class="a-icon a-icon-star a-star-${starClass(facts.rating)}"><span class="a-icon-alt">${stars}</span></i></a></span></span>
<a id="acrCustomerReviewLink" class="a-link-normal" href="#customerReviews"><span id="acrCustomerReviewText" class="a-size-base">${escapeHtml(locale.texts.ratings(locale.countText(facts.ratingsCount)))}</span></a>
</div></div>
${price}
<div id="feature-bullets" class="a-section a-spacing-medium a-spacing-top-small"><ul class="a-unordered-list a-vertical a-spacing-mini">
<li><span class="a-list-item"> Durable build: tested for 10,000 cycles and backed by an 18-month warranty. </span></li>
<li><span class="a-list-item"> Compact design that fits in a bag or a pocket; weighs only 180 g. </span></li>
<li><span class="a-list-item"> What you get: the ${escapeHtml(noun)}, a USB-C cable and a quick start guide. </span></li>
</ul></div>
</div>
<div id="rightCol"><div id="buybox">${offered && facts.delivery ? deliveryBlock(facts.delivery, locale) : ''}
${availability(facts, locale)}
${offered ? parties(facts, locale) : ''}
<form method="post" id="addToCart" action="/gp/product/handle-buy-box/ref=dp_start-bbf_1_glance"><input type="hidden" id="ASIN" name="ASIN" value="${a}"></form>
</div></div>
</div>
</div></div></div>
</body></html>
`);
}
