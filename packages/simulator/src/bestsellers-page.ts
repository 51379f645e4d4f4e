/**
 * The built-in best-seller list page (`/zgbs/...`, `/gp/bestsellers/...`, `?pg=2`) in the 2021+
 * grid the best-seller parser reads: the "Best Sellers in <category>" heading, the
 * `data-client-recs-list` data naming every ranked product of the page (ASIN and
 * `render.zg.rank`), #gridItemRoot cards for the first 30 of the page's 50 (as Amazon renders
 * them server-side; the rest load on scroll), each with its `#N` badge, the faceout whose
 * element id is the ASIN, image, line-clamped title, stars with the count of ratings and the
 * price, and the pagination: 2 pages of 50, "Next page" on page 1 only. A list's products derive
 * from its path and page, and each product's facts from its ASIN (product-facts.ts), so a
 * product's card shows what its product page shows.
 */
import { BESTSELLER_LIST_PAGES } from './bestsellers-template';
import { starClass } from './details-page';
import { escapeHtml } from './html';
import type { MarketLocale } from './locale';
import { priceAt, productFacts } from './product-facts';
import { syntheticAsin } from './synthetic';
import { navBelt } from './delivery-location';

export const BESTSELLERS_PER_PAGE = 50;
/** Cards a list page renders server-side; the other ranked products are only in its data. */
export const BESTSELLERS_RENDERED = 30;

/** The list's products of page `page`, rank order: stable per list path and page. */
export function bestsellerAsins(listPath: string, page: number): string[] {
  return Array.from({ length: BESTSELLERS_PER_PAGE }, (_, i) => syntheticAsin(`${listPath}#${page}#${i}`));
}

/** `electronics` -> "Electronics", `home-garden` -> "Home Garden". */
export function categoryName(slug: string): string {
  const words = slug.split(/[-_+\s]+/).filter((w) => w && !/^\d+$/.test(w));
  return words.length ? words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ') : 'Electronics';
}

function card(asin: string, rank: number, locale: MarketLocale, epoch: number, slug: string, postalCode: string | null): string {
  const facts = productFacts(asin, locale, epoch);
  const priceMinor = priceAt(facts.priceMinor, asin, postalCode);
  const title = escapeHtml(facts.title);
  const stars = locale.texts.outOf5(locale.ratingText(facts.rating));
  const count = locale.countText(facts.ratingsCount);
  const href = `${locale.origin}/dp/${asin}/ref=zg_bs_c_${slug}_d_sccl_${rank}/000-0000000-0000000?pd_rd_i=${asin}&amp;psc=1`;
  // A best seller has an offer to show even while the product page is short of stock.
  const price = `<div class="a-row"><a class="a-link-normal a-text-normal" role="link" href="${href}"><span class="a-size-base a-color-price"><span class="_cDEzb_p13n-sc-price_3mJ9Z">${escapeHtml(locale.price(priceMinor).text)}</span></span></a></div>`;
  const image = `https://images-na.ssl-images-amazon.com/images/I/71${asin.slice(2, 9)}L._AC_UL300_SR300,200_.jpg`;
  return `<div id="gridItemRoot" class="a-column a-span12 a-text-center _cDEzb_grid-column_2hIsc"><div class="zg-grid-general-faceout"><div class="p13n-sc-uncoverable-faceout">
<div class="a-section zg-bdg-ctr"><div class="a-section zg-bdg-body zg-bdg-clr-body aok-float-left"><span class="zg-bdg-text">#${rank}</span></div></div>
<div id="${asin}" class="p13n-sc-uncoverable-faceout"><a class="a-link-normal aok-block" tabindex="-1" role="link" href="${href}"><div class="a-section a-spacing-mini _cDEzb_noop_3Xbw5"><img alt="${title}" src="${image}" class="a-dynamic-image p13n-sc-dynamic-image p13n-product-image" height="200" width="200"></div></a>
<div class="zg-grid-general-faceout"><a class="a-link-normal aok-block" role="link" href="${href}"><span><div class="_cDEzb_p13n-sc-css-line-clamp-3_g3dy1">${title}</div></span></a>
<div class="a-icon-row"><a aria-label="${escapeHtml(`${stars}, ${locale.texts.ratings(count)}`)}" class="a-link-normal" role="link" href="${locale.origin}/product-reviews/${asin}/ref=zg_bs_c_${slug}_cr_${rank}"><i class="a-icon a-icon-star-small a-star-small-${starClass(facts.rating)} aok-align-top"><span class="a-icon-alt">${escapeHtml(stars)}</span></i><span class="a-size-small">${count}</span></a></div>
${price}
</div></div>
</div></div></div>`;
}

