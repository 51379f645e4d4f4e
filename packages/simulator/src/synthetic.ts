/**
 * Built-in pages for when no fixtures folder exists (e.g. a checkout without ../shared/fixtures/amazon next to it).
 * They carry the same ids and classes as real 2022+ Amazon pages, so the real parsers run
 * against them, and are deterministic: everything variable derives from a hash of the ASIN or
 * keyword, so the same request always gets the same bytes.
 */
import { keywordSlugs } from './keyword-slug';
import { marketplaceOrigin } from './marketplace-hosts';
import { fnv1a } from './prng';

const BRANDS = ['Acme', 'Zentro', 'Northwind', 'Globex', 'Voltura', 'Kestrel', 'Lumora', 'Brightline'];
const ADJECTIVES = ['Portable', 'Compact', 'Wireless', 'Heavy-Duty', 'Foldable', 'Rechargeable', 'Stainless', 'Ultra-Slim'];
const NOUNS = ['Power Bank', 'Desk Lamp', 'Water Bottle', 'Bluetooth Speaker', 'Backpack', 'Kitchen Scale', 'Phone Stand', 'Travel Mug'];
const VARIANTS = ['2-Pack', 'Black', 'Large', 'with USB-C', 'Upgraded 2024', 'Grey', 'Mini', 'Pro'];
/** Synthetic pages are amazon.com pages: their links point there, not at the simulator. */
const US = marketplaceOrigin('US');

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function pick<T>(list: readonly T[], hash: number, salt: number): T {
  return list[(hash >>> salt) % list.length]!; // a non-empty list and an index modulo its length
}

/** A 10-char ASIN-shaped id ("B0" + 8 base-36 chars) derived from `seed`. */
export function syntheticAsin(seed: string): string {
  const a = fnv1a(seed).toString(36).padStart(7, '0');
  const b = fnv1a(`${seed}\u0000`).toString(36).padStart(7, '0');
  return `B0${(a + b).slice(-8).toUpperCase()}`;
}

function imageId(seed: string): string {
  return (fnv1a(seed).toString(36) + fnv1a(`${seed}img`).toString(36)).slice(0, 11).padEnd(11, 'x');
}

/** Product detail page for `asin`: title, byline, price $19.99, 4.5 stars, 1,234 ratings, In Stock. */
export function syntheticDetailsPage(asin: string): Buffer {
  const h = fnv1a(asin);
  const a = escapeHtml(asin);
  const title = escapeHtml(`Acme ${pick(ADJECTIVES, h, 0)} ${pick(NOUNS, h, 5)}, ${pick(VARIANTS, h, 10)} (Model ${asin})`);
  const img = imageId(asin);
  const hires = `https://m.media-amazon.com/images/I/61${img}._AC_SL1500_.jpg`;
  const small = `https://m.media-amazon.com/images/I/41${img}._AC_SX300_SY300_.jpg`;
  const slug = title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return Buffer.from(`<!doctype html>
<html lang="en-us" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>Amazon.com: ${title}</title>
<link rel="canonical" href="https://www.amazon.com/${slug}/dp/${a}" />
</head>
<body class="a-m-us a-aui_72554-c">
<div id="a-page"><div id="dp" class="electronics en_US"><div id="dp-container" class="a-container" role="main">
<div id="wayfinding-breadcrumbs_feature_div" class="celwidget"><ul class="a-unordered-list a-horizontal a-size-small">
<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="${US}/electronics-store/b/ref=dp_bc_aui_C_1?ie=UTF8&amp;node=172282">Electronics</a></span></li>
<li class="a-breadcrumb-divider"><span class="a-list-item a-color-tertiary">›</span></li>
<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="${US}/b/ref=dp_bc_aui_C_2?ie=UTF8&amp;node=2407755011">Portable Power Banks</a></span></li>
</ul></div>
<div id="ppd">
<div id="leftCol" class="a-column"><div id="imageBlock_feature_div"><div id="main-image-container"><div class="imgTagWrapper" id="imgTagWrapperId">
<img alt="${title}" src="${small}" data-old-hires="${hires}" id="landingImage" class="a-dynamic-image" data-a-dynamic-image="{&quot;${hires}&quot;:[1500,1500],&quot;${small}&quot;:[300,300]}">
</div></div></div></div>
<div id="centerCol" class="centerColAlign">
<div id="title_feature_div"><h1 id="title" class="a-size-large a-spacing-none"><span id="productTitle" class="a-size-large product-title-word-break">        ${title}       </span></h1></div>
<div id="bylineInfo_feature_div"><a id="bylineInfo" class="a-link-normal" href="${US}/stores/Acme/page/6F2A1C0E-0000-4000-8000-000000000000?ref_=ast_bln">Visit the Acme Store</a></div>
<div id="averageCustomerReviews_feature_div"><div id="averageCustomerReviews" data-asin="${a}">
<span id="acrPopover" class="reviewCountTextLinkedHistogram noUnderline" title="4.5 out of 5 stars"><span class="a-declarative"><a href="javascript:void(0)" class="a-popover-trigger a-declarative"><span class="a-size-base a-color-base">4.5</span> <i class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">4.5 out of 5 stars</span></i></a></span></span>
<a id="acrCustomerReviewLink" class="a-link-normal" href="#customerReviews"><span id="acrCustomerReviewText" class="a-size-base">1,234 ratings</span></a>
</div></div>
<div id="corePrice_feature_div" class="celwidget"><div class="a-section a-spacing-micro">
<span class="a-price aok-align-center" data-a-size="xl" data-a-color="base"><span class="a-offscreen">$19.99</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">19<span class="a-price-decimal">.</span></span><span class="a-price-fraction">99</span></span></span>
</div></div>
<div id="feature-bullets" class="a-section a-spacing-medium a-spacing-top-small"><ul class="a-unordered-list a-vertical a-spacing-mini">
<li><span class="a-list-item"> Durable build: tested for 10,000 cycles and backed by an 18-month warranty. </span></li>
<li><span class="a-list-item"> Compact design that fits in a bag or a pocket; weighs only 180 g. </span></li>
<li><span class="a-list-item"> What you get: the ${escapeHtml(pick(NOUNS, h, 5).toLowerCase())}, a USB-C cable and a quick start guide. </span></li>
</ul></div>
</div>
<div id="rightCol"><div id="buybox"><div id="availability" class="a-section a-spacing-base"><span class="a-size-medium a-color-success"> In Stock </span></div>
<form method="post" id="addToCart" action="/gp/product/handle-buy-box/ref=dp_start-bbf_1_glance"><input type="hidden" id="ASIN" name="ASIN" value="${a}"></form>
</div></div>
</div>
</div></div></div>
</body></html>
`);
}

