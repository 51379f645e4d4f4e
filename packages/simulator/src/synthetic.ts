/**
 * Built-in pages for when no fixtures folder exists (e.g. a checkout without ../shared/fixtures/amazon next to it).
 * They carry the same ids and classes as real 2022+ Amazon pages, so the real parsers run
 * against them, and are deterministic: everything variable derives from a hash of the ASIN or
 * keyword, so the same request always gets the same bytes.
 */
import { detailsPage, priceSpan, starClass } from './details-page';
import { escapeHtml } from './html';
import { keywordSlugs } from './keyword-slug';
import { marketLocale, type MarketLocale } from './locale';
import { factsAt, knownFacts, priceAt, productFacts } from './product-facts';
import { navBelt } from './delivery-location';
import { fnv1a } from './prng';

const BRANDS = ['Acme', 'Zentro', 'Northwind', 'Globex', 'Voltura', 'Kestrel', 'Lumora', 'Brightline'];
const ADJECTIVES = ['Portable', 'Compact', 'Wireless', 'Heavy-Duty', 'Foldable', 'Rechargeable', 'Stainless', 'Ultra-Slim'];
const NOUNS = ['Power Bank', 'Desk Lamp', 'Water Bottle', 'Bluetooth Speaker', 'Backpack', 'Kitchen Scale', 'Phone Stand', 'Travel Mug'];
const VARIANTS = ['2-Pack', 'Black', 'Large', 'with USB-C', 'Upgraded 2024', 'Grey', 'Mini', 'Pro'];

export { escapeHtml };

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

/** The synthetic product page's title: the same for an ASIN whatever its other values. */
function knownTitle(asin: string): string {
  const h = fnv1a(asin);
  return `Acme ${pick(ADJECTIVES, h, 0)} ${pick(NOUNS, h, 5)}, ${pick(VARIANTS, h, 10)} (Model ${asin})`;
}

/**
 * Product detail page for `asin` with the known values of the synthetic pages: title, byline,
 * price $19.99, 4.5 stars, 1,234 ratings, In Stock (see knownFacts).
 */
export function syntheticDetailsPage(asin: string): Buffer {
  return detailsPage(knownFacts(asin, knownTitle(asin)), marketLocale('US'));
}

/**
 * The built-in product page of `asin` as `variant` draws it: known values, or the product's own
 * facts (product-facts.ts) at its drift epoch. A known-values page that drifts keeps its title,
 * so only what changes between crawls on Amazon changes.
 */
export function generatedDetailsPage(asin: string, variant: PageVariant): Buffer {
  const { locale, postalCode = null } = variant;
  if (variant.varied) return detailsPage(factsAt(productFacts(asin, locale, variant.epoch), locale, postalCode), locale);
  const title = knownTitle(asin);
  const facts = variant.epoch > 0 ? { ...productFacts(asin, locale, variant.epoch), title, brand: 'Acme' } : knownFacts(asin, title);
  return detailsPage(factsAt(facts, locale, postalCode), locale);
}

export interface SearchCard {
  asin: string;
  title: string;
  /** In the marketplace's minor units. */
  priceMinor: number;
  rating: number;
  ratingsCount: number;
  sponsored: boolean;
}

/** How a generated page is drawn: the marketplace, and known values or the product's own (drift epoch `epoch`). */
export interface PageVariant {
  locale: MarketLocale;
  /** false: the known values of the synthetic pages (see knownFacts). */
  varied: boolean;
  epoch: number;
  /** Where the shopper is (delivery-location.ts): prices and deliveries are those of that place; absent or null, the marketplace's default place. */
  postalCode?: string | null;
}

export const KNOWN_US: PageVariant = { locale: marketLocale('US'), varied: false, epoch: 0 };

