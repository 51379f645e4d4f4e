import type { JobType, ReviewSort } from '@crawl/core';
import { ASIN_PATTERN, asinOfTarget, isBestsellerPath } from '@crawl/core';

/**
 * The request URL of a target (docs/fetch-contract.md): `{origin}/dp/{ASIN}` for a details target,
 * `{origin}/s?k={keyword}` for a keyword, plus `&page={n}` for its result page n > 1;
 * `{origin}/gp/offer-listing/{ASIN}` for offers; `{origin}/product-reviews/{ASIN}?pageNumber={n}`
 * (plus `&sortBy=`) for reviews; `{origin}{path}` for a best-seller list URL, whose path (only)
 * is re-rooted on the origin. `lang` adds `language=`.
 *
 * Egress invariant: the URL is built from constant paths and the parsed ASIN or keyword only,
 * never from a product URL's path. A path is attacker-controlled, and resolving one against the
 * origin lets `//host`, `\host` or `/\host` replace the host (a best-seller path is set as the
 * URL's pathname, which cannot change the host, and must keep a list prefix). The result is checked to be on
 * `origin` all the same; a target with no ASIN is a bug upstream (normalizeTargets refuses it),
 * so it throws rather than falling back to anything the user wrote.
 */
export function targetUrl(type: JobType, target: string, origin: string, lang: string | null, page = 1, sort: ReviewSort | null = null): string {
  const base = marketplaceOrigin(origin);
  let url: URL;
  if (type === 'search') {
    url = new URL('/s', base);
    url.searchParams.set('k', target);
    if (page > 1) url.searchParams.set('page', String(page));
  } else if (type === 'bestsellers') {
    url = new URL(base);
    url.pathname = bestsellerPath(target);
  } else {
    const asin = asinOfTarget(target);
    if (!asin || !ASIN_PATTERN.test(asin)) throw new Error(`${type} target has no valid ASIN`);
    url = new URL(type === 'offers' ? `/gp/offer-listing/${asin}` : type === 'reviews' ? `/product-reviews/${asin}` : `/dp/${asin}`, base);
    if (type === 'reviews') {
      url.searchParams.set('pageNumber', String(page));
      if (sort) url.searchParams.set('sortBy', sort);
    }
  }
  if (lang) url.searchParams.set('language', lang.replace('-', '_'));
  if (url.origin !== base) throw new Error('request URL left the marketplace origin');
  return url.toString();
}

/** The path of a best-seller list target (validated by normalizeTargets); anything else is a bug upstream. */
function bestsellerPath(target: string): string {
  const path = new URL(target).pathname;
  if (!isBestsellerPath(path)) throw new Error('bestsellers target is not a best-seller list path');
  return path;
}

/**
 * The scheme, host and port of a configured marketplace origin (any path, query or userinfo
 * in the configuration is dropped): the only place a worker may send a request to.
 */
export function marketplaceOrigin(origin: string): string {
  const url = new URL(origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('marketplace origin must be http(s)');
  return url.origin;
}

/** The ASIN a details, offers or reviews target asks for (the page must be about it). */
export function expectedAsin(type: JobType, target: string): string | null {
  return type === 'details' || type === 'offers' || type === 'reviews' ? asinOfTarget(target) : null;
}

/** `Accept-Language` for a locale hint: `de-DE` -> `de-DE,de;q=0.9,en;q=0.8`. */
export function acceptLanguage(lang: string): string {
  const language = lang.split('-')[0]!;
  const parts = [lang];
  if (language !== lang) parts.push(`${language};q=0.9`);
  if (language !== 'en') parts.push('en;q=0.8');
  return parts.join(',');
}
