/**
 * Output contract of the Amazon HTML parsers. Bump PARSER_VERSION whenever the
 * output for the same input HTML changes, so stored rows can be re-parsed.
 */
import type { ParsedDetails, ParsedSearchCard } from '@crawl/core';

export const PARSER_VERSION = 'amazon-2026.11.1';

/**
 * The parsers' output types are inferred from the result item schemas of @crawl/core (the
 * API's one definition of a result item); the worker adds `target` or `keyword` when storing.
 */
export type { AvailabilityStatus, Money } from '@crawl/core';
export type DetailsItem = ParsedDetails;
export type SearchItem = ParsedSearchCard;

/** marketplace: 'US', 'UK', 'DE', ...; origin: 'https://www.amazon.de' (base for relative URLs). */
export interface PageContext {
  marketplace: string;
  origin: string;
}

export type PageKind = 'captcha' | 'details' | 'search' | 'unknown';
