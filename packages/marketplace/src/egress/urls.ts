import type { JobType, PageStyle, ReviewSort } from '@crawl/core';
import { MARKETPLACE_KINDS } from '../kinds';

/**
 * The request URL of a target (docs/fetch-contract.md), built by its job type's module
 * (kinds/<type>.ts: `{origin}/dp/{ASIN}` for a details target, `{origin}/s?k={keyword}` for a
 * keyword, ...). `lang` adds `language=`; `pageStyle` is how page n > 1 of an offer listing is
 * asked for (the layout of the page before: see CrawlInput.pageStyle).
 *
 * Egress invariant: the URL is built from constant paths, the parsed ASIN or keyword and the
 * page number only, never from a product URL's path nor from a link on a fetched page. A path is attacker-controlled, and resolving one against the
 * origin lets `//host`, `\host` or `/\host` replace the host (a best-seller path is set as the
 * URL's pathname, which cannot change the host, and must keep a list prefix). The result is checked to be on
 * `origin` all the same; a target with no ASIN is a bug upstream (normalizeTargets refuses it),
 * so it throws rather than falling back to anything the user wrote.
 */
export function targetUrl(
  type: JobType,
  target: string,
  origin: string,
  lang: string | null,
  page = 1,
  sort: ReviewSort | null = null,
  pageStyle: PageStyle | null = null,
): string {
  const base = marketplaceOrigin(origin);
  const url = MARKETPLACE_KINDS[type].url(target, base, page, sort, pageStyle);
  if (lang) url.searchParams.set('language', lang.replace('-', '_'));
  if (url.origin !== base) throw new Error('request URL left the marketplace origin');
  return url.toString();
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
  return MARKETPLACE_KINDS[type].expectedAsin(target);
}

/** `Accept-Language` for a locale hint: `de-DE` -> `de-DE,de;q=0.9,en;q=0.8`. */
export function acceptLanguage(lang: string): string {
  const language = lang.split('-')[0]!;
  const parts = [lang];
  if (language !== lang) parts.push(`${language};q=0.9`);
  if (language !== 'en') parts.push('en;q=0.8');
  return parts.join(',');
}