function searchCard(card: SearchCard, index: number, locale: MarketLocale): string {
  const a = escapeHtml(card.asin);
  const title = escapeHtml(card.title);
  const origin = locale.origin;
  const stars = escapeHtml(locale.texts.outOf5(locale.ratingText(card.rating)));
  const count = locale.countText(card.ratingsCount);
  const sponsored = card.sponsored
    ? `<div class="a-row a-spacing-micro"><span class="a-declarative"><span class="puis-label-popover-default"><span class="a-color-secondary">Sponsored</span></span></span></div>`
    : '';
  return `<div data-asin="${a}" data-index="${index + 2}" data-component-type="s-search-result" class="sg-col-4-of-24 sg-col-4-of-12 s-result-item s-asin sg-col-4-of-16 sg-col s-widget-spacing-small sg-col-4-of-20${card.sponsored ? ' AdHolder' : ''}">
<div class="sg-col-inner"><div class="s-card-container s-overflow-hidden aok-relative puis-include-content-margin"><div class="a-section a-spacing-base">
<div class="s-product-image-container aok-relative"><span class="rush-component"><a class="a-link-normal s-no-outline" href="${origin}/dp/${a}"><div class="a-section aok-relative s-image-square-aspect"><img class="s-image" src="https://m.media-amazon.com/images/I/71${imageId(card.asin)}._AC_UL320_.jpg" alt="${title}"></div></a></span></div>
<div class="a-section a-spacing-small puis-padding-left-small puis-padding-right-small">
${sponsored}<div data-cy="title-recipe" class="a-section a-spacing-none"><h2 class="a-size-mini a-spacing-none a-color-base s-line-clamp-4"><a class="a-link-normal s-underline-text s-underline-link-text s-link-style a-text-normal" href="${origin}/dp/${a}"><span class="a-size-base-plus a-color-base a-text-normal">${title}</span></a></h2></div>
<div data-cy="reviews-block" class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-small"><span aria-label="${stars}"><span class="a-declarative"><a href="javascript:void(0)" class="a-popover-trigger a-declarative"><i class="a-icon a-icon-star-small a-star-small-${starClass(card.rating)} aok-align-bottom"><span class="a-icon-alt">${stars}</span></i></a></span></span><span aria-label="${escapeHtml(locale.texts.ratings(count))}"><a class="a-link-normal s-underline-text s-underline-link-text s-link-style" href="${origin}/dp/${a}#customerReviews"><span class="a-size-base s-underline-text">(${count})</span></a></span></div></div>
<div data-cy="price-recipe" class="a-section a-spacing-none a-spacing-top-small"><a class="a-link-normal s-no-hover s-underline-text s-underline-link-text s-link-style a-text-normal" href="${origin}/dp/${a}">${priceSpan(locale.price(card.priceMinor))}</a></div>
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

/**
 * The 10 cards of result page `page` for `keyword`; cards 1 and 6 are sponsored. Known values:
 * $9.99-$98.99, 4.3 stars, 512 ratings; varied: each card's product's own price, rating and count
 * (product-facts.ts, as its product page shows them).
 */
export function syntheticSearchCards(keyword: string, page = 1, variant: PageVariant = KNOWN_US): SearchCard[] {
  const cards: SearchCard[] = [];
  for (let i = 0; i < 10; i++) {
    const h = fnv1a(cardSeed(keyword, page, i));
    const asin = searchCardAsin(keyword, page, i);
    const facts = variant.varied ? productFacts(asin, variant.locale, variant.epoch) : null;
    cards.push({
      asin,
      title: searchCardTitle(keyword, page, i),
      priceMinor: priceAt(facts?.priceMinor ?? (9 + (h % 90)) * 100 + 99, asin, variant.postalCode ?? null),
      rating: facts?.rating ?? 4.3,
      ratingsCount: facts?.ratingsCount ?? 512,
      sponsored: i === 0 || i === 5,
    });
  }
  return cards;
}

/** Search result page `page` for `keyword` in the 2019+ card layout (10 results, 2 sponsored). */
export function syntheticSearchPage(keyword: string, page = 1, last = false, variant: PageVariant = KNOWN_US): Buffer {
  const { locale } = variant;
  const shown = escapeHtml(keyword.trim().replace(/\s+/g, ' '));
  const cards = syntheticSearchCards(keyword, page, variant)
    .map((card, i) => searchCard(card, i, locale))
    .join('');
  // The 2019+ pagination's Next control: a link, or a disabled span on the last page.
  const next = last
    ? '<span aria-disabled="true" class="s-pagination-item s-pagination-next s-pagination-disabled">Next</span>'
    : `<a class="s-pagination-item s-pagination-next s-pagination-button s-pagination-separator" href="${locale.origin}/s?k=${encodeURIComponent(keyword.trim()).replace(/%20/g, '+')}&amp;page=${page + 1}" role="button">Next</a>`;
  return Buffer.from(`<!doctype html>
<html lang="${locale.htmlLang}" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>${escapeHtml(locale.siteName)} : ${shown}</title>
</head>
<body class="a-m-${locale.code.toLowerCase()} a-aui_72554-c">
<div id="a-page">${navBelt(locale)}
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
