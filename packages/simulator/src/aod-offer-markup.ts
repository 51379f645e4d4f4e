/**
 * One offer of the All Offers Display panel, in the markup of a real 2021 panel (amazon.com):
 * the ids, classes and nesting of its #aod-pinned-offer and #aod-offer blocks (heading, the
 * numbered #aod-price-N, the "+ $N shipping" line, the fast-track delivery promise with its
 * hidden ASIN and merchant inputs, the add-to-cart form, the Ships from / Sold by grids, the
 * seller rating). Amazon's own offer names its seller without a link, as the real panel does.
 */
import type { AodOffer } from './aod-offer-data';
import { priceSpan } from './details-page';
import { escapeHtml } from './html';
import { marketLocale, type MarketLocale } from './locale';
import { fnv1a } from './prng';

const US = marketLocale('US');

/** 1234 -> '$12.34', 123456 -> '$1,234.56'. */
export function usd(cents: number): string {
  const whole = Math.floor(cents / 100).toLocaleString('en-US');
  return `$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** A number the panel draws per page load (its session id): stable per ASIN here. */
const sessionId = (asin: string): string => {
  const h = String(fnv1a(`${asin}#session`)).padStart(10, '0');
  return `144-${h.slice(0, 7)}-${h.slice(3, 10)}`;
};

/** The panel's fixed-left grid: a 165px column (label, price, product image), then the rest. */
export function leftGrid(
  left: string,
  right: string,
  cols: { grid?: string; left?: string; leftId?: string; rightId?: string } = {},
): string {
  const id = (value: string | undefined) => (value ? ` id="${value}"` : '');
  const leftClass = cols.left ?? 'a-fixed-left-grid-col a-col-left';
  const rightClass = cols.rightId ? 'a-fixed-left-grid-col pinned-offer-block a-col-right' : 'a-fixed-left-grid-col a-col-right';
  return `<div class="a-fixed-left-grid${cols.grid ? ` ${cols.grid}` : ''}"><div class="a-fixed-left-grid-inner" style="padding-left:165px">
<div${id(cols.leftId)} class="${leftClass}" style="width:165px;margin-left:-165px;float:left;">
${left}
</div>
<div${id(cols.rightId)} class="${rightClass}" style="padding-left:0%;float:left;">
${right}
</div>
</div></div>`;
}

/** The offer's price, numbered across the panel's pages (the pinned offer is 0). */
function priceBlock(cents: number, index: number, locale: MarketLocale): string {
  return `<div id="aod-price-${index}" class="a-section a-spacing-none a-padding-none">
${priceSpan(locale.price(cents), 'l')}
</div>`;
}

export function heading(condition: string): string {
  return `<div id="aod-offer-heading" class="a-section a-spacing-none a-padding-none aod-clear-float">
<h5>
${escapeHtml(condition)}
</h5>
</div>`;
}

/** The charge line under the price ("+ $5.49 shipping"), or the charge row saying it is free. */
function shippingLine(o: AodOffer, locale: MarketLocale): string {
  if (o.shippingCents === 0)
    return `<div class="a-row aod-ship-charge"><span class="a-size-base a-color-base">${escapeHtml(locale.texts.freeShipping)}</span></div>`;
  return `<span class="a-size-base a-color-base">
    <span class="a-color-secondary a-size-base">${escapeHtml(locale.texts.shippingCharge(locale.price(o.shippingCents).text))}</span>
</span>`;
}

/** The delivery promise; the fast-track block names the product and the offer's merchant. */
function deliveryPromise(asin: string, o: AodOffer, index: number, locale: MarketLocale): string {
  const data = ['delivery', 'upsell', 'amazon-day']
    .map(
      (kind) =>
        `<input type="hidden" name="" class="aod-${kind}-message-data" data-messageid="aod-${kind}-message-${index}" data-secondsleft="0">`,
    )
    .join('\n');
  return `<div class="a-row aod-delivery-promise">
<div class="a-column a-span12 aod-delivery-promise-column">
<div id="aod-fasttrack-${index}" class="a-section a-spacing-none a-padding-none aod-clear-float aod-fasttrack">
<span class="a-size-base a-color-base">
<div id="fast-track" class="a-section a-spacing-none">
<input type="hidden" id="ftSelectAsin" value="${asin}">
<input type="hidden" id="ftSelectMerchant" value="${o.seller.id}">
<div id="fast-track-message" class="a-section a-spacing-none">
<div id="delivery-message" class="a-section a-spacing-none a-spacing-top-mini aod-delivery-promise-message">
${escapeHtml(locale.texts.arrives)} <b> ${escapeHtml(o.deliveryDate)} </b>
</div>
</div>
</div>
</span>
${data}
</div>
</div>
<span class="a-size-base aod-delivery-more aok-hidden">...
<span class="a-declarative" data-action="aod-delivery-more-action" data-aod-delivery-more-action="{}" id="aod-delivery-more-action">
<a aria-label="More. about shipping" class="a-link-normal aod-delivery-morelink" href="#">More</a>
</span>
</span>
</div>`;
}

