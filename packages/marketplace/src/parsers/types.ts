/**
 * Output contract of the Amazon HTML parsers. Bump PARSER_VERSION whenever the
 * output for the same input HTML changes, so stored rows can be re-parsed.
 */
import type { JobType } from '@crawl/core';
import type {
  ParsedBestseller,
  ParsedBestsellersPage,
  ParsedDetails,
  ParsedOffer,
  ParsedOffersPage,
  ParsedReview,
  ParsedReviewsPage,
  ParsedSearchCard,
} from '@crawl/core';

export const PARSER_VERSION = 'amazon-2026.12.2';

/**
 * The parsers' output types are inferred from the result item schemas of @crawl/core (the
 * API's one definition of a result item); the worker adds `target` or `keyword` when storing.
 */
export type { AvailabilityStatus, Money } from '@crawl/core';
export type DetailsItem = ParsedDetails;
export type SearchItem = ParsedSearchCard;
export type OfferItem = ParsedOffer;
export type OffersPage = ParsedOffersPage;
export type BestsellerItem = ParsedBestseller;
export type BestsellersPage = ParsedBestsellersPage;
export type ReviewItem = ParsedReview;
export type ReviewsPage = ParsedReviewsPage;

/** marketplace: 'US', 'UK', 'DE', ...; origin: 'https://www.amazon.de' (base for relative URLs). */
export interface PageContext {
  marketplace: string;
  origin: string;
  /** When the page was fetched: what a delivery promise's dates are resolved against (now when absent). */
  fetchedAt?: Date;
}

/** 'signin': an Amazon sign-in wall (/ap/signin form) served instead of the requested page. */
export type PageKind = 'captcha' | 'signin' | JobType | 'unknown';
