/**
 * Maps a request to the page that answers it (docs/fetch-contract.md). Only the
 * short request line is parsed per request; page bodies are looked up, never scanned.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RenderedPage } from './asin-template';
import { keywordSlugs } from './keyword-slug';
import { reviewPageKey, type PageStore, type StoredPage } from './page-store';
import { noResultsSearchPage } from './no-results-page';
import { generatedDetailsPage, syntheticSearchPage, type PageVariant } from './synthetic';
import { aodOffersAjaxPage, aodOffersPage } from './aod-offers-page';
import { BESTSELLER_LIST_PAGES } from './bestsellers-template';
import { bestsellersPage } from './bestsellers-page';
import { driftKey, epochOf, type DriftEpochs } from './drift';
import { marketLocale, requestMarketplace } from './locale';
import { glowLines } from './delivery-location';
import { LocatedPage, type LocatedKind } from './located-page';
import { productFacts } from './product-facts';
import { reviewsPage } from './reviews-page';
import type { OffersLayout } from './types';

/** `/dp/{ASIN}`, `/gp/product/{ASIN}`, `/{slug}/dp/{ASIN}`, each optionally followed by `/ref=...`. */
const DETAILS_PATH_RE = /^\/(?:[^?#]*\/)?(?:dp|gp\/product)\/([A-Za-z0-9]{10})(?:\/[^?#]*)?$/;
/** `/gp/offer-listing/{ASIN}` and `/product-reviews/{ASIN}`, optionally after a slug and before `/ref=...`. */
const OFFERS_PATH_RE = /^\/(?:[^?#]*\/)?gp\/offer-listing\/([A-Za-z0-9]{10})(?:\/[^?#]*)?$/;
const REVIEWS_PATH_RE = /^\/(?:[^?#]*\/)?product-reviews\/([A-Za-z0-9]{10})(?:\/[^?#]*)?$/;
/** The AOD panel's further pages (`?asin=..&pageno=n`): `/gp/product/ajax/aodAjaxMain/`, `/gp/product/ajax/`, `/gp/aod/ajax/`, each optionally `/ref=...`. */
const AOD_PAGES_PATH_RE = /^\/gp\/(?:product\/ajax(?:\/aodAjaxMain)?|aod\/ajax)\/?(?:ref=[^/?#]*)?$/;
/** Best-seller list paths (docs/fetch-contract.md): `/gp/bestsellers/...`, `/.../zgbs/...`, `/Best-Sellers-...`. */
const BESTSELLERS_PATH_RE = /^\/(?:gp\/bestsellers(?:\/|$)|Best-Sellers-|(?:[^?#]*\/)?zgbs(?:\/|$))/;

/** Result pages of a keyword and review pages of an ASIN when no count was set (the API's maxima). */
export const DEFAULT_SEARCH_PAGES = 7;
export const DEFAULT_REVIEW_PAGES = 10;
/** Offer-listing pages of an ASIN when no count was set: most listings fit one page. */
export const DEFAULT_OFFER_PAGES = 1;

/** Region/language of a locale -> the marketplace whose saved page fits it best. */
const REGION_TO_MARKETPLACE: Record<string, string> = { GB: 'UK' };
const LANGUAGE_TO_MARKETPLACE: Record<string, string> = {
  de: 'DE',
  fr: 'FR',
  es: 'ES',
  pt: 'BR',
  it: 'IT',
  ja: 'JP',
  nl: 'NL',
  sv: 'SE',
  pl: 'PL',
  tr: 'TR',
  en: 'US',
};

export interface RouteOptions {
  anyAsin: boolean;
  anyKeyword: boolean;
  /**
   * Pages a keyword's results (by its first slug) or an ASIN's reviews and offer listing have,
   * where set (the control API's `/__sim/pages`); the last one shows no "next page" link (an
   * AOD panel: "End of results"). A keyword with 0 pages answers every page with the "no
   * results" page.
   */
  pageCounts?: ReadonlyMap<string, number>;
  /** Offer listing of an ASIN without a saved one (the control API's `/__sim/offers-layout`); default legacy. */
  offersLayout?: OffersLayout;
  /**
   * Built-in details and search pages with each product's own values (true), or with the known
   * values tests rewrite ($19.99, 4.5 stars: false). Built-in pages of the other kinds always vary.
   */
  varied?: boolean;
  /** Drift epochs by ASIN, keyword or list (the control API's `/__sim/drift`). */
  drift?: DriftEpochs;
}

/** How a built-in page for this request is drawn: its marketplace (from the request's language) and its target's drift epoch. */
function variantOf(
  options: RouteOptions,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
  key: string,
  postalCode: string | null,
): PageVariant {
  return {
    locale: marketLocale(requestMarketplace(query, headers)),
    varied: options.varied ?? false,
    epoch: epochOf(options.drift, driftKey(key)),
    postalCode,
  };
}

/**
 * Splits the request target by hand (no URL object per request). An absolute-form target
 * (`GET http://host/dp/...`, as a client configured to use the simulator as proxy sends it) is
 * reduced to its path first.
 */
export function splitTarget(rawTarget: string): { pathname: string; query: URLSearchParams } {
  let target = rawTarget;
  if (/^https?:\/\//i.test(target)) {
    const slash = target.indexOf('/', target.indexOf('//') + 2);
    target = slash === -1 ? '/' : target.slice(slash);
  }
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  let pathname = rawPath;
  try {
    pathname = decodeURIComponent(rawPath);
  } catch {
    // Malformed escapes: route on the raw path (it then simply matches nothing).
  }
  return { pathname, query: new URLSearchParams(q === -1 ? '' : target.slice(q + 1)) };
}

/**
 * When marketplaces share an ASIN or keyword (B01GAWQSFW exists for US and DE), the request's
 * `language=` parameter, then its Accept-Language, picks the page; US is the fallback, as it
 * is the service's default marketplace.
 */
export function pickPage(pages: StoredPage[], query: URLSearchParams, headers: IncomingHttpHeaders): StoredPage {
  // The store's lists are created with their first page (addTo), so never empty.
  if (pages.length === 1) return pages[0]!;
  const locale = query.get('language') ?? headers['accept-language']?.split(',')[0]?.split(';')[0] ?? '';
  const [lang, region] = locale.trim().split(/[-_]/);
  const wanted: string[] = [];
  if (region) wanted.push(REGION_TO_MARKETPLACE[region.toUpperCase()] ?? region.toUpperCase());
  if (lang) wanted.push(LANGUAGE_TO_MARKETPLACE[lang.toLowerCase()] ?? '');
  wanted.push('US');
  for (const mk of wanted) {
    const hit = pages.find((p) => p.marketplace === mk);
    if (hit) return hit;
  }
  return pages[0]!;
}

const NOOP = (): void => {};
const MAX_RESULT_PAGE = 400;

/** `page=` of a search (1-based); anything unusable is page 1. */
function resultPage(query: URLSearchParams, name = 'page'): number {
  const n = Number(query.get(name) ?? '1');
  return Number.isInteger(n) && n >= 1 && n <= MAX_RESULT_PAGE ? n : 1;
}
/** `startIndex=` of a legacy offer listing (10 offers a page) as its page number; anything unusable is page 1. */
function offerListingPage(query: URLSearchParams): number {
  const n = Number(query.get('startIndex') ?? '0');
  return Number.isInteger(n) && n >= 0 && n < MAX_RESULT_PAGE * 10 ? Math.floor(n / 10) + 1 : 1;
}
const fixed = (body: Buffer): RenderedPage => ({ body, release: NOOP });

/** Where the session's shopper is, with the deliver-to lines the request's marketplace shows for it; null: the default place. */
interface Place {
  postalCode: string;
  lines: [string, string];
}

/** What a saved (or template) page is: its shape when fixed (null: rendered per request), what it is about, its marketplace. */
interface Shape {
  shape: Buffer | null;
  kind: LocatedKind;
  marketplace: string | undefined;
  /** The page's product (the key of a search or list, for prices outside its cards). */
  asin: string;
}

/**
 * `page` (a saved page or one rendered from a saved template) at `place` (located-page.ts):
 * its prices, stock and delivery as that place's, in one new buffer; as it is without a place.
 */
function located(store: PageStore, page: RenderedPage, place: Place | null, what: Shape): RenderedPage {
  if (!place) return page;
  const locale = marketLocale(what.marketplace || 'US');
  const shape = what.shape ? store.located.of(what.shape, what.kind, locale) : new LocatedPage(page.body, what.kind, locale);
  const body = shape.render(page.body, { ...place, asin: what.asin });
  page.release();
  return fixed(body);
}

/**
 * The page for this request target, or null for a 404. Call release() when the response closes.
 * `postalCode`: where the session's shopper is (delivery-location.ts); built-in pages show that
 * place's prices and deliveries, null the marketplace's default place.
 */
export function resolvePage(
  store: PageStore,
  options: RouteOptions,
  target: string,
  headers: IncomingHttpHeaders,
  postalCode: string | null = null,
): RenderedPage | null {
  const { pathname, query } = splitTarget(target);
  const place = postalCode ? { postalCode, lines: glowLines(marketLocale(requestMarketplace(query, headers)), postalCode) } : null;
  const details = DETAILS_PATH_RE.exec(pathname);
  if (details) {
    const asin = details[1]!.toUpperCase();
    const pages = store.details.get(asin);
    if (pages) {
      const saved = pickPage(pages, query, headers);
      return located(store, fixed(saved.body), place, { shape: saved.body, kind: 'product', marketplace: saved.marketplace, asin });
    }
    if (!options.anyAsin) return null;
    const template = store.detailsTemplate;
    if (!template) return fixed(generatedDetailsPage(asin, variantOf(options, query, headers, asin, postalCode)));
    return located(store, template.acquire(asin), place, {
      shape: template.page,
      kind: 'product',
      marketplace: store.marketplaces.get(template),
      asin,
    });
  }
  if (pathname === '/s' || pathname === '/s/') {
    // `field-keywords` is the pre-2019 search form's parameter; Amazon still accepts it.
    const keyword = query.get('k') ?? query.get('field-keywords') ?? '';
    if (!keyword.trim()) return null;
    const pages = options.pageCounts?.get(keywordSlugs(keyword)[0] ?? '') ?? DEFAULT_SEARCH_PAGES;
    if (pages === 0) return fixed(noResultsSearchPage(keyword));
    for (const slug of keywordSlugs(keyword)) {
      const pages = store.searches.get(slug);
      if (!pages) continue;
      const saved = pickPage(pages, query, headers);
      return located(store, fixed(saved.body), place, { shape: saved.body, kind: 'cards', marketplace: saved.marketplace, asin: slug });
    }
    if (!options.anyKeyword) return null;
    const page = resultPage(query);
    const template = store.searchTemplate;
    if (!template) return fixed(syntheticSearchPage(keyword, page, page >= pages, variantOf(options, query, headers, keyword, postalCode)));
    return located(store, fixed(template.render(keyword, page, page >= pages)), place, {
      shape: null,
      kind: 'cards',
      marketplace: store.marketplaces.get(template),
      asin: keyword,
    });
  }
  return resolveListingPage(store, options, pathname, query, headers, postalCode, place);
}

/** Offer listings, review pages and best-seller lists: the saved page, else the kind's template. */
function resolveListingPage(
  store: PageStore,
  options: RouteOptions,
  pathname: string,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
  postalCode: string | null,
  place: Place | null,
): RenderedPage | null {
  const offers = OFFERS_PATH_RE.exec(pathname);
  if (offers) {
    const asin = offers[1]!.toUpperCase();
    const pages = options.pageCounts?.get(asin) ?? DEFAULT_OFFER_PAGES;
    // A saved page is page 1; later ones, and any page of an unsaved ASIN, come from the template.
    const page = offerListingPage(query);
    const saved = store.offers.get(asin);
    if (saved && page === 1) {
      const first = pickPage(saved, query, headers);
      return located(store, fixed(first.body), place, { shape: first.body, kind: 'offers', marketplace: first.marketplace, asin });
    }
    if (!saved && !options.anyAsin) return null;
    // Without a saved legacy page to re-target (a plain clone), the generated 2021+ panel in either layout.
    const template = store.offersTemplate;
    if (template && (saved || options.offersLayout !== 'aod'))
      return located(store, fixed(template.render(asin, page, page >= pages)), place, {
        shape: null,
        kind: 'offers',
        marketplace: store.marketplaces.get(template),
        asin,
      });
    const { locale, epoch } = variantOf(options, query, headers, asin, postalCode);
    return fixed(aodOffersPage(asin, pages, locale, epoch, postalCode));
  }
  if (AOD_PAGES_PATH_RE.test(pathname)) {
    const asin = (query.get('asin') ?? '').toUpperCase();
    if (!/^[A-Z0-9]{10}$/.test(asin) || !options.anyAsin) return null;
    const { locale, epoch } = variantOf(options, query, headers, asin, postalCode);
    return fixed(
      aodOffersAjaxPage(asin, resultPage(query, 'pageno'), options.pageCounts?.get(asin) ?? DEFAULT_OFFER_PAGES, locale, epoch, postalCode),
    );
  }
  const reviews = REVIEWS_PATH_RE.exec(pathname);
  if (reviews) {
    const asin = reviews[1]!.toUpperCase();
    const page = resultPage(query, 'pageNumber');
    const saved = store.reviews.get(reviewPageKey(asin, page));
    if (saved) return fixed(pickPage(saved, query, headers).body);
    const template = store.reviewTemplatesByAsin.get(asin) ?? (options.anyAsin ? store.reviewsTemplate : null);
    const pages = options.pageCounts?.get(asin) ?? DEFAULT_REVIEW_PAGES;
    if (template) return fixed(template.render(asin, page, page >= pages));
    if (!options.anyAsin) return null;
    const { locale, epoch } = variantOf(options, query, headers, asin, postalCode);
    return fixed(reviewsPage(productFacts(asin, locale, epoch), locale, page, page >= pages));
  }
  if (BESTSELLERS_PATH_RE.test(pathname)) {
    // `pg=` as Amazon reads it; a list has no page beyond its last.
    const page = resultPage(query, 'pg');
    if (page > BESTSELLER_LIST_PAGES) return null;
    const listPath = pathname.replace(/\/ref=[^/]*$/, '').toLowerCase();
    const category = listCategory(pathname);
    const saved = store.bestsellers.get(category);
    if (saved) {
      const first = pickPage(saved, query, headers);
      const later = page > 1 ? store.bestsellerTemplatesByFile.get(first.file) : undefined;
      const body = later ? later.render(listPath, page) : first.body;
      return located(store, fixed(body), place, {
        shape: later ? null : body,
        kind: 'cards',
        marketplace: first.marketplace,
        asin: category,
      });
    }
    const template = store.bestsellersTemplate;
    if (template)
      return located(store, fixed(template.render(listPath, page)), place, {
        shape: null,
        kind: 'cards',
        marketplace: store.marketplaces.get(template),
        asin: category,
      });
    const { locale, epoch } = variantOf(options, query, headers, category, postalCode);
    return fixed(bestsellersPage(listPath, category, page, locale, epoch, postalCode));
  }
  return null;
}

/** `/Best-Sellers-Electronics/zgbs/electronics/ref=zg_bs_nav_0` -> `electronics`: the last path segment that names the list. */
export function listCategory(pathname: string): string {
  const segments = pathname.split('/').filter((s) => s && !s.startsWith('ref=') && s !== 'zgbs' && s !== 'gp' && s !== 'bestsellers');
  return (segments.at(-1) ?? '').toLowerCase();
}
