/**
 * Keyword search result page (/s?k=...) parser.
 *
 * Layouts: 2019+ cards are [data-component-type="s-search-result"] (their
 * absence means the pre-2019 layout of li.s-result-item[data-asin] rows).
 * Carousels ("Trending now", brand widgets, related searches) are not result
 * cards and are ignored.
 *
 * Positions: every emitted card gets the next position in document order.
 * Pre-2019 pages with few exact matches append "Alle N Ergebnisse..." blocks
 * for looser queries whose rows restart at id="result_0"; those rows are still
 * results shown on the page, so they are kept, and the ids are ignored for
 * numbering so positions keep increasing across blocks (no two cards share a
 * position, even when an ASIN appears both sponsored and organic).
 */
import { moneyFromElement } from './details-price';
import { isMarketplaceCode } from '@crawl/core';
import { deliveryLocationOf } from './delivery-location';
import { Doc, type LeaveOut, type PageInput, PageSource, type Sel } from '../page';
import { parseCount, parseRating } from './numbers';
import { interstitialKind } from './page-kind';
import { leaveOutOfSearch } from './page-regions';
import { cardBrand } from './search-card-brand';
import { isSponsoredLabel, SPONSORED_WORDS } from './search-labels';
import { cardDeliveryText, cardSalesSignals, cardUnitPrice } from './search-card-commerce';
import { hasNextResultPage, isNoResultsPage, totalResultsOf } from './search-page-info';
import { absUrl, ASIN_RE, asinFromUrl, clean, normalizeOrigin, nullFields, textOf } from './text';
import { PARSER_VERSION, type Money, type PageContext, type SearchItem } from './types';

/**
 * Sponsored prefix of titles: "[Gesponsert]" offscreen spans (pre-2019) and "Sponsored Ad - "
 * aria-labels (2023+). Only these labels are stripped: "[2-Pack] Cable" keeps its brackets.
 */
const SPONSORED_PREFIX_RE = new RegExp(
  `^(?:\\[(?:${SPONSORED_WORDS})\\]\\s*|(?:sponsored ad|anuncio patrocinado|gesponserte anzeige|annonce sponsorisée|annuncio sponsorizzato|anúncio patrocinado|gesponsorde advertentie|sponsrad annons|reklama sponsorowana|sponsorlu reklam|スポンサー広告)\\s*[-–—:]\\s*)`,
  'i',
);

/** Review counts and star labels share aria-labels; star labels mention the 5-star scale. */
const RATING_LABEL_RE =
  /out of 5|de 5|von 5|sur 5|su 5|van 5|av 5|z 5|na 5|5つ星|من 5|5 üzerinden|stars?\b|sterne|étoiles|estrellas|estrelas|stelle|sterren|stjärnor|gwiazdk|yıldız/i;

function unwrapRedirect(href: string, origin: string): string | null {
  const abs = absUrl(href, origin);
  if (!abs) return null;
  // Sponsored cards link through /sspa/click (2019+) or /gp/slredirect/picassoRedirect.html (pre-2019).
  if (/\/sspa\/click|\/gp\/slredirect\//.test(abs)) {
    const m = /[?&]url=([^&]+)/.exec(abs);
    if (m) {
      try {
        return absUrl(decodeURIComponent(m[1]!), origin) ?? abs;
      } catch {
        return abs;
      }
    }
  }
  return abs;
}

/** Canonical product URL when the link names the ASIN; otherwise the absolute link. */
function cardUrl(href: string | undefined, origin: string, asin: string): string | null {
  if (!href) return null;
  const url = unwrapRedirect(href, origin);
  if (!url) return null;
  const linked = asinFromUrl(url);
  if (linked) return `${normalizeOrigin(origin)}/dp/${linked}`;
  return url.includes(asin) ? `${normalizeOrigin(origin)}/dp/${asin}` : url;
}

