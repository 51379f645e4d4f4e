import type { JobType } from '@crawl/core';
import { ASIN_PATTERN, asinOfTarget } from '@crawl/core';

/**
 * The request URL of a target (DESIGN section 3): `/dp/{ASIN}` for an ASIN, the product URL's
 * path on the marketplace origin for a URL, `/s?k=` for a keyword; `lang` adds `language=`.
 */
export function targetUrl(type: JobType, target: string, origin: string, lang: string | null): string {
  let url: URL;
  if (type === 'search') {
    url = new URL('/s', origin);
    url.searchParams.set('k', target);
  } else if (ASIN_PATTERN.test(target)) {
    url = new URL(`/dp/${target}`, origin);
  } else {
    url = new URL(new URL(target).pathname, origin);
  }
  if (lang) url.searchParams.set('language', lang.replace('-', '_'));
  return url.toString();
}

/** The ASIN a details target asks for (the page must be about it). */
export function expectedAsin(type: JobType, target: string): string | null {
  return type === 'details' ? asinOfTarget(target) : null;
}

/** `Accept-Language` for a locale hint: `de-DE` -> `de-DE,de;q=0.9,en;q=0.8`. */
export function acceptLanguage(lang: string): string {
  const language = lang.split('-')[0]!;
  const parts = [lang];
  if (language !== lang) parts.push(`${language};q=0.9`);
  if (language !== 'en') parts.push('en;q=0.8');
  return parts.join(',');
}