interface Card {
  asin: string;
  title: string;
  price: string;
  sponsored: boolean;
}

function searchCard(card: Card, index: number): string {
  const a = escapeHtml(card.asin);
  const title = escapeHtml(card.title);
  const [whole, fraction] = card.price.split('.');
  const sponsored = card.sponsored
    ? `<div class="a-row a-spacing-micro"><span class="a-declarative"><span class="puis-label-popover-default"><span class="a-color-secondary">Sponsored</span></span></span></div>`
    : '';
  return `<div data-asin="${a}" data-index="${index + 2}" data-component-type="s-search-result" class="sg-col-4-of-24 sg-col-4-of-12 s-result-item s-asin sg-col-4-of-16 sg-col s-widget-spacing-small sg-col-4-of-20${card.sponsored ? ' AdHolder' : ''}">
<div class="sg-col-inner"><div class="s-card-container s-overflow-hidden aok-relative puis-include-content-margin"><div class="a-section a-spacing-base">
<div class="s-product-image-container aok-relative"><span class="rush-component"><a class="a-link-normal s-no-outline" href="${US}/dp/${a}"><div class="a-section aok-relative s-image-square-aspect"><img class="s-image" src="https://m.media-amazon.com/images/I/71${imageId(card.asin)}._AC_UL320_.jpg" alt="${title}"></div></a></span></div>
<div class="a-section a-spacing-small puis-padding-left-small puis-padding-right-small">
${sponsored}<div data-cy="title-recipe" class="a-section a-spacing-none"><h2 class="a-size-mini a-spacing-none a-color-base s-line-clamp-4"><a class="a-link-normal s-underline-text s-underline-link-text s-link-style a-text-normal" href="${US}/dp/${a}"><span class="a-size-base-plus a-color-base a-text-normal">${title}</span></a></h2></div>
<div data-cy="reviews-block" class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-small"><span aria-label="4.3 out of 5 stars"><span class="a-declarative"><a href="javascript:void(0)" class="a-popover-trigger a-declarative"><i class="a-icon a-icon-star-small a-star-small-4-5 aok-align-bottom"><span class="a-icon-alt">4.3 out of 5 stars</span></i></a></span></span><span aria-label="512 ratings"><a class="a-link-normal s-underline-text s-underline-link-text s-link-style" href="${US}/dp/${a}#customerReviews"><span class="a-size-base s-underline-text">(512)</span></a></span></div></div>
<div data-cy="price-recipe" class="a-section a-spacing-none a-spacing-top-small"><a class="a-link-normal s-no-hover s-underline-text s-underline-link-text s-link-style a-text-normal" href="${US}/dp/${a}"><span class="a-price" data-a-size="xl" data-a-color="base"><span class="a-offscreen">$${card.price}</span><span aria-hidden="true"><span class="a-price-symbol">$</span><span class="a-price-whole">${whole}<span class="a-price-decimal">.</span></span><span class="a-price-fraction">${fraction}</span></span></span></a></div>
</div></div></div></div></div>
`;
}

