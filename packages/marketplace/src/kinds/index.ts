import type { JobType } from '@crawl/core';
import { bestsellers } from './bestsellers';
import { details } from './details';
import { offers } from './offers';
import { reviews } from './reviews';
import { search } from './search';
import type { CrawlInput, FetchedPage, MarketplaceKind, PageItems } from './types';

export type { CrawlInput, FetchedPage, MarketplaceKind, PageItems } from './types';

/**
 * How each job type is crawled: URL, parser, items, paging. Typed by JobType: a type without
 * its module does not compile (docs/adding-a-job-type.md).
 */
export const MARKETPLACE_KINDS = {
  details,
  search,
  offers,
  bestsellers,
  reviews,
} satisfies { [T in JobType]: MarketplaceKind<object> };

/** What the parser of a job type returns. */
export type ParsedOf<T extends JobType> = ReturnType<(typeof MARKETPLACE_KINDS)[T]['parse']>;

/** A parsed page of the job type it was fetched for: `kind` is the job's type, the rest its parser's output. */
export type ContentPage = { [T in JobType]: { kind: T } & ParsedOf<T> }[JobType];

/** The items of a parsed page, by the kind of the job it was fetched for. */
export function pageItems(input: CrawlInput, page: ContentPage, fetched: FetchedPage): PageItems {
  const { kind, ...parsed } = page;
  // `kind` and `parsed` come from the same page: the registry entry is that type's.
  return (MARKETPLACE_KINDS[kind] as MarketplaceKind<object>).items(input, parsed, fetched);
}
