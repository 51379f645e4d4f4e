import type { FetchProvenance, JobOptions, JobSpec, PageStyle, ResultItem, ReviewSort } from '@crawl/core';
import type { StillWanted } from '../egress/exits';
import type { PageContext, PageSource } from '../parsers';

/**
 * The job options a page request may read besides its marketplace and language (`sort`:
 * reviews' `sortBy`): each absent or null means the marketplace's default. Not `pages`: a
 * request is one page (`page`).
 */
type PageOptions = Partial<Omit<JobOptions, 'marketplace' | 'lang' | 'pages'>>;

/** One page request: a target of a job, with its job's spec (JobSpec in @crawl/core). */
export interface CrawlInput extends Pick<JobSpec, 'type' | 'marketplace' | 'lang'>, PageOptions {
  target: string;
  /** The result page of a search keyword or the review page of a product (1-based; default 1). Other targets have one page. */
  page?: number;
  /**
   * Page n > 1: how the page before said its next page is requested (PageItems.pageStyle);
   * absent: the type's own way (its only one, for every type but offers).
   */
  pageStyle?: PageStyle | null;
  /** Whose turn the request waits in for an exit (the job's project): see ExitPool. */
  tenant?: string;
  /** Asked before the request takes an exit's turn: false drops it (ExitTurnRefused). */
  wanted?: StillWanted;
}

/**
 * The fetch a page came from: its origin (the base of the URLs items build), and the provenance
 * every item carries (docs/results.md, "Where and when a row was seen").
 */
export interface FetchedPage extends FetchProvenance {
  origin: string;
}

/** The provenance keys of an item of `page`: the last keys of every result item. */
export const provenanceOf = (page: FetchedPage): FetchProvenance => ({ fetchedAt: page.fetchedAt, sourceUrl: page.sourceUrl });

/**
 * The items of a parsed page, each with the submitted target, whether a next page exists, and
 * whether the page is the marketplace's genuine "no results" answer; or why the page holds
 * nothing of what was asked (a PARSE_ERROR: another product's page, an empty list).
 * `pageStyle`: how the next page is requested, when the page's layout decides it (an offer
 * listing's legacy rows page by `startIndex`, its AOD panel by the panel's own pages).
 */
export type PageItems = { items: ResultItem[]; hasNextPage: boolean; noResults: boolean; pageStyle?: PageStyle } | { error: string };

/**
 * How the crawl handles one job type on the marketplace, from target to result items. One
 * module per type (kinds/<type>.ts), gathered in MARKETPLACE_KINDS (kinds/index.ts).
 * `Parsed` is what the type's parser returns in the parse thread (structured-cloned back).
 */
export interface MarketplaceKind<Parsed extends object> {
  /**
   * The request URL of a target on `base` (an origin), before `language=` is added. Built from
   * constant paths, the parsed ASIN or keyword and the page number only, never from a product
   * URL's path nor from a link on a page (the egress rules of targetUrl in egress/urls.ts, which checks
   * the result stays on the origin). `pageStyle`: see CrawlInput.
   */
  url(target: string, base: string, page: number, sort: ReviewSort | null, pageStyle?: PageStyle | null): URL;
  /** The ASIN the page must be about (details, offers, reviews), or null when any page of the type will do. */
  expectedAsin(target: string): string | null;
  /** Runs in a parse thread: the page's data for `items` (a robot check or sign-in wall never gets here). */
  parse(page: PageSource, ctx: PageContext): Parsed;
  /** The result items of a parsed page (see PageItems), each ending in the page's provenanceOf. */
  items(input: CrawlInput, parsed: Parsed, page: FetchedPage): PageItems;
  /**
   * Page n's items after the items of pages 1..n-1 (multi-page types): e.g. search positions
   * continue across pages. Absent: the page's items are kept as they are.
   */
  continueItems?(before: ResultItem[], page: ResultItem[]): ResultItem[];
  /** The `NO_RESULTS` note of a target whose first page is the marketplace's "nothing here" answer. */
  noResultsMessage: string;
  /**
   * The `TRUNCATED` note of a target whose last crawled page still had a next one (`pages`
   * were crawled). Absent: the type notes no such thing (a search's ranking always goes on).
   */
  truncatedMessage?(pages: number): string;
  /** What `errors[].message` says when the marketplace shows a sign-in wall instead of the page (a general sentence when absent). */
  signInMessage?: string;
}