function cardSeed(keyword: string, page: number, index: number): string {
  const key = keywordSlugs(keyword)[0] ?? '';
  // Page 1 keeps the seed it had before result pages were numbered, so stored expectations hold.
  return page <= 1 ? `${key}#${index}` : `${key}#p${page}#${index}`;
}

/**
 * ASIN of result card `index` (0-based) on result page `page` of a search for `keyword`:
 * stable per keyword (case and spacing aside) and page, different across keywords. Shared by
 * the synthetic search page and the fixture-based search template.
 */
export function searchCardAsin(keyword: string, page: number, index: number): string {
  return syntheticAsin(cardSeed(keyword, page, index));
}

/** Title of that card; it names the keyword, as real results for a query mostly do. */
export function searchCardTitle(keyword: string, page: number, index: number): string {
  const h = fnv1a(cardSeed(keyword, page, index));
  const shown = keyword.trim().replace(/\s+/g, ' ');
  return `${pick(BRANDS, h, 15)} ${shown}, ${pick(ADJECTIVES, h, 0)} ${pick(VARIANTS, h, 10)}, Model ${1000 + (h % 9000)}`;
}

/** The 10 cards of the synthetic search page for `keyword`; cards 1 and 6 are sponsored. */
export function syntheticSearchCards(keyword: string, page = 1): Card[] {
  const cards: Card[] = [];
  for (let i = 0; i < 10; i++) {
    const h = fnv1a(cardSeed(keyword, page, i));
    cards.push({
      asin: searchCardAsin(keyword, page, i),
      title: searchCardTitle(keyword, page, i),
      price: `${9 + (h % 90)}.99`,
      sponsored: i === 0 || i === 5,
    });
  }
  return cards;
}

/** Search result page `page` for `keyword` in the 2019+ card layout (10 results, 2 sponsored). */
export function syntheticSearchPage(keyword: string, page = 1, last = false): Buffer {
  const shown = escapeHtml(keyword.trim().replace(/\s+/g, ' '));
  const cards = syntheticSearchCards(keyword, page).map(searchCard).join('');
  // The 2019+ pagination's Next control: a link, or a disabled span on the last page.
  const next = last
    ? '<span aria-disabled="true" class="s-pagination-item s-pagination-next s-pagination-disabled">Next</span>'
    : `<a class="s-pagination-item s-pagination-next s-pagination-button s-pagination-separator" href="${US}/s?k=${encodeURIComponent(keyword.trim()).replace(/%20/g, '+')}&amp;page=${page + 1}" role="button">Next</a>`;
  return Buffer.from(`<!doctype html>
<html lang="en-us" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>Amazon.com : ${shown}</title>
</head>
<body class="a-m-us a-aui_72554-c">
<div id="a-page">
<form class="nav-searchbar" role="search" action="/s" method="GET"><input type="text" id="twotabsearchtextbox" value="${shown}" name="field-keywords"></form>
<div id="search"><div class="s-desktop-width-max s-desktop-content s-opposite-dir sg-row">
<div class="sg-col-20-of-24 s-matching-dir sg-col-16-of-20 sg-col sg-col-8-of-12 sg-col-12-of-16"><div class="sg-col-inner">
<span class="rush-component s-latency-cf-section"><div class="s-main-slot s-result-list s-search-results sg-row">
<div class="s-result-item s-widget sg-col-0-of-12 sg-col-16-of-20 s-widget-spacing-small sg-col sg-col-12-of-16" data-component-type="s-result-info-bar"><div class="sg-col-inner"><span>1-10 of over 1,000 results for</span> <span class="a-color-state a-text-bold">"${shown}"</span></div></div>
${cards}</div></span>
<div class="s-pagination-container" role="navigation"><span class="s-pagination-strip">${next}</span></div>
</div></div>
</div></div>
</div>
</body></html>
`);
}