function addToCart(asin: string, o: AodOffer, index: number, locale: MarketLocale): string {
  const listingId = (fnv1a(`${asin}#${o.seller.id}#${o.condition}`).toString(36) + fnv1a(`${asin}#${index}`).toString(36)).padEnd(14, '0');
  return `<div class="a-fixed-right-grid-col aod-atc-column a-col-right" style="width:150px;margin-right:-150px;float:left;">
<form method="post" action="/gp/add-to-cart/html/ref=aod_dpdsk_new_${index}" class="aod-atc-form-header-desktop a-spacing-none">
<input type="hidden" name="session-id" value="${sessionId(asin)}">
<input type="hidden" name="signInToHUC" value="0" id="signInToHUC">
<input type="hidden" name="metric-asin.${asin}" value="1">
<input type="hidden" name="itemCount" value="1">
<input type="hidden" name="offeringID.1" value="${listingId}">
<span class="a-declarative" data-action="aod-click-log" data-aod-click-log="{&quot;subtype&quot;:&quot;main&quot;,&quot;type&quot;:&quot;addToCart&quot;}">
<span id="a-autoid-2" class="a-button a-button-primary aod-atc-generic-btn-desktop"><span class="a-button-inner"><input name="submit.addToCart" aria-label="Add to Cart from seller ${escapeHtml(o.seller.name)} and price ${escapeHtml(locale.price(o.priceCents).text)}" class="a-button-input" type="submit"><span id="a-autoid-2-announce" class="a-button-text" aria-hidden="true">
Add to Cart
</span></span></span>
</span>
</form>
</div>`;
}

/** Price, shipping and delivery beside the add-to-cart button (the right half of the offer). */
export function buyColumn(asin: string, o: AodOffer, index: number, top = '', locale: MarketLocale = US): string {
  return `<div class="a-fixed-right-grid"><div class="a-fixed-right-grid-inner" style="padding-right:150px">
<div class="a-fixed-right-grid-col aod-padding-right-10 a-col-left" style="padding-right:0%;float:left;">
${top}<div class="a-row">
</div>
<div id="aod-bottlingDepositFee-${index}" class="a-row">
</div>
${shippingLine(o, locale)}
${deliveryPromise(asin, o, index, locale)}
</div>
${addToCart(asin, o, index, locale)}
</div></div>`;
}

export const pinnedPrice = (o: AodOffer, locale: MarketLocale = US): string => priceBlock(o.priceCents, 0, locale);

/** Seller feedback under a third-party seller's name; the id's `{iter}` is unexpanded on Amazon's page too. */
function sellerRating(o: AodOffer): string {
  const h = fnv1a(o.seller.id);
  const ratings = 50 + (h % 20000);
  const positive = 85 + ((h >>> 16) % 15);
  const stars = positive >= 95 ? '5' : positive >= 90 ? '4-5' : '4';
  return `<div id="aod-offer-seller-rating" class="a-section a-spacing-none a-padding-none">
<i class="a-icon a-icon-star-mini a-star-mini-${stars} aod-seller-rating-count-class"></i>
<span id="seller-rating-count-{iter}" class="a-size-small a-color-base">
<span>(${ratings} ratings)<br>${positive}% positive over last 12 months</span>
</span>
</div>`;
}

function labelled(id: string, label: string, value: string): string {
  const left = `<span class="a-size-small a-color-tertiary">${label}</span>`;
  return `<div id="${id}" class="a-section a-spacing-none a-spacing-top-micro aod-clear-float">
${leftGrid(left, value, { left: 'a-fixed-left-grid-col aod-padding-right-10 a-col-left' })}
</div>`;
}

/** The Ships from / Sold by rows: a merchant-fulfilled offer also says where it ships from. */
export function sellerRows(asin: string, o: AodOffer, index: number, locale: MarketLocale = US): string {
  const name = escapeHtml(o.seller.name);
  const shipsFrom = o.fulfilledByAmazon
    ? `<span class="a-size-small a-color-base">${escapeHtml(locale.amazonSeller.name)}</span>`
    : `<span class="a-size-small a-color-base">${name}</span>
<div class="a-section a-spacing-none a-padding-none">
<span class="a-size-small aod-ships-from-country">
<span>${escapeHtml(`${locale.texts.shipsFrom} ${locale.country.replace(/^the /, '')}.`)}</span>
</span>
</div>`;
  const href = `${locale.origin}/gp/aag/main?ie=UTF8&amp;seller=${o.seller.id}&amp;isAmazonFulfilled=${o.fulfilledByAmazon ? 1 : 0}&amp;asin=${asin}&amp;ref_=olp_merch_name_${index}`;
  const soldBy =
    o.seller.id === locale.amazonSeller.id
      ? `<span aria-label="${name}. Opens a new page" class="a-size-small a-color-base"> ${name} </span>`
      : `<a aria-label="Opens a new page" class="a-size-small a-link-normal" target="_blank" rel="noopener" href="${href}" role="link">
${name}</a>
${sellerRating(o)}`;
  return `${labelled('aod-offer-shipsFrom', escapeHtml(locale.texts.shipsFrom), shipsFrom)}
${labelled('aod-offer-soldBy', escapeHtml(locale.texts.soldBy), soldBy)}`;
}

/** A listed offer (#aod-offer): heading, price grid, then its seller rows under a divider. */
export function listedOffer(asin: string, o: AodOffer, index: number, locale: MarketLocale = US): string {
  return `<div id="aod-offer" class="a-section a-spacing-medium a-spacing-top-base a-padding-none aod-information-block aod-clear-float">
${heading(o.condition)}
<div id="aod-offer-price" class="a-section a-spacing-none a-spacing-top-micro a-padding-none aod-clear-float">
${leftGrid(priceBlock(o.priceCents, index, locale), buyColumn(asin, o, index, '', locale))}
</div>
<div class="a-row aod-clear-float"></div>
<hr class="a-spacing-small a-spacing-top-small a-divider-normal aod-condition-divider">
${sellerRows(asin, o, index, locale)}
<div class="a-section aod-offer-divider aod-clear-float"></div>
</div>
<hr class="a-spacing-none a-divider-normal aod-offer-block-divider">`;
}