/** Ad markers of a card: an ad container or label, or a link through an ad click redirect. */
function hasAdMarker(card: Sel, href: string | undefined): boolean {
  if (card.hasClass('AdHolder')) return true;
  if (
    card.find('.puis-sponsored-label-text, .s-sponsored-label-text, .s-sponsored-header, [data-component-type="sp-sponsored-result"]')
      .length
  )
    return true;
  if (href && /\/sspa\/click|\/gp\/slredirect\//.test(href)) return true;
  const labels = card.find('.a-color-secondary, .a-offscreen, h5, .s-label-popover-default, .puis-label-popover-default');
  for (let i = 0; i < labels.length && i < 40; i++) {
    const t = textOf(labels.eq(i));
    if (t && t.length <= 30 && isSponsoredLabel(t)) return true;
  }
  const aria = card.find('h2').first().attr('aria-label') ?? '';
  return SPONSORED_PREFIX_RE.test(aria);
}

/**
 * `isSponsored`: true with an ad marker; false for a card without one whose link goes
 * straight to a product page (ads are labelled and link through a click redirect); null when
 * the card has no product link to tell by, so an unrecognised ad is never reported organic.
 */
function detectSponsored(card: Sel, href: string | undefined, origin: string): boolean | null {
  if (hasAdMarker(card, href)) return true;
  const url = href ? absUrl(href, origin) : null;
  return url && asinFromUrl(url) ? false : null;
}

/** Prime badge of a card (search pages of every layout so far use these). */
const PRIME_BADGE = '.a-icon-prime, [aria-label="Amazon Prime"], .s-prime';

/** A deal badge's ticking countdown (its static lead-in, "Ends in", is a sibling `.a-badge-text`). */
const COUNTDOWN = '[id*="countdown"], .dealBadge-countdown-timer, [data-target-time]';

/**
 * A deal badge offering the price to Prime members ("With Prime", "Mit Prime", "Avec Prime"):
 * the card is marked Prime even where the page shows no Prime icons (signed out). "Prime" is a
 * brand name, written the same in every language.
 */
function hasPrimeDeal(doc: Doc, card: Sel): boolean {
  return card.find('.a-badge[data-a-badge-type="deal"]').filter((_, el) => /\bPrime\b/.test(clean(doc.$(el).text()))).length > 0;
}

/**
 * `isPrime` of a card: true with a Prime badge or a Prime deal; false without one only when other
 * cards of the same page show Prime badges (the page displays Prime eligibility); null when no card
 * does (signed-out or regional pages may show none at all, which says nothing about the products).
 */
const primeOf = (doc: Doc, card: Sel, pageShowsPrime: boolean): boolean | null =>
  card.find(PRIME_BADGE).length > 0 || hasPrimeDeal(doc, card) ? true : pageShowsPrime ? false : null;

function titleAndLink(card: Sel): { title: string | null; href: string | undefined } {
  // Pre-2019: the detail link carries the clean title in its title attribute.
  const old = card.find('a.s-access-detail-page').first();
  if (old.length) {
    const t = clean(old.attr('title')) || textOf(old.find('h2').first());
    return { title: stripSponsoredPrefix(t), href: old.attr('href') };
  }
  // 2019+: the product title is the h2 inside (or around) the detail link; a separate
  // brand-only h2 may precede it in grid layouts.
  const h2s = card.find('h2');
  let best: Sel | null = null;
  for (let i = 0; i < h2s.length; i++) {
    const h = h2s.eq(i);
    if (h.closest('a').length || h.find('a').length) best = h;
  }
  best ??= h2s.length ? h2s.last() : null;
  let href = best?.closest('a').attr('href') ?? best?.find('a').first().attr('href');
  href ??= card.find('[data-cy="title-recipe"] a, a.s-no-outline, .s-product-image-container a').first().attr('href');
  if (!best) return { title: null, href };
  const title = stripSponsoredPrefix(textOf(best)) || stripSponsoredPrefix(clean(best.attr('aria-label')));
  return { title: title || null, href };
}

function stripSponsoredPrefix(t: string): string {
  return clean(t.replace(SPONSORED_PREFIX_RE, ''));
}

function firstNonZeroMoney(els: Sel, marketplace: string): Money | null {
  let zero: Money | null = null;
  for (let i = 0; i < els.length; i++) {
    const m = moneyFromElement(els.eq(i), marketplace);
    if (!m) continue;
    // "$0.00 with Kindle Unlimited" / "EUR 0,00 Prime Video" are subscription offers.
    if (m.amount > 0) return m;
    zero ??= m;
  }
  return zero;
}

function cardPrices(doc: Doc, card: Sel, marketplace: string): { price: Money | null; listPrice: Money | null } {
  const modern = card.find('.a-price:not(.a-text-price)').filter((_, el) => doc.$(el).closest('[data-a-strike="true"]').length === 0);
  let price = firstNonZeroMoney(modern, marketplace);
  if (!price) price = firstNonZeroMoney(card.find('.s-price'), marketplace);
  let listPrice = firstNonZeroMoney(card.find('.a-price[data-a-strike="true"], .a-text-price[data-a-strike="true"]'), marketplace);
  if (!listPrice) {
    const strikes = card.find('.a-text-strike').filter((_, el) => clean(doc.$(el).text()).length > 0);
    listPrice = firstNonZeroMoney(strikes, marketplace);
  }
  if (listPrice && (!price || listPrice.currency !== price.currency || listPrice.amount <= price.amount)) listPrice = null;
  return { price, listPrice };
}

function cardRating(card: Sel): { rating: number | null; star: Sel | null } {
  const stars = card.find('i.a-icon[class*="a-star"], i.a-icon[class*="star"], .a-icon-star, .a-icon-star-small, .a-icon-star-mini');
  for (let i = 0; i < stars.length; i++) {
    const s = stars.eq(i);
    const r = parseRating(textOf(s.find('.a-icon-alt').first()) || s.attr('aria-label') || s.closest('[aria-label]').attr('aria-label'));
    if (r !== null) return { rating: r, star: s };
  }
  return { rating: null, star: null };
}

const COUNT_TEXT_RE = /^\(?[\d.,\s\u00a0]+(?:[kKmM]|mil|Mio\.?|万)?\)?$/;

function cardReviewsCount(card: Sel, star: Sel | null): number | null {
  const scopes: Sel[] = [];
  const block = card.find('[data-cy="reviews-block"]').first();
  if (block.length) scopes.push(block);
  if (star) scopes.push(star.closest('.a-row, .a-section'));
  for (const scope of scopes) {
    // Exact counts live in aria-labels ("84,753 ratings") while the visible text is compact ("(84.7K)").
    const labelled = scope.find('[aria-label]');
    for (let i = 0; i < labelled.length; i++) {
      const label = labelled.eq(i).attr('aria-label') ?? '';
      if (!/\d/.test(label) || RATING_LABEL_RE.test(label) || label.length > 40) continue;
      const n = parseCount(label);
      if (n !== null) return n;
    }
    // Pre-2019 rows: the count is the plain link next to the stars.
    const links = scope.find('a:not(.a-popover-trigger)');
    for (let i = 0; i < links.length && i < 12; i++) {
      const t = textOf(links.eq(i));
      if (COUNT_TEXT_RE.test(t)) return parseCount(t);
    }
    const underline = textOf(scope.find('span.s-underline-text').first());
    if (COUNT_TEXT_RE.test(underline)) return parseCount(underline);
  }
  const reviewsLink = textOf(card.find('a[href*="#customerReviews"]').first());
  return COUNT_TEXT_RE.test(reviewsLink) ? parseCount(reviewsLink) : null;
}

function cardBadges(doc: Doc, card: Sel): string[] {
  const out: string[] = [];
  card.find('.a-badge').each((_, el) => {
    // A deal's countdown ("Ends in 15:20:44") is not a badge: the timer and its lead-in (the
    // badge texts next to it) go; a static label elsewhere in the badge stays.
    const badge = doc.$(el).clone();
    badge.find(COUNTDOWN).each((__, timer) => {
      doc.$(timer).siblings('.a-badge-text').remove();
      doc.$(timer).remove();
    });
    const parts = badge.find('.a-badge-text');
    const body = parts.length ? parts : badge.find('.a-badge-label');
    const text = clean(
      body
        .map((__, p) => doc.$(p).text())
        .get()
        .join(''),
    );
    const id = doc.$(el).attr('id') ?? '';
    if (/amazons-choice|AMAZONS_CHOICE/i.test(id) && !/choice/i.test(text) && !out.includes("Amazon's Choice")) out.push("Amazon's Choice");
    if (text && !out.includes(text)) out.push(text);
  });
  return out;
}

/** Product image first: 2024+ cards also use img.s-image for certification badges. */
const CARD_IMAGE_SELECTORS = [
  '.s-product-image-container img',
  '[data-component-type="s-product-image"] img',
  'img.s-image',
  'img.s-access-image',
];

function cardImage(card: Sel, origin: string): string | null {
  for (const s of CARD_IMAGE_SELECTORS) {
    const imgs = card.find(s);
    for (let i = 0; i < imgs.length; i++) {
      const src = imgs.eq(i).attr('src') ?? imgs.eq(i).attr('data-src');
      if (src && !src.startsWith('data:')) return absUrl(src, origin);
    }
  }
  return null;
}

function selectCards(doc: Doc): Sel {
  const modern = doc.$('[data-component-type="s-search-result"]');
  if (modern.length) return modern;
  return doc.$('li.s-result-item[data-asin], div.s-result-item[data-asin]');
}

/**
 * One result page of a keyword: its cards, whether a next result page exists (a crawler asked
 * for more pages stops when it does not), and whether the page is the marketplace's genuine
 * "no results" answer (no cards, and not a parse failure).
 */
export interface SearchResultsPage {
  cards: SearchItem[];
  hasNextPage: boolean;
  noResults: boolean;
  /** The result count the page announces, when it does. */
  totalResults: number | null;
}

export function parseSearchResults(page: PageInput, ctx: PageContext): SearchResultsPage {
  return parseSearchWithout(page, ctx, leaveOutOfSearch);
}

/** parseSearchResults leaving out the regions `leaveOut` names (page-regions.unit.test.ts parses pages whole too). */
export function parseSearchWithout(page: PageInput, ctx: PageContext, leaveOut: LeaveOut | undefined): SearchResultsPage {
  const source = PageSource.of(page);
  if (!source.length || interstitialKind(source, 'search') === 'captcha')
    return { cards: [], hasNextPage: false, noResults: false, totalResults: null };
  const doc = new Doc(source, { ...(leaveOut ? { leaveOut } : {}), eagerAttributes: true });
  const cards = parseCards(doc, ctx, source);
  // A page without cards has nothing to go on from, whatever pagination it shows.
  if (!cards.length) return { cards, hasNextPage: false, noResults: isNoResultsPage(doc), totalResults: null };
  return { cards, hasNextPage: hasNextResultPage(doc), noResults: false, totalResults: totalResultsOf(doc) };
}

/** The result cards of a search page (see parseSearchResults for the whole page). */
export function parseSearchPage(page: PageInput, ctx: PageContext): SearchItem[] {
  return parseSearchResults(page, ctx).cards;
}

function parseCards(doc: Doc, ctx: PageContext, source: PageSource): SearchItem[] {
  const marketplace = (ctx.marketplace || '').toUpperCase();
  // the page's, the same on every card; read once
  const code = isMarketplaceCode(marketplace) ? marketplace : null;
  const deliveryLocation = code ? deliveryLocationOf(source, code) : null;
  const origin = ctx.origin;
  const cards = selectCards(doc);
  const items: SearchItem[] = [];
  let organic = 0;
  const pageShowsPrime = cards.find(PRIME_BADGE).length > 0;
  cards.each((_, el) => {
    const card = doc.$(el);
    const asin = (card.attr('data-asin') ?? '').trim();
    // Empty data-asin: ad widgets, "related searches", layout placeholders.
    if (!ASIN_RE.test(asin)) return;
    // A card nested in another card is a carousel inside a result, not a result.
    if (card.parents('[data-component-type="s-search-result"], li.s-result-item[data-asin]').length) return;
    const { title, href } = titleAndLink(card);
    const isSponsored = detectSponsored(card, href, origin);
    const { price, listPrice } = cardPrices(doc, card, marketplace);
    const { rating, star } = cardRating(card);
    const reviewsCount = cardReviewsCount(card, star);
    const item: SearchItem = {
      position: items.length + 1,
      // Counted among the cards known to be organic only.
      organicPosition: isSponsored === false ? ++organic : null,
      asin,
      title,
      url: cardUrl(href, origin, asin),
      image: cardImage(card, origin),
      price,
      listPrice,
      unitPrice: code ? cardUnitPrice(card, code) : null,
      rating,
      reviewsCount,
      isSponsored,
      isPrime: primeOf(doc, card, pageShowsPrime),
      badges: cardBadges(doc, card),
      brand: cardBrand(card),
      ...cardSalesSignals(card),
      deliveryText: cardDeliveryText(card),
      deliveryLocation,
      missingFields: [],
      parserVersion: PARSER_VERSION,
    };
    item.missingFields = nullFields(item, ['title', 'url', 'image', 'price', 'rating', 'reviewsCount']);
    items.push(item);
  });
  return items;
}