function pagination(listUrl: string, page: number, locale: MarketLocale): string {
  const t = locale.texts;
  const at = (n: number) => (n === 1 ? listUrl : `${listUrl}?pg=${n}`);
  const previous =
    page > 1
      ? `<li class="a-normal"><a href="${at(page - 1)}">← ${escapeHtml(t.previousPage)}</a></li>`
      : `<li class="a-disabled">← ${escapeHtml(t.previousPage)}</li>`;
  const numbers = Array.from({ length: BESTSELLER_LIST_PAGES }, (_, i) => i + 1)
    .map(
      (n) =>
        `<li class="${n === page ? 'a-selected' : 'a-normal'}"><a href="${at(n)}"${n === page ? ' aria-current="page"' : ''}>${n}</a></li>`,
    )
    .join('');
  const next =
    page < BESTSELLER_LIST_PAGES
      ? `<li class="a-last"><a href="${at(page + 1)}">${escapeHtml(t.nextPage)} →</a></li>`
      : `<li class="a-disabled a-last">${escapeHtml(t.nextPage)} →</li>`;
  return `<ul class="a-pagination">${previous}${numbers}${next}</ul>`;
}

/**
 * Page `page` (1 or 2) of the list at `listPath` (lower-cased, no `/ref=`), whose category slug
 * is `slug`, on the marketplace of `locale`, with its products' facts at drift epoch `epoch`, and
 * their prices at `postalCode` (priceAt; null: the marketplace's default place).
 */
export function bestsellersPage(
  listPath: string,
  slug: string,
  page: number,
  locale: MarketLocale,
  epoch = 0,
  postalCode: string | null = null,
): Buffer {
  const asins = bestsellerAsins(listPath, page);
  const first = (page - 1) * BESTSELLERS_PER_PAGE;
  const recs = asins.map((asin, i) => ({
    id: asin,
    metadataMap: { 'render.zg.rank': String(first + i + 1), 'render.zg.rating.rank': String(first + i + 1) },
  }));
  const cards = asins
    .slice(0, BESTSELLERS_RENDERED)
    .map((asin, i) => card(asin, first + i + 1, locale, epoch, slug.replace(/[^a-z0-9]+/g, '_'), postalCode))
    .join('\n');
  const category = escapeHtml(categoryName(slug));
  const heading = escapeHtml(locale.texts.bestSellersIn(categoryName(slug)));
  return Buffer.from(`<!doctype html>
<html lang="${locale.htmlLang}" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>${escapeHtml(locale.siteName)} Best Sellers: ${category}</title>
<link rel="canonical" href="${locale.origin}${listPath}" />
</head>
<body class="a-m-${locale.code.toLowerCase()} a-aui_72554-c">
<div id="a-page">${navBelt(locale)}<div id="zg" class="a-section a-spacing-none"><div id="zg_banner_text_wrapper" class="a-section">Amazon Best Sellers</div>
<div class="a-fixed-left-grid"><div id="zg-left-col" class="a-fixed-left-grid-col a-col-left"></div>
<div id="zg-right-col" class="a-fixed-left-grid-col a-col-right">
<h1 class="a-size-large a-spacing-medium a-text-bold">${heading}</h1>
<div class="p13n-desktop-grid" data-client-recs-list="${escapeHtml(JSON.stringify(recs))}">
${cards}
</div>
<div class="a-text-center">${pagination(`${locale.origin}${listPath}`, page, locale)}</div>
</div></div>
</div></div>
</body></html>
`);
}
