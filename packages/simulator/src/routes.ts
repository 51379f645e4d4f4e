/**
 * Maps a request to the page that answers it (DESIGN section 3, "Fetch contract"). Only the
 * short request line is parsed per request; page bodies are looked up, never scanned.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RenderedPage } from './asin-template';
import { keywordSlugs } from './keyword-slug';
import type { PageStore, StoredPage } from './page-store';
import { syntheticDetailsPage, syntheticSearchPage } from './synthetic';

/** `/dp/{ASIN}`, `/gp/product/{ASIN}`, `/{slug}/dp/{ASIN}`, each optionally followed by `/ref=...`. */
const DETAILS_PATH_RE = /^\/(?:[^?#]*\/)?(?:dp|gp\/product)\/([A-Za-z0-9]{10})(?:\/[^?#]*)?$/;

/** Region/language of a locale -> the marketplace whose saved page fits it best. */
const REGION_TO_MARKETPLACE: Record<string, string> = { GB: 'UK' };
const LANGUAGE_TO_MARKETPLACE: Record<string, string> = { de: 'DE', fr: 'FR', es: 'ES', pt: 'BR', it: 'IT', ja: 'JP', nl: 'NL', sv: 'SE', pl: 'PL', tr: 'TR', en: 'US' };

export interface RouteOptions {
  anyAsin: boolean;
  anyKeyword: boolean;
}

/**
 * Splits the request target by hand (no URL object per request). An absolute-form target
 * (`GET http://host/dp/...`, as a client configured to use the simulator as proxy sends it) is
 * reduced to its path first.
 */
function splitTarget(rawTarget: string): { pathname: string; query: URLSearchParams } {
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
function resultPage(query: URLSearchParams): number {
  const n = Number(query.get('page') ?? '1');
  return Number.isInteger(n) && n >= 1 && n <= MAX_RESULT_PAGE ? n : 1;
}
const fixed = (body: Buffer): RenderedPage => ({ body, release: NOOP });

/** The page for this request target, or null for a 404. Call release() when the response closes. */
export function resolvePage(store: PageStore, options: RouteOptions, target: string, headers: IncomingHttpHeaders): RenderedPage | null {
  const { pathname, query } = splitTarget(target);
  const details = DETAILS_PATH_RE.exec(pathname);
  if (details) {
    const asin = details[1]!.toUpperCase();
    const pages = store.details.get(asin);
    if (pages) return fixed(pickPage(pages, query, headers).body);
    if (!options.anyAsin) return null;
    return store.detailsTemplate ? store.detailsTemplate.acquire(asin) : fixed(syntheticDetailsPage(asin));
  }
  if (pathname === '/s' || pathname === '/s/') {
    // `field-keywords` is the pre-2019 search form's parameter; Amazon still accepts it.
    const keyword = query.get('k') ?? query.get('field-keywords') ?? '';
    if (!keyword.trim()) return null;
    for (const slug of keywordSlugs(keyword)) {
      const pages = store.searches.get(slug);
      if (pages) return fixed(pickPage(pages, query, headers).body);
    }
    if (!options.anyKeyword) return null;
    const page = resultPage(query);
    return fixed(store.searchTemplate ? store.searchTemplate.render(keyword, page) : syntheticSearchPage(keyword, page));
  }
  return null;
}
