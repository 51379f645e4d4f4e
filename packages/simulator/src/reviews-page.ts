/**
 * The built-in customer-review page (`/product-reviews/{ASIN}?pageNumber=n`), in the
 * data-hook markup Amazon has used since 2018 and the reviews parser reads: the product summary
 * (product-link, average-star-rating, total-review-count, #histogramTable), ten
 * [data-hook="review"] blocks per page (element id = review id; genome-widget author,
 * review-star-rating, review-title, review-date line in the marketplace's language,
 * format-strip, avp-badge, review-body, helpful-vote-statement) and the pagination bar with
 * "Next page" on every page but the last. Everything derives from the ASIN and the page: the
 * same request gets the same bytes, and no two pages share a review.
 */
import { starClass } from './details-page';
import { escapeHtml } from './html';
import { reviewId } from './listing-templates';
import type { MarketLocale } from './locale';
import type { ProductFacts } from './product-facts';
import { createPrng, fnv1a } from './prng';
import { reviewText } from './review-texts';
import { navBelt } from './delivery-location';

export const REVIEWS_PER_PAGE = 10;

/** Reviews are dated back from here, newest first (a fixed day: pages must not change with the clock). */
const NEWEST_REVIEW = Date.UTC(2025, 4, 28);
const DAY_MS = 86_400_000;

/** A review's stars drawn from the product's histogram, so the list agrees with the summary. */
function starsFrom(facts: ProductFacts, draw: number): number {
  let acc = 0;
  for (let i = 0; i < 5; i++) {
    acc += facts.histogram[i]! / 100;
    if (draw < acc) return 5 - i;
  }
  return 1;
}

function summary(facts: ProductFacts, locale: MarketLocale): string {
  const t = locale.texts;
  const stars = escapeHtml(t.outOf5(locale.ratingText(facts.rating)));
  const slug = facts.title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const rows = facts.histogram
    .map((percent, i) => {
      const n = 5 - i;
      const label = escapeHtml(t.starRow(n));
      return `<tr class="a-histogram-row a-align-center"><td class="aok-nowrap"><span class="a-size-base"><a class="a-link-normal" title="${label}" href="${locale.origin}/product-reviews/${facts.asin}/ref=cm_cr_arp_d_hist_${n}?ie=UTF8&amp;filterByStar=${n}_star">${label}</a></span></td><td class="a-span10"><div class="a-meter" role="progressbar" aria-valuenow="${percent}%"><div class="a-meter-bar" style="width: ${percent}%;"></div></div></td><td class="a-text-right a-nowrap"><span class="a-size-base">${percent}%</span></td></tr>`;
    })
    .join('\n');
  return `<div id="cm_cr-product_info" class="a-section a-spacing-none celwidget">
<div class="a-row product-title"><h1 class="a-size-large a-text-ellipsis"><a data-hook="product-link" class="a-link-normal" href="${locale.origin}/${slug}/dp/${facts.asin}/ref=cm_cr_arp_d_product_top?ie=UTF8">${escapeHtml(facts.title)}</a></h1></div>
<div class="a-row a-spacing-medium averageStarRatingNumerical"><i data-hook="average-star-rating" class="a-icon a-icon-star a-star-${starClass(facts.rating)}"><span class="a-icon-alt">${stars}</span></i> <span data-hook="rating-out-of-text" class="a-size-medium a-color-base">${stars}</span></div>
<div class="a-row a-spacing-medium"><span data-hook="total-review-count" class="a-size-base a-color-secondary">${escapeHtml(t.ratings(locale.countText(facts.ratingsCount)))}</span></div>
<table id="histogramTable" class="a-normal a-align-center a-spacing-base">
${rows}
</table>
</div>`;
}

