import type { JobType, ReviewSort } from './domain';
import { creditCost, isMultiPage, JOB_KINDS } from './kinds';
import type { MarketplaceCode } from './marketplaces';

/**
 * How a job's targets are crawled: what the API body takes under `config`, resolved (the
 * marketplace decided, the type's defaults applied, an option that does not apply to the type
 * null). A new job option is one field here plus its validation in the job body's schema
 * (docs/adding-a-job-type.md, "Adding a job option"); every layer that carries a spec carries it.
 */
export interface JobOptions {
  marketplace: MarketplaceCode;
  lang: string | null;
  /** Search, reviews and offers: pages per target (`config.pages`, the type's default when absent); null for the other types. */
  pages: number | null;
  /** Reviews: the review order (`config.sort`); null when not asked and for the other types. */
  sort: ReviewSort | null;
  /**
   * Where the shopper is (`config.postalCode`), normalised for the marketplace
   * (postal-codes.ts); null: the exit's session as it is, its location reported on each item.
   */
  postalCode: string | null;
}

/** What a job crawls, whichever way it was asked for: an API body, a retried job, a schedule's config. */
export interface JobSpec extends JobOptions {
  type: JobType;
  targets: string[];
}

/** The options every stored spec has had from the start; the others came later. */
type FirstOptions = 'marketplace' | 'lang';

/**
 * Options as stored where a spec outlives the code that wrote it (a schedule's `crawl_config`
 * jsonb, a job row's columns): an option added later is absent or null in what was stored
 * before it. `readJobOptions` says what that meant.
 */
export type StoredJobOptions = Pick<JobOptions, FirstOptions> & { [K in Exclude<keyof JobOptions, FirstOptions>]?: JobOptions[K] | null };

/** A schedule's `crawl_config` (jsonb): `toStoredJobSpec` writes it, `readJobSpec` reads it. */
export type StoredJobSpec = Pick<JobSpec, 'type' | 'targets'> & StoredJobOptions;

/**
 * Stored options as a spec has them. A multi-page type without pages was stored before the type
 * had pages: that meant one page (not the type's default, which only a new request gets).
 */
export function readJobOptions(type: JobType, stored: StoredJobOptions): JobOptions {
  return {
    marketplace: stored.marketplace,
    lang: stored.lang ?? null,
    pages: isMultiPage(type) ? (stored.pages ?? 1) : null,
    sort: JOB_KINDS[type].sortable ? (stored.sort ?? null) : null,
    postalCode: stored.postalCode ?? null,
  };
}

export function readJobSpec(stored: StoredJobSpec): JobSpec {
  return { type: stored.type, targets: stored.targets, ...readJobOptions(stored.type, stored) };
}

/** The jsonb of a schedule's spec: an option that does not apply is left out, as it always was. */
export function toStoredJobSpec(spec: JobSpec): StoredJobSpec {
  const { pages, sort, postalCode, ...rest } = spec;
  return {
    ...rest,
    ...(pages !== null ? { pages } : {}),
    ...(sort !== null ? { sort } : {}),
    ...(postalCode !== null ? { postalCode } : {}),
  };
}

/** Pages crawled, and reserved, per target: the spec's pages, one for a single-page type. */
export function pagesPerTarget(spec: Pick<JobSpec, 'pages'>): number {
  return spec.pages ?? 1;
}

/** What a job of this spec reserves: every page of every target (pages not crawled are refunded at the end). */
export function specCost(spec: Pick<JobSpec, 'type' | 'targets' | 'pages'>): number {
  return creditCost(spec.type, spec.targets.length, pagesPerTarget(spec));
}