function review(facts: ProductFacts, locale: MarketLocale, page: number, index: number): string {
  const id = reviewId(facts.asin, page, index);
  const random = createPrng(fnv1a(`${id}#review`));
  const stars = starsFrom(facts, random());
  const t = locale.texts;
  const text = reviewText(t.language, stars, random);
  const ordinal = (page - 1) * REVIEWS_PER_PAGE + index;
  const day = new Date(NEWEST_REVIEW - (ordinal * 3 + Math.floor(random() * 3)) * DAY_MS).toISOString().slice(0, 10);
  const starText = escapeHtml(t.outOf5(locale.ratingText(stars)));
  const reviewHref = `${locale.origin}/gp/customer-reviews/${id}/ref=cm_cr_arp_d_rvw_ttl?ie=UTF8&amp;ASIN=${facts.asin}`;
  const variant =
    random() < 0.5
      ? `<a data-hook="format-strip" class="a-size-mini a-link-normal a-color-secondary" href="${locale.origin}/product-reviews/${facts.asin}/ref=cm_cr_arp_d_rvw_rvwer?ie=UTF8&amp;formatType=current_format">${escapeHtml(t.color)}: ${['Black', 'White', 'Blue', 'Grey'][Math.floor(random() * 4)]}</a><i class="a-icon a-icon-text-separator" role="img" aria-label="|"></i>`
      : '';
  const verified =
    random() < 0.85 ? `<span data-hook="avp-badge" class="a-size-mini a-color-state a-text-bold">${escapeHtml(t.verified)}</span>` : '';
  const votes = random() < 0.45 ? 0 : 1 + Math.floor(random() ** 3 * 240);
  const statement = votes
    ? `<span data-hook="helpful-vote-statement" class="a-size-base a-color-tertiary cr-vote-text">${escapeHtml(t.helpful(votes, locale.countText(votes)))}</span>`
    : '';
  const profile = (fnv1a(`${id}#profile`).toString(36) + fnv1a(`${id}#p2`).toString(36)).toUpperCase();
  return `<div id="${id}" data-hook="review" class="a-section review aok-relative"><div class="a-section celwidget" id="customer_review-${id}">
<div data-hook="genome-widget" class="a-row a-spacing-mini"><a href="${locale.origin}/gp/profile/amzn1.account.A${profile}/ref=cm_cr_arp_d_gw_btm?ie=UTF8" class="a-profile" data-a-size="small"><div aria-hidden="true" class="a-profile-avatar-wrapper"><div class="a-profile-avatar"><img src="https://images-na.ssl-images-amazon.com/images/S/amazon-avatars-global/default.png" class="" alt=""></div></div><div class="a-profile-content"><span class="a-profile-name">${escapeHtml(text.author)}</span></div></a></div>
<div class="a-row"><a class="a-link-normal" title="${starText}" href="${reviewHref}"><i data-hook="review-star-rating" class="a-icon a-icon-star a-star-${stars} review-rating"><span class="a-icon-alt">${starText}</span></i></a><span class="a-letter-space"></span><a data-hook="review-title" class="a-size-base a-link-normal review-title a-color-base review-title-content a-text-bold" href="${reviewHref}"><span>${escapeHtml(text.title)}</span></a></div>
<span data-hook="review-date" class="a-size-base a-color-secondary review-date">${escapeHtml(t.reviewedIn(locale.country, locale.dateText(day)))}</span>
<div class="a-row a-spacing-mini review-data review-format-strip">${variant}${verified}</div>
<div class="a-row a-spacing-small review-data"><span data-hook="review-body" class="a-size-base review-text review-text-content"><span>${text.body.map(escapeHtml).join('<br><br>')}</span></span></div>
<div class="a-row review-comments cr-vote-action-bar">${statement}<span data-hook="review-voting-widget" class="cr-vote"><span class="a-button a-button-base"><span class="a-button-inner"><a href="${locale.origin}/ap/signin?openid.return_to=${encodeURIComponent(`${locale.origin}/product-reviews/${facts.asin}`)}" class="a-button-text" role="button">Helpful</a></span></span></span></div>
</div></div>`;
}

/**
 * Page `page` of the reviews of the product `facts` describes, on the marketplace of `locale`;
 * `last` disables "Next page" (the crawler stops there).
 */
export function reviewsPage(facts: ProductFacts, locale: MarketLocale, page: number, last: boolean): Buffer {
  const t = locale.texts;
  const { asin } = facts;
  const link = (n: number) => `${locale.origin}/product-reviews/${asin}/ref=cm_cr_arp_d_paging_btm_next_${n}?ie=UTF8&amp;pageNumber=${n}`;
  const previous =
    page > 1
      ? `<li class="a-normal"><a href="${link(page - 1)}">← ${escapeHtml(t.previousPage)}</a></li>`
      : `<li class="a-disabled">← ${escapeHtml(t.previousPage)}</li>`;
  const next = last
    ? `<li class="a-disabled a-last">${escapeHtml(t.nextPage)} →</li>`
    : `<li class="a-last"><a href="${link(page + 1)}">${escapeHtml(t.nextPage)} →</a></li>`;
  const reviews = Array.from({ length: REVIEWS_PER_PAGE }, (_, i) => review(facts, locale, page, i)).join('\n');
  return Buffer.from(`<!doctype html>
<html lang="${locale.htmlLang}" class="a-no-js" data-19ax5a9jf="dingo"><head>
<meta charset="utf-8">
<title>${escapeHtml(locale.siteName)}: ${escapeHtml(t.customerReviews)}: ${escapeHtml(facts.title)}</title>
<link rel="canonical" href="${locale.origin}/product-reviews/${asin}" />
</head>
<body class="a-m-${locale.code.toLowerCase()} a-aui_72554-c">
<div id="a-page">${navBelt(locale)}<div id="cm_cr-review_list-wrapper" class="a-container">
${summary(facts, locale)}
<div id="cm_cr-review_list" class="a-section a-spacing-none review-views celwidget">
${reviews}
</div>
<div id="cm_cr-pagination_bar" class="a-text-center celwidget a-text-base" data-hook="pagination-bar"><ul class="a-pagination">${previous}${next}</ul></div>
</div></div>
</body></html>
`);
}
